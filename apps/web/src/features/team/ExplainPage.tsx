// pages/group/explain/explain: the referral rules as configured — the rebate rate of each level,
// the same-level share, how a payment is shared up the chain, the worked example of business.md
// computed by the settlement's own function (rebatesOf) from the rates in force, and the VIP tiers'
// conditions. Nothing here is a copy of a figure: change a rate and this page says so.
import { useTranslation } from 'react-i18next';
import { formatMoney, REBATE_LEVELS, rebatesOf, type RebateLevel, type ReferralRules, type VipMeasure } from '@lq/contracts';
import { ErrorView } from '../../components/Views';
import { displayMoney } from '../../lib/money';
import { useReferralRules } from './api';
import '../../components/screens.css';
import './team.css';

const percent = (bp: number) => `${bp / 100}\u00a0%`;
const EXAMPLE_AMOUNT = 100_000_000n; // 100 Lightning
const EXAMPLE_UPLINE: RebateLevel[] = ['none', 'VIP1', 'VIP1', 'VIP3'];
const COUNTS = new Set<VipMeasure>(['activeDirect', 'teamActive']);

export default function ExplainPage() {
  const { t } = useTranslation('team');
  const { t: tc } = useTranslation();
  const rules = useReferralRules();
  if (rules.isPending) return <div className="spinner" aria-label={tc('common.loading')} />;
  if (rules.isError) return <ErrorView message={tc('common.loadFailed')} onRetry={() => void rules.refetch()} />;
  const r = rules.data;
  return (
    <div className="bt-page tm-page" data-testid="explain-page">
      <Rates rules={r} />
      <section className="card" aria-labelledby="tm-how-title">
        <h2 className="bt-h2" id="tm-how-title">{t('explain.howTitle')}</h2>
        <ol className="tm-rules">
          <li>{t('explain.rule.chain')}</li>
          <li>{t('explain.rule.differential')}</li>
          <li>{t('explain.rule.levelAtPayment')}</li>
          <li>{t('explain.rule.regular', { rate: percent(r.rates.none) })}</li>
          <li>{t('explain.rule.share', { rate: percent(r.rates.sameLevelShare) })}</li>
          <li>{t('explain.rule.rounding')}</li>
          <li>{t('explain.rule.settlement')}</li>
        </ol>
      </section>
      <Example rules={r} />
      <Tiers rules={r} />
    </div>
  );
}

function Rates({ rules }: { rules: ReferralRules }) {
  const { t } = useTranslation('team');
  return (
    <section className="card" aria-labelledby="tm-rates-title" data-testid="explain-rates">
      <h2 className="bt-h2" id="tm-rates-title">{t('explain.ratesTitle')}</h2>
      <table className="tm-rates">
        <thead>
          <tr><th scope="col">{t('explain.level')}</th><th scope="col" className="num">{t('explain.rate')}</th></tr>
        </thead>
        <tbody>
          {REBATE_LEVELS.map((level) => (
            <tr key={level} data-testid="explain-rate" data-level={level}>
              <th scope="row">{level === 'none' ? t('explain.regularDirect') : level}</th>
              <td className="num">{percent(rules.rates[level])}</td>
            </tr>
          ))}
          <tr data-testid="explain-rate" data-level="share">
            <th scope="row">{t('explain.shareRow')}</th>
            <td className="num">{percent(rules.rates.sameLevelShare)}</td>
          </tr>
        </tbody>
      </table>
    </section>
  );
}

function Example({ rules }: { rules: ReferralRules }) {
  const { t } = useTranslation('team');
  const upline = EXAMPLE_UPLINE.map((level, i) => ({ userId: i + 1, level }));
  const shares = rebatesOf(EXAMPLE_AMOUNT, upline, rules.rates);
  const total = shares.reduce((s, x) => s + x.amount, 0n);
  return (
    <section className="card" aria-labelledby="tm-example-title" data-testid="explain-example">
      <h2 className="bt-h2" id="tm-example-title">{t('explain.exampleTitle')}</h2>
      <p className="bt-sub">{t('explain.exampleIntro', { amount: displayMoney(formatMoney(EXAMPLE_AMOUNT)) })}</p>
      <table className="tm-rates">
        <thead>
          <tr><th scope="col">{t('explain.who')}</th><th scope="col">{t('explain.level')}</th><th scope="col" className="num">{t('explain.earns')}</th></tr>
        </thead>
        <tbody>
          {upline.map((u, i) => {
            const mine = shares.filter((s) => s.userId === u.userId);
            const amount = mine.reduce((s, x) => s + x.amount, 0n);
            const share = mine.some((s) => s.kind === 'share');
            return (
              <tr key={u.userId} data-testid="explain-example-row" data-amount={formatMoney(amount)}>
                <th scope="row">R{i + 1}</th>
                <td>{u.level === 'none' ? t('explain.regular') : u.level}</td>
                <td className="num">
                  {displayMoney(formatMoney(amount))}
                  {share ? ` (${t('rebates.kind.share')})` : ''}
                </td>
              </tr>
            );
          })}
          <tr>
            <th scope="row" colSpan={2}>{t('explain.total')}</th>
            <td className="num" data-testid="explain-example-total">{displayMoney(formatMoney(total))}</td>
          </tr>
        </tbody>
      </table>
    </section>
  );
}

function Tiers({ rules }: { rules: ReferralRules }) {
  const { t } = useTranslation('team');
  const { t: tb } = useTranslation('benefits');
  return (
    <section className="card" aria-labelledby="tm-tiers-title" data-testid="explain-tiers">
      <h2 className="bt-h2" id="tm-tiers-title">{t('explain.tiersTitle')}</h2>
      <p className="bt-sub">{t('explain.tiersIntro')}</p>
      <ul className="tm-rules">
        {(['VIP1', 'VIP2', 'VIP3'] as const).map((level) => (
          <li key={level} data-testid="explain-tier" data-tier={level}>
            <strong>{level}</strong> — {rules.thresholds[level].match === 'any' ? tb('vip.any') : tb('vip.all')}{' '}
            {rules.thresholds[level].conditions.map((c) => tb(`vip.measure.${c.measure}`, { min: COUNTS.has(c.measure) ? c.min : displayMoney(c.min) })).join(' · ')}
          </li>
        ))}
      </ul>
    </section>
  );
}
