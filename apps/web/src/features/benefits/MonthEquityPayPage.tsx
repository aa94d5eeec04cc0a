// pages/equity/monthEquityPay: choose a pack — account seats or backtest slots, the market, how many
// and for how many months — see what it costs, then pay on pages/pay/pay. Opened from "no free
// seat" / "backtest slots full" with `?kind=seat&market=crypto` already chosen.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from '../../lib/router';
import { BENEFIT_MARKETS, marketOfDataSourceType, PACK_KINDS, PACK_MONTHS, PACK_QUANTITY, type PackKind } from '@lq/contracts';
import { Button } from '../../components/Button';
import { ErrorView } from '../../components/Views';
import { ApiError } from '../../lib/api';
import { showToast } from '../../lib/toast';
import { displayMoney } from '../../lib/money';
import { useAppStore } from '../../lib/store';
import { acceptAgreement, AGREEMENT_PATHS, EQUITY_PATH, PAY_PATH, useAgreements, useCatalogue } from './api';
import { orderSearch, priceOf, type Market, type Order } from './order';
import '../../components/screens.css';
import './benefits.css';

const MONTHS = Array.from({ length: PACK_MONTHS.max - PACK_MONTHS.min + 1 }, (_, i) => PACK_MONTHS.min + i);

export default function MonthEquityPayPage() {
  const { t } = useTranslation('benefits');
  const { t: tc } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const catalogue = useCatalogue();
  const currentMarket = useAppStore((s) => marketOfDataSourceType(s.currentDataSource.type));
  const q = new URLSearchParams(location.search);
  const [kind, setKind] = useState<PackKind>((PACK_KINDS as readonly string[]).includes(q.get('kind') ?? '') ? (q.get('kind') as PackKind) : 'seat');
  const [market, setMarket] = useState<Market>((BENEFIT_MARKETS as readonly string[]).includes(q.get('market') ?? '') ? (q.get('market') as Market) : currentMarket);
  const [quantity, setQuantity] = useState('1');
  const [months, setMonths] = useState(1);
  const [error, setError] = useState<string | undefined>();
  const agreements = useAgreements();
  const [autoRenew, setAutoRenew] = useState(false);
  const [agreeMonth, setAgreeMonth] = useState(false);
  const [agreeAuto, setAgreeAuto] = useState(false);
  const [agreeError, setAgreeError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  if (catalogue.isPending || agreements.isPending) return <div className="spinner" aria-label={tc('common.loading')} />;
  if (catalogue.isError || agreements.isError) {
    return <ErrorView message={tc('common.loadFailed')} onRetry={() => void Promise.all([catalogue.refetch(), agreements.refetch()])} />;
  }
  const n = /^\d{1,4}$/.test(quantity.trim()) ? Number(quantity.trim()) : NaN;
  const valid = Number.isInteger(n) && n >= PACK_QUANTITY.min && n <= PACK_QUANTITY.max;
  const order: Order | undefined = valid ? { item: kind, market, quantity: n, months, autoRenew } : undefined;
  const unit = catalogue.data.prices[kind];
  // The agreements in force not yet accepted: ticked here, recorded before the payment step.
  const needMonth = !agreements.data.monthEquity.accepted;
  const needAuto = autoRenew && !agreements.data.autoSubscribe.accepted;

  const next = async () => {
    if (!order) {
      setError(t('pack.quantityRange', { min: PACK_QUANTITY.min, max: PACK_QUANTITY.max }));
      document.querySelector<HTMLInputElement>('[data-field="quantity"]')?.focus();
      return;
    }
    if ((needMonth && !agreeMonth) || (needAuto && !agreeAuto)) {
      setAgreeError(t('agree.required'));
      return;
    }
    setBusy(true);
    try {
      if (needMonth) await acceptAgreement('monthEquity');
      if (needAuto) await acceptAgreement('autoSubscribe');
      navigate(`${PAY_PATH}${orderSearch(order)}`);
    } catch (e) {
      showToast(e instanceof ApiError ? e.message : tc('common.loadFailed'), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="bt-page bf-page" data-testid="pack-page">
      <form
        className="card bf-pay"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void next();
        }}
      >
        <h2 className="bt-h2">{t('pack.title')}</h2>
        <p className="bt-sub">{t('pack.explain', { days: catalogue.data.daysPerMonth })}</p>
        <fieldset className="bf-choice">
          <legend>{t('pack.kind')}</legend>
          <div className="bf-segments" role="radiogroup" aria-label={t('pack.kind')}>
            {PACK_KINDS.map((k) => (
              <button key={k} type="button" role="radio" aria-checked={kind === k} className={`btn ${kind === k ? 'btn-primary' : 'btn-secondary'}`} onClick={() => setKind(k)} data-testid={`pack-kind-${k}`}>
                {t(`pack.kindName.${k}`)}
              </button>
            ))}
          </div>
        </fieldset>
        <fieldset className="bf-choice">
          <legend>{t('pack.market')}</legend>
          <div className="bf-segments" role="radiogroup" aria-label={t('pack.market')}>
            {BENEFIT_MARKETS.map((m) => (
              <button key={m} type="button" role="radio" aria-checked={market === m} className={`btn ${market === m ? 'btn-primary' : 'btn-secondary'}`} onClick={() => setMarket(m)} data-testid={`pack-market-${m}`}>
                {t(`market.${m}`)}
              </button>
            ))}
          </div>
        </fieldset>
        <label className="field">
          <span>{t('pack.quantity', { min: PACK_QUANTITY.min, max: PACK_QUANTITY.max })}</span>
          <input
            className="input num"
            inputMode="numeric"
            value={quantity}
            onChange={(e) => {
              setQuantity(e.target.value.replace(/\D/g, '').slice(0, 4));
              setError(undefined);
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby="pack-quantity-error"
            data-field="quantity"
            data-testid="pack-quantity"
          />
        </label>
        {error ? <p className="field-error" role="alert" id="pack-quantity-error" data-testid="pack-quantity-error">{error}</p> : null}
        <label className="field">
          <span>{t('pack.months')}</span>
          <select className="input" value={months} onChange={(e) => setMonths(Number(e.target.value))} data-testid="pack-months">
            {MONTHS.map((m) => (
              <option key={m} value={m}>{t('pack.monthOption', { months: m, days: m * catalogue.data.daysPerMonth })}</option>
            ))}
          </select>
        </label>
        <dl className="bf-figures">
          <div>
            <dt>{t('pack.unitPrice')}</dt>
            <dd className="num">{t('pack.perMonth', { amount: displayMoney(unit) })}</dd>
          </div>
          <div>
            <dt>{t('pay.amount')}</dt>
            <dd className="num" data-testid="pack-amount">{order ? displayMoney(priceOf(order, catalogue.data)) : '--'}</dd>
          </div>
        </dl>
        <label className="check" data-testid="pack-auto-renew-row">
          <input type="checkbox" checked={autoRenew} onChange={(e) => setAutoRenew(e.target.checked)} data-testid="pack-auto-renew" />
          <span>{t('pack.autoRenew')}</span>
        </label>
        {needMonth ? (
          <label className="check">
            <input type="checkbox" checked={agreeMonth} onChange={(e) => { setAgreeMonth(e.target.checked); setAgreeError(undefined); }} data-testid="pack-agree-month" />
            <span>
              {t('agree.prefix')} <Link to={AGREEMENT_PATHS.monthEquity} data-testid="pack-read-month">{t('agree.monthEquity')}</Link>
            </span>
          </label>
        ) : null}
        {needAuto ? (
          <label className="check">
            <input type="checkbox" checked={agreeAuto} onChange={(e) => { setAgreeAuto(e.target.checked); setAgreeError(undefined); }} data-testid="pack-agree-auto" />
            <span>
              {t('agree.prefix')} <Link to={AGREEMENT_PATHS.autoSubscribe} data-testid="pack-read-auto">{t('agree.autoSubscribe')}</Link>
            </span>
          </label>
        ) : null}
        {agreeError ? <p className="field-error" role="alert" data-testid="pack-agree-error">{agreeError}</p> : null}
        <Button type="submit" block busy={busy} data-testid="pack-next">{t('pack.next')}</Button>
        <Link className="btn btn-ghost btn-block" to={EQUITY_PATH}>{t('pay.backToBenefits')}</Link>
      </form>
    </div>
  );
}
