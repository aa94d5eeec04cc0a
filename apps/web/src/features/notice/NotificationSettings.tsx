// Where notifications go (on the personal page): the Telegram chat, linked by a one-time deep link
// opened in Telegram (the page polls until the bot has linked it) and unlinked any time, and a
// switch per kind and channel; Web Push turned on per device. Robot fills and new notices are off until switched on; a failed renewal and a frozen
// account are always e-mailed.
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ALWAYS_MAILED_KINDS, type NotificationChannel, type NotificationKind, type NotificationPrefs, type TelegramLinkResult } from '@lq/contracts';
import { Button } from '../../components/Button';
import { ErrorView, Spinner } from '../../components/Views';
import { localeTag } from '../../lib/format';
import { api } from '../../lib/session';
import { useAppStore } from '../../lib/store';
import { useNotificationPrefs } from './api';
import './notice.css';

/** The VAPID public key as pushManager.subscribe takes it. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const raw = atob(base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '='));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/** The worker's registration, if the app has one (none in development, or where workers are off). */
const registration = async () => ('serviceWorker' in navigator && 'PushManager' in window ? navigator.serviceWorker.getRegistration() : undefined);

/**
 * Web Push on this device: the browser's permission, then its PushSubscription stored on the
 * server (sent again on each visit, so a device that changed accounts follows the new one).
 */
function PushDevice({ push, onPrefs }: { push: NotificationPrefs['push']; onPrefs: (p: NotificationPrefs) => void }) {
  const { t } = useTranslation('notice');
  const [state, setState] = useState<'checking' | 'on' | 'off' | 'unsupported' | 'blocked' | 'failed'>('checking');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    void (async () => {
      const reg = await registration();
      const sub = await reg?.pushManager.getSubscription();
      if (!live) return;
      if (!reg) return setState('unsupported');
      if (Notification.permission === 'denied') return setState('blocked');
      setState(sub ? 'on' : 'off');
      if (sub) onPrefs(await api.post<NotificationPrefs>('user/api/notification/push/subscribe', sub.toJSON(), { silent: true }).catch(() => undefined as never));
    })();
    return () => {
      live = false;
    };
    // Once per visit: onPrefs only stores the answer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const turnOn = async () => {
    setBusy(true);
    try {
      if ((await Notification.requestPermission()) !== 'granted') return setState('blocked');
      const reg = await registration();
      if (!reg || !push.publicKey) return setState('unsupported');
      const sub = (await reg.pushManager.getSubscription()) ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(push.publicKey) }));
      onPrefs(await api.post<NotificationPrefs>('user/api/notification/push/subscribe', sub.toJSON()));
      setState('on');
    } catch {
      setState('failed');
    } finally {
      setBusy(false);
    }
  };
  const turnOff = async () => {
    setBusy(true);
    try {
      const sub = await (await registration())?.pushManager.getSubscription();
      if (sub) {
        onPrefs(await api.post<NotificationPrefs>('user/api/notification/push/unsubscribe', { endpoint: sub.endpoint }));
        await sub.unsubscribe();
      }
      setState('off');
    } catch {
      // The API client has shown the error.
    } finally {
      setBusy(false);
    }
  };
  const text =
    state === 'on' ? t('settings.deviceOn', { count: push.devices }) : state === 'unsupported' ? t('settings.pushUnsupported') : state === 'blocked' ? t('settings.pushBlocked') : state === 'failed' ? t('settings.pushFailed') : t('settings.deviceOff');
  return (
    <div className="ns-telegram" data-testid="push-device" data-state={state}>
      <div className="ns-telegram-text">
        <strong>{t('settings.device')}</strong>
        <span className="nt-meta" data-testid="push-state">
          {push.available ? text : t('settings.telegramClosed')}
        </span>
      </div>
      {push.available && (state === 'off' || state === 'failed') ? (
        <Button busy={busy} onClick={() => void turnOn()} data-testid="push-on">
          {t('settings.turnOn')}
        </Button>
      ) : null}
      {push.available && state === 'on' ? (
        <Button variant="ghost" busy={busy} onClick={() => void turnOff()} data-testid="push-off">
          {t('settings.turnOff')}
        </Button>
      ) : null}
    </div>
  );
}

