// Small pieces shared by the backtest screens: progress bar, status badge, metric with its
// definition one tap away, confirmation sheet, empty state, and display helpers.
import { useMemo, useState, type ReactNode } from 'react';
import { useBacktestTranslation } from '../../i18n';
import { Button } from '../../components/Button';
import { IconInfo } from '../../components/icons';
import { Sheet } from '../../components/Sheet';
import { formatCompact, formatDuration, localeTag, formatNumber, formatPercent, toNumber } from '../../lib/format';
import { useAppStore } from '../../lib/store';
import { upDownColors } from './chartData';
import '../../components/screens.css';

export function ProgressBar({ percent, label, detail, testId = 'progress' }: { percent: number; label?: string; detail?: string; testId?: string }) {
  const p = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div className="bt-progress" data-testid={testId} data-progress={p}>
      <div className="bt-progress-track" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={p} aria-label={label} aria-valuetext={detail ? `${p}% · ${detail}` : undefined}>
        <div className="bt-progress-fill" style={{ width: `${p}%` }} />
      </div>
      <span className="num bt-progress-text">{label ? `${label} ` : ''}{p}%</span>
      {detail ? <span className="num bt-progress-step" data-testid={`${testId}-step`}>{detail}</span> : null}
    </div>
  );
}

/** What a running backtest is doing, in candles ("Simulating: 412,000 / 1,008,000 candles"). */
export function useProgressStep() {
  const { t } = useBacktestTranslation();
  return (step: { phase: string; done: number; total: number } | null | undefined): string | undefined =>
    step ? t(`backtest.step.${step.phase}`, { done: formatNumber(step.done, { decimals: 0 }), total: formatNumber(step.total, { decimals: 0 }) }) : undefined;
}

export function StatusBadge({ status }: { status: number }) {
  const { t } = useBacktestTranslation();
  const kind = status === 1 ? 'running' : status === 2 ? 'ok' : 'bad';
  return (
    <span className={`bt-status bt-status-${kind}`} data-testid="backtest-status" data-status={status}>
      {t(`status.${status}`)}
    </span>
  );
}

/** The info icon beside a figure: opens the definition (ui.md: one tap away). */
export function InfoButton({ metric }: { metric: string }) {
  const { t } = useBacktestTranslation();
  const [open, setOpen] = useState(false);
  const name = t(`metric.${metric}`);
  return (
    <>
      <button type="button" className="bt-info" aria-label={t('backtest.definitionOf', { name })} onClick={() => setOpen(true)} data-testid={`info-${metric}`}>
        <IconInfo />
      </button>
      {open ? (
        <Sheet title={name} onClose={() => setOpen(false)} testId="metric-definition">
          <p className="bt-definition">{t(`metricDef.${metric}`)}</p>
        </Sheet>
      ) : null}
    </>
  );
}

export type Tone = 'up' | 'down' | undefined;
export const toneOf = (value: unknown): Tone => {
  const n = toNumber(value);
  return n === undefined || n === 0 ? undefined : n > 0 ? 'up' : 'down';
};

/** A figure with its label and definition; `tone` colours it up/down (with the sign, never colour alone). */
export function Metric({ metric, value, tone, testId }: { metric: string; value: ReactNode; tone?: Tone; testId?: string }) {
  const { t } = useBacktestTranslation();
  return (
    <div className="bt-metric" data-testid={testId ?? `metric-${metric}`}>
      <dt>
        <span>{t(`metric.${metric}`)}</span>
        <InfoButton metric={metric} />
      </dt>
      <dd className={`num${tone ? ` tone-${tone}` : ''}`}>{value}</dd>
    </div>
  );
}

export function ConfirmSheet({ title, message, confirmLabel, onConfirm, onClose, busy }: { title: string; message: string; confirmLabel: string; onConfirm: () => void; onClose: () => void; busy?: boolean }) {
  const { t } = useBacktestTranslation();
  return (
    <Sheet title={title} onClose={onClose} testId="confirm-sheet">
      <p className="bt-definition">{message}</p>
      <div className="bt-actions">
        <Button variant="secondary" onClick={onClose} data-testid="confirm-cancel">
          {t('backtest.keep')}
        </Button>
        <Button variant="danger" busy={busy} onClick={onConfirm} data-testid="confirm-ok">
          {confirmLabel}
        </Button>
      </div>
    </Sheet>
  );
}

export function EmptyState({ text, action, testId = 'empty-state' }: { text: string; action?: ReactNode; testId?: string }) {
  return (
    <div className="bt-empty" data-testid={testId}>
      <p>{text}</p>
      {action}
    </div>
  );
}

/** Inline notice (e.g. the server's "upgrade to VIP" message), shown in place, not as a toast. */
export function Notice({ children, tone = 'info', testId = 'notice' }: { children: ReactNode; tone?: 'info' | 'error'; testId?: string }) {
  return (
    <div className={`bt-notice bt-notice-${tone}`} role={tone === 'error' ? 'alert' : 'status'} data-testid={testId}>
      {children}
    </div>
  );
}

/** Display helpers bound to the user's locale. */
export function useFormatters() {
  const locale = useAppStore((s) => s.locale);
  const tag = localeTag(locale);
  const money = (v: unknown) => formatCompact(v, locale, 2);
  const signedMoney = (v: unknown) => {
    const n = toNumber(v);
    return n !== undefined && n > 0 ? `+${money(n)}` : money(v);
  };
  const percent = (v: unknown) => formatPercent(v);
  const plainPercent = (v: unknown) => (toNumber(v) === undefined ? '--' : `${formatNumber((toNumber(v) ?? 0) * 100, { decimals: 2 })}%`);
  const ratio = (v: unknown) => formatNumber(v, { decimals: 2 });
  const count = (v: unknown) => formatNumber(v, { decimals: 0 });
  const price = (v: unknown, digits = 5) => formatNumber(v, { maxDecimals: digits });
  const date = (ms: unknown, timeZone = 'UTC', withTime = false) => {
    const n = toNumber(ms);
    if (n === undefined) return '--';
    try {
      return new Intl.DateTimeFormat(tag, { year: 'numeric', month: '2-digit', day: '2-digit', ...(withTime ? { hour: '2-digit', minute: '2-digit', hour12: false } : {}), timeZone }).format(n);
    } catch {
      return new Date(n).toISOString().slice(0, withTime ? 16 : 10).replace('T', ' ');
    }
  };
  const duration = (ms: unknown) => formatDuration(ms, locale);
  // Stable per locale: charts re-create themselves when their colours change.
  const colors = useMemo(() => upDownColors(locale), [locale]);
  return { locale, localeTag: tag, money, signedMoney, percent, plainPercent, ratio, count, price, date, duration, colors };
}
