import { useToasts } from '../lib/toast';

export function Toasts() {
  const items = useToasts();
  return (
    <div className="toasts" role="status" aria-live="polite" data-testid="toasts">
      {items.map((t) => (
        <div key={t.id} className={`toast ${t.kind}`} data-testid="toast">
          {t.text}
        </div>
      ))}
    </div>
  );
}
