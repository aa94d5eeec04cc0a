// The installable app, loaded after the page (main.tsx, on `load`): registers the service worker
// (sw/sw.ts), offers a new version when one is waiting, shows the offline view while the device
// has no network, and keeps the browser's theme colour on the chosen market's accent.
import { Suspense, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import { Workbox } from 'workbox-window';
import { followMarketTheme } from './theme';
import './pwa.css';

function useOnline(): boolean {
  const [online, setOnline] = useState(navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
}

// The texts sit in the notice namespace (a namespace of its own would add seven entries to the
// first screen's list of locale files), loaded only when a view below first shows.
function OfflineView() {
  const { t } = useTranslation('notice', { keyPrefix: 'pwa' });
  return (
    <div className="pwa-offline" role="alert" data-testid="offline-view">
      <div className="pwa-offline-box">
        <svg viewBox="0 0 24 24" width="48" height="48" aria-hidden="true">
          <path d="M2 8.5a15 15 0 0 1 20 0M5.5 12a10 10 0 0 1 13 0M9 15.5a5 5 0 0 1 6 0M12 19h.01M3 3l18 18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <h1>{t('offline.title')}</h1>
        <p>{t('offline.body')}</p>
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()} data-testid="offline-retry">
          {t('offline.retry')}
        </button>
      </div>
    </div>
  );
}

function UpdatePrompt({ onLater, onReload }: { onLater: () => void; onReload: () => void }) {
  const { t } = useTranslation('notice', { keyPrefix: 'pwa' });
  return (
    <div className="pwa-update" role="status" data-testid="update-prompt">
      <span>{t('update.ready')}</span>
      <span className="pwa-update-actions">
        <button type="button" className="btn btn-ghost" onClick={onLater} data-testid="update-later">
          {t('update.later')}
        </button>
        <button type="button" className="btn btn-primary" onClick={onReload} data-testid="update-reload">
          {t('update.reload')}
        </button>
      </span>
    </div>
  );
}

function PwaLayer({ wb }: { wb: Workbox | undefined }) {
  const online = useOnline();
  const [waiting, setWaiting] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => {
    if (!wb) return;
    const ready = () => setWaiting(true);
    wb.addEventListener('waiting', ready);
    return () => wb.removeEventListener('waiting', ready);
  }, [wb]);
  const update = () => {
    if (!wb) return;
    // The new worker takes over, then the page reloads onto the new version.
    wb.addEventListener('controlling', () => window.location.reload());
    wb.messageSkipWaiting();
  };
  return (
    <Suspense fallback={null}>
      {!online ? <OfflineView /> : null}
      {waiting && !dismissed ? <UpdatePrompt onLater={() => setDismissed(true)} onReload={update} /> : null}
    </Suspense>
  );
}

export function startPwa(): void {
  followMarketTheme();
  let wb: Workbox | undefined;
  if ('serviceWorker' in navigator) {
    wb = new Workbox('/sw.js', { scope: '/' });
    void wb.register().catch(() => undefined); // no worker (blocked, private mode): the app works without
  }
  const host = document.createElement('div');
  host.id = 'pwa-root';
  document.body.append(host);
  createRoot(host).render(<PwaLayer wb={wb} />);
}
