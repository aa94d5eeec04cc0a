// The notification centre (the notice page's second view): what happened to the user's robots,
// money and packs, newest first, each in the user's language with what it is about, opening that
// page on a tap (and read from then on); "mark all read".
import { useTranslation } from 'react-i18next';
import { useNavigate } from '../../lib/router';
import { splitReason, type NotificationItem } from '@lq/contracts';
import { ErrorView } from '../../components/Views';
import { localeTag } from '../../lib/format';
import { displayMoney } from '../../lib/money';
import { useAppStore } from '../../lib/store';
import { useLoadMore } from '../../lib/useLoadMore';
import { useMarkRead, useNotifications } from './api';

/** A robot's reason as stored ("key: the venue's message", or a key): the key's label, the message kept. */
function useReason() {
  const { t } = useTranslation(['notice', 'robot']);
  return (raw: unknown): string => {
    const r = splitReason(typeof raw === 'string' ? raw : null);
    if (!r) return '';
    const label = r.key ? t(`robot:reason.${r.key}`, { defaultValue: '' }) : '';
    if (!label) return String(raw);
    return r.detail && r.key !== 'halted' ? `${label} (${r.detail})` : label;
  };
}

export function NotificationCentre() {
  const { t } = useTranslation('notice');
  const { t: tc } = useTranslation();
  const items = useNotifications();
  const { mark, pending } = useMarkRead('notification');
  const sentinel = useLoadMore(items);
  const navigate = useNavigate();
  const locale = useAppStore((s) => s.locale);
  const reason = useReason();
  const pages = items.data?.pages ?? [];
  const list = pages.flatMap((p) => p.list);
  const unread = pages.at(-1)?.unread ?? 0;
  const when = (ms: number) => new Intl.DateTimeFormat(localeTag(locale), { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
  const text = (n: NotificationItem) => {
    const p = n.params;
    const robot = p.symbol ? `${String(p.symbol)}` : '';
    const money = (v: unknown) => (typeof v === 'string' ? displayMoney(v) : '');
    const date = typeof p.expiresAt === 'number' ? when(p.expiresAt) : '';
    return t(`kind.${n.kind}`, { ...p, robot, date, amount: money(p.amount), balance: money(p.balance), was: money(p.was), reason: n.kind.startsWith('robot.') ? reason(p.reason) : (p.reason ?? '') });
  };
  const open = (n: NotificationItem) => {
    if (!n.read) void mark(n.id);
    if (n.link) navigate(n.link);
  };

  return (
    <section className="card" aria-label={t('view.notifications')} data-testid="notification-centre">
      <div className="nt-head">
        <p className="bt-sub">{t('centreHint')}</p>
        {unread > 0 ? (
          <button type="button" className="btn btn-ghost" onClick={() => void mark()} disabled={pending} data-testid="notification-read-all">
            {t('readAll', { count: unread })}
          </button>
        ) : null}
      </div>
      {items.isPending ? <div className="spinner" aria-label={tc('common.loading')} /> : null}
      {items.isError ? <ErrorView message={tc('common.loadFailed')} onRetry={() => void items.refetch()} /> : null}
      {items.isSuccess && list.length === 0 ? (
        <p className="bt-sub" data-testid="notification-empty">
          {t('centreEmpty')}
        </p>
      ) : null}
      <ul className="nt-list" data-testid="notification-list" data-unread={unread}>
        {list.map((n) => (
          <li key={n.id} className={`nt-item${n.read ? '' : ' unread'}`} data-testid={`notification-${n.id}`} data-kind={n.kind} data-read={n.read}>
            <button type="button" className="nt-toggle" onClick={() => open(n)} data-testid={`notification-open-${n.id}`}>
              <span className="nt-title-row solo">
                {n.read ? null : <span className="nt-dot" role="img" aria-label={t('unread')} />}
                <span className="nt-title">{text(n)}</span>
              </span>
              <span className="nt-meta">
                <time dateTime={new Date(n.createdAt).toISOString()}>{when(n.createdAt)}</time>
              </span>
            </button>
          </li>
        ))}
      </ul>
      <div ref={sentinel} />
      {items.hasNextPage ? (
        <button type="button" className="btn btn-ghost btn-block" onClick={() => void items.fetchNextPage()} disabled={items.isFetchingNextPage} data-testid="notification-more">
          {t('more')}
        </button>
      ) : null}
    </section>
  );
}
