// Small pieces of the robot screens: status badge, reason text, money with tone, confirmation
// sheet, empty state, the action buttons and display helpers.
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBacktestTranslation } from '../../i18n';
import type { RobotItem, RobotStatus } from '@lq/contracts';
import { Button } from '../../components/Button';
import { Sheet } from '../../components/Sheet';
import { formatDuration, localeTag, formatNumber, formatPercent, toNumber } from '../../lib/format';
import { useAppStore } from '../../lib/store';
import { actionsOf, formatMoney, splitReason } from './model';
import type { RobotAction } from './api';
import '../../components/screens.css';

export type Tone = 'up' | 'down' | 'flat';
export const toneOf = (value: unknown): Tone => {
  const n = toNumber(value);
  return n === undefined || n === 0 ? 'flat' : n > 0 ? 'up' : 'down';
};

export function useFmt() {
  const locale = useAppStore((s) => s.locale);
  const tag = localeTag(locale);
  const money = (v: unknown) => formatMoney(v, locale);
  /** Signed amount: +1,234.5 / -12 / --; the sign always accompanies the colour (ui.md). */
  const signed = (v: unknown) => {
    const n = toNumber(v);
    return n !== undefined && n > 0 ? `+${money(n)}` : money(v);
  };
  const price = (v: unknown, digits = 8) => formatNumber(v, { maxDecimals: digits });
  const qty = (v: unknown) => formatNumber(v, { maxDecimals: 8 });
  const percent = (v: unknown) => formatPercent(v);
  const dateTime = (v: unknown) => {
    const ms = typeof v === 'string' ? Date.parse(v) : toNumber(v);
    if (ms === undefined || !Number.isFinite(ms)) return '--';
    try {
      return new Intl.DateTimeFormat(tag, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false }).format(ms);
    } catch {
      return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
    }
  };
  const duration = (ms: number | undefined) => formatDuration(ms, locale);
  return { locale, money, signed, price, qty, percent, dateTime, duration };
}

export function RobotStatusBadge({ status }: { status: RobotStatus }) {
  const { t } = useTranslation('robot');
  const kind = status === 'running' ? 'running' : status === 'paused' ? 'warn' : status === 'stopping' ? 'warn' : 'muted';
  return (
    <span className={`bt-status rb-status-${kind}`} data-testid="robot-status" data-status={status}>
      {status === 'running' ? '● ' : status === 'paused' ? '❚❚ ' : status === 'stopping' ? '◌ ' : '■ '}
      {t(`status.${status}`)}
    </span>
  );
}

/**
 * A pause / stop reason in the user's language: its key's label, and the detail after it where it
 * is ours (a strategy's halt: its exit reason, or a strategy error); a venue's message stays verbatim.
 */
export function useReasonParts() {
  const { t } = useTranslation('robot');
  const { t: tc } = useBacktestTranslation();
  const detailOf = (key: string | null, detail: string | null): string | null => {
    if (!detail) return null;
    if (key !== 'halted') return detail;
    const error = /^strategy error:\s*([\s\S]*)$/.exec(detail);
    if (error) return `${t('reason.strategyError')}${error[1] ? `: ${error[1]}` : ''}`;
    return tc(`exitReason.${detail}`, { defaultValue: detail });
  };
  return (reason: string | null | undefined): { key: string | null; label: string | null; detail: string | null } | null => {
    const r = splitReason(reason);
    if (!r) return null;
    return { key: r.key, label: r.key ? t(`reason.${r.key}`, { defaultValue: r.key }) : null, detail: detailOf(r.key, r.detail) };
  };
}

/** A pause / stop reason in the user's language, with the venue's own message kept verbatim. */
export function ReasonText({ reason, testId }: { reason: string | null | undefined; testId: string }) {
  const r = useReasonParts()(reason);
  if (!r) return null;
  return (
    <p className={`rb-reason${r.key === 'user' ? ' rb-reason-user' : ''}`} data-testid={testId}>
      {r.label ? <b>{r.label}</b> : null}
      {r.label && r.detail ? ': ' : null}
      {r.detail ? <span>{r.detail}</span> : null}
    </p>
  );
}

export function Money({ value, testId }: { value: unknown; testId?: string }) {
  const fmt = useFmt();
  return <span className={`num tone-${toneOf(value)}`} data-testid={testId}>{fmt.signed(value)}</span>;
}

export function ConfirmSheet({ title, message, confirmLabel, onConfirm, onClose, busy }: { title: string; message: string; confirmLabel: string; onConfirm: () => void; onClose: () => void; busy?: boolean }) {
  const { t } = useTranslation('robot');
  return (
    <Sheet title={title} onClose={onClose} testId="confirm-sheet">
      <p className="bt-definition">{message}</p>
      <div className="bt-actions">
        <Button variant="secondary" onClick={onClose} data-testid="confirm-cancel">{t('keep')}</Button>
        <Button variant="danger" busy={busy} onClick={onConfirm} data-testid="confirm-ok">{confirmLabel}</Button>
      </div>
    </Sheet>
  );
}

export function EmptyState({ text, action, testId }: { text: string; action?: ReactNode; testId: string }) {
  return (
    <div className="bt-empty" data-testid={testId}>
      <p>{text}</p>
      {action}
    </div>
  );
}

/**
 * Pause / continue / stop buttons of a robot. Stop asks first: it cancels the robot's orders and
 * closes its positions.
 */
export function RobotActions({ robot, onAct }: { robot: Pick<RobotItem, 'id' | 'status'>; onAct: (action: RobotAction) => Promise<void> }) {
  const { t } = useTranslation('robot');
  const [busy, setBusy] = useState<RobotAction | null>(null);
  const [confirm, setConfirm] = useState(false);
  const run = async (action: RobotAction) => {
    setBusy(action);
    try {
      await onAct(action);
      if (action === 'stop') setConfirm(false);
    } catch {
      // the server's message was shown by the client
    } finally {
      setBusy(null);
    }
  };
  const actions = actionsOf(robot.status);
  if (!actions.length) return null;
  return (
    <>
      {actions.map((a) =>
        a === 'stop' ? (
          <Button key={a} variant="danger" onClick={() => setConfirm(true)} disabled={!!busy} data-testid="robot-stop">{t('action.stop')}</Button>
        ) : (
          <Button key={a} variant="secondary" busy={busy === a} disabled={!!busy} onClick={() => void run(a)} data-testid={`robot-${a}`}>{t(`action.${a}`)}</Button>
        ),
      )}
      {confirm ? (
        <ConfirmSheet
          title={t('confirmStopTitle')}
          message={t('confirmStop')}
          confirmLabel={t('action.stop')}
          busy={busy === 'stop'}
          onConfirm={() => void run('stop')}
          onClose={() => setConfirm(false)}
        />
      ) : null}
    </>
  );
}
