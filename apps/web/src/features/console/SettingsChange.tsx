// Settings under two keys (issue 53 item 2): a change of a money setting waits for a second
// operator. These show what a change sets — each value's label, before and after — on the settings
// forms (the change waiting) and on the approvals screen.
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { ConsoleSettingChange, ConsoleSettingsPending } from '@lq/contracts';
import { displayMoney } from '../../lib/money';
import { useDateTime } from './ui';

/** The form's own label of a value (`limits.VIP1.day`, `rates.VIP2`, `prices.slot`, `dividendRate`). */
export function settingLabel(t: TFunction<'console'>, key: string): string {
  const [head, a, b] = key.split('.');
  if (head === 'limits') return `${t(`level.${a}`)} · ${t(`settings.${b}`)}`;
  if (head === 'prices') return t(`business.price.${a}`);
  if (head === 'rates') return a === 'sameLevelShare' ? t('business.sameLevelShare') : t('business.rateOf', { level: t(`level.${a}`) });
  if (head === 'dividendRate') return t('business.dividendRate');
  return t(`settings.${head}`);
}

const shown = (c: ConsoleSettingChange, v: string) => (c.unit === 'bp' ? `${Number(v) / 100} %` : displayMoney(v));

export function SettingChanges({ changes }: { changes: ConsoleSettingChange[] }) {
  const { t } = useTranslation('console');
  return (
    <ul className="cs-changes" data-testid="setting-changes">
      {changes.map((c) => (
        <li key={c.key} data-testid="setting-change" data-key={c.key}>
          <span className="cs-break">{settingLabel(t, c.key)}</span>{' '}
          <span className="cs-sub">{shown(c, c.before)}</span> → <strong data-testid="setting-change-after">{shown(c, c.after)}</strong>
        </li>
      ))}
    </ul>
  );
}

/** A change of these settings waiting for a second operator, above its form. */
export function PendingChange({ pending }: { pending: ConsoleSettingsPending | null }) {
  const { t } = useTranslation('console');
  const when = useDateTime();
  if (!pending) return null;
  return (
    <div className="cs-pending" role="status" data-testid="settings-pending" data-id={pending.id} data-mine={pending.mine}>
      <strong>{t('pending.title', { id: pending.id })}</strong>
      <p className="cs-hint">{t(pending.mine ? 'pending.mine' : 'pending.theirs', { by: pending.requestedBy, at: when(pending.requestedAt) })}</p>
      <SettingChanges changes={pending.changes} />
    </div>
  );
}