export default function NotificationSettings() {
  const { t } = useTranslation('notice');
  const { t: tc } = useTranslation();
  const locale = useAppStore((s) => s.locale);
  const client = useQueryClient();
  const [link, setLink] = useState<TelegramLinkResult | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const waiting = link !== null;
  // A link not opened in time stops the polling; the button then makes a new one.
  useEffect(() => {
    if (!link) return;
    const timer = setTimeout(() => setLink(null), Math.max(0, link.expiresAt - Date.now()));
    return () => clearTimeout(timer);
  }, [link]);
  const prefs = useNotificationPrefs(waiting);
  const data = prefs.data;
  const linked = data?.telegram.linked ?? false;
  if (waiting && linked) setLink(null);

  const call = async (what: string, run: () => Promise<NotificationPrefs | void>) => {
    setBusy(what);
    try {
      const next = await run();
      if (next) client.setQueryData(['notification', 'prefs'], next);
    } catch {
      // The API client has shown the error; the switches show what the server keeps.
    } finally {
      setBusy(null);
    }
  };
  const startLink = () =>
    call('link', async () => {
      const made = await api.post<TelegramLinkResult>('user/api/notification/telegram/link', {});
      setLink(made);
      window.open(made.url, '_blank', 'noopener,noreferrer');
    });
  const unlink = () => call('unlink', () => api.post<NotificationPrefs>('user/api/notification/telegram/unlink', {}));
  const toggle = (kind: NotificationKind, channel: NotificationChannel, enabled: boolean) => {
    // Shown switched at once; the server's answer (or, on an error, a fresh read) settles it.
    client.setQueryData<NotificationPrefs>(['notification', 'prefs'], (old) => old && { ...old, prefs: old.prefs.map((p) => (p.kind === kind ? { ...p, [channel]: enabled } : p)) });
    return call(`${kind}/${channel}`, async () => {
      try {
        return await api.post<NotificationPrefs>('user/api/notification/prefs', { kind, channel, enabled });
      } catch (err) {
        void prefs.refetch();
        throw err;
      }
    });
  };

  if (prefs.isError) return <ErrorView message={tc('common.loadFailed')} onRetry={() => void prefs.refetch()} />;
  if (!data) return <Spinner label={tc('common.loading')} />;
  const since = data.telegram.linkedAt ? new Intl.DateTimeFormat(localeTag(locale), { dateStyle: 'medium' }).format(data.telegram.linkedAt) : '';

  // The table's switch columns: each channel, and whether it can receive anything yet.
  const channels: { channel: NotificationChannel; label: string; open: boolean }[] = [
    { channel: 'email', label: t('settings.email'), open: true },
    { channel: 'telegram', label: 'Telegram', open: linked },
    { channel: 'push', label: t('settings.push'), open: data.push.devices > 0 },
  ];
  return (
    <section className="card stack" aria-labelledby="ns-title" data-testid="notification-settings">
      <h2 id="ns-title" className="ns-title">{t('settings.title')}</h2>
      <div className="ns-telegram" data-testid="telegram-link">
        <div className="ns-telegram-text">
          <strong>Telegram</strong>
          <span className="nt-meta" data-testid="telegram-state">
            {!data.telegram.available ? t('settings.telegramClosed') : linked ? t('settings.linkedSince', { date: since }) : waiting ? t('settings.waiting') : t('settings.notLinked')}
          </span>
          {waiting ? (
            <a href={link.url} target="_blank" rel="noopener noreferrer" className="ns-open" data-testid="telegram-open">
              {t('settings.openTelegram')}
            </a>
          ) : null}
        </div>
        {data.telegram.available ? (
          linked ? (
            <Button variant="ghost" busy={busy === 'unlink'} onClick={() => void unlink()} data-testid="telegram-unlink">
              {t('settings.unlink')}
            </Button>
          ) : (
            <Button busy={busy === 'link'} onClick={() => void startLink()} data-testid="telegram-start">
              {waiting ? t('settings.newLink') : t('settings.link')}
            </Button>
          )
        ) : null}
      </div>
      <PushDevice push={data.push} onPrefs={(next) => next && client.setQueryData(['notification', 'prefs'], next)} />
      <table className="ns-table" data-testid="notification-prefs">
        <thead>
          <tr>
            <th scope="col">{t('settings.event')}</th>
            {channels.map((c) => (
              <th key={c.channel} scope="col">
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.prefs.map((p) => {
            const always = ALWAYS_MAILED_KINDS.includes(p.kind);
            return (
              <tr key={p.kind} data-kind={p.kind}>
                <th scope="row">
                  {t(`settings.kind.${p.kind}`)}
                  {always ? <span className="nt-meta ns-note">{t('settings.alwaysMailed')}</span> : null}
                </th>
                {channels.map((c) => (
                  <td key={c.channel}>
                    <label className="ns-cell">
                      <input
                        type="checkbox"
                        aria-label={`${t(`settings.kind.${p.kind}`)}: ${c.label}`}
                        checked={c.open && p[c.channel]}
                        disabled={!c.open || (c.channel === 'email' && always) || busy !== null}
                        onChange={(e) => void toggle(p.kind, c.channel, e.target.checked)}
                      />
                    </label>
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
