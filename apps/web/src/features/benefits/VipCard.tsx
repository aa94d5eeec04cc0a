// The VIP part of pages/equity/index: the caller's level, the figures of the last daily
// computation over the progress window (the 30 days before today, from the 1st of the month), each
// tier's conditions with the caller's value and what is missing, and the level's history.
import { useTranslation } from 'react-i18next';
import type { VipProgress } from '@lq/contracts';
import { ErrorView } from '../../components/Views';
import { localeTag } from '../../lib/format';
import { displayMoney } from '../../lib/money';
import { useAppStore } from '../../lib/store';
import { useVipProgress } from './api';

type Condition = VipProgress['tiers'][number]['conditions'][number];
const COUNTS = new Set(['activeDirect', 'teamActive']);
const shown = (c: Pick<Condition, 'measure'>, x: string) => (COUNTS.has(c.measure) ? x : displayMoney(x));

export function VipCard() {
  const { t } = useTranslation('benefits');
  const { t: tc } = useTranslation();
  const vip = useVipProgress();
  const locale = useAppStore((s) => s.locale);
  if (vip.isPending) return <div className="spinner" aria-label={tc('common.loading')} />;
  if (vip.isError) return <ErrorView message={tc('common.loadFailed')} onRetry={() => void vip.refetch()} />;
  const p = vip.data;
  const isVip = p.level.includes('VIP');
  const when = new Intl.DateTimeFormat(localeTag(locale), { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false });
  const day = (ms: number, timeZone?: string) =>
    new Intl.DateTimeFormat(localeTag(locale), { year: 'numeric', month: '2-digit', day: '2-digit', ...(timeZone ? { timeZone } : {}) }).format(ms);
  return (
    <section className="card" aria-labelledby="bf-vip-title" data-testid="vip-progress" data-level={p.level}>
      <div className="bf-purchase-head">
        <h2 className="bt-h2" id="bf-vip-title">{t('vip.title')}</h2>
        <span className={`badge${isVip ? '' : ' muted'}`} data-testid="vip-level">{isVip ? p.level : t('vip.regular')}</span>
      </div>
      <p className="bt-sub" data-testid="vip-window">
        {p.window && p.computedAt !== null
          ? p.window.from === p.window.to
            ? t('vip.windowEmpty', { at: when.format(p.computedAt) })
            : t('vip.window', { from: day(p.window.from, p.window.timeZone), to: day(p.window.to - 1, p.window.timeZone), at: when.format(p.computedAt) })
          : t('vip.notYet')}
      </p>
      <ul className="bf-purchases">
        {p.tiers.map((tier) => (
          <li key={tier.level} className="bf-purchase" data-testid="vip-tier" data-tier={tier.level} data-reached={tier.reached}>
            <div className="bf-purchase-head">
              <span className="bf-purchase-what">{tier.level}</span>
              <span className={`badge${tier.reached ? '' : ' muted'}`}>{tier.reached ? t('vip.reached') : tier.match === 'any' ? t('vip.any') : t('vip.all')}</span>
            </div>
            <dl className="bf-purchase-facts">
              {tier.conditions.map((c) => (
                <div key={c.measure} data-testid="vip-condition" data-measure={c.measure} data-met={c.met}>
                  <dt>{t(`vip.measure.${c.measure}`, { min: shown(c, c.min) })}</dt>
                  <dd className="num">
                    {shown(c, c.value)}
                    {c.met ? ` · ${t('vip.met')}` : ` · ${t('vip.missing', { missing: shown(c, c.missing) })}`}
                  </dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
      {p.changes.length > 0 ? (
        <>
          <h3 className="bf-vip-h3">{t('vip.changes')}</h3>
          <ul className="bf-purchases" data-testid="vip-changes">
            {p.changes.map((c) => (
              <li key={`${c.at}-${c.to}`} className="bf-right">
                <span className="num">{when.format(c.at)}</span>
                <span>{t('vip.change', { from: c.from.includes('VIP') ? c.from : t('vip.regular'), to: c.to.includes('VIP') ? c.to : t('vip.regular') })}</span>
                <span className="bt-sub">{t(`vip.reason.${c.reason}`)}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
