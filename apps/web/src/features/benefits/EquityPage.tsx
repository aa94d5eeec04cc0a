// pages/equity/index: the user's benefits. The basic rights (unlock offered until bought or granted),
// per market the account seats and backtest slots owned, in use and free with the next expiry, the
// packs to buy, and every purchase (time, expiry, quantity, months, market, state).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '../../lib/router';
import { formatMoney, parseMoney, PAY_PWD_LENGTH, PRICE_CHANGE_NOTICE_DAYS, type EquityPurchase, type EquityRights } from '@lq/contracts';
import { Button } from '../../components/Button';
import { ErrorView } from '../../components/Views';
import { Sheet } from '../../components/Sheet';
import { ApiError } from '../../lib/api';
import { showToast } from '../../lib/toast';
import { localeTag } from '../../lib/format';
import { displayMoney } from '../../lib/money';
import { useAppStore } from '../../lib/store';
import { useLoadMore } from '../../lib/useLoadMore';
import { acceptAgreement, afterPurchase, AGREEMENT_PATHS, PACK_PATH, PAY_PATH, switchAutoRenew, useAgreements, useCatalogue, usePurchases, useRights } from './api';
import { orderSearch } from './order';
import { VipCard } from './VipCard';
import '../../components/screens.css';
import './benefits.css';

function useDateTime() {
  const locale = useAppStore((s) => s.locale);
  const format = new Intl.DateTimeFormat(localeTag(locale), { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false });
  return (ms: number) => format.format(ms);
}

export default function EquityPage() {
  const { t } = useTranslation('benefits');
  const { t: tc } = useTranslation();
  const rights = useRights();
  const catalogue = useCatalogue();

  if (rights.isPending || catalogue.isPending) return <div className="spinner" aria-label={tc('common.loading')} />;
  if (rights.isError || catalogue.isError) {
    return <ErrorView message={tc('common.loadFailed')} onRetry={() => void Promise.all([rights.refetch(), catalogue.refetch()])} />;
  }
  const prices = catalogue.data.prices;
  return (
    <div className="bt-page bf-page" data-testid="equity-page">
      <section className="card bf-unlock" aria-labelledby="bf-unlock-title" data-testid="equity-unlock" data-unlocked={rights.data.unlocked}>
        <h2 className="bt-h2" id="bf-unlock-title">{t('unlock.title')}</h2>
        <p className="bt-sub">{t('unlock.gives')}</p>
        {rights.data.unlocked ? (
          <p className="bf-done" data-testid="equity-unlocked">{t('unlock.done')}</p>
        ) : (
          <Link className="btn btn-primary btn-block" to={`${PAY_PATH}${orderSearch({ item: 'unlock' })}`} data-testid="equity-unlock-buy">
            {t('unlock.buy', { amount: displayMoney(prices.unlock) })}
          </Link>
        )}
      </section>
      <VipCard />
      <Rights rights={rights.data} />
      <section className="card" aria-labelledby="bf-packs-title">
        <h2 className="bt-h2" id="bf-packs-title">{t('packs.title')}</h2>
        <p className="bt-sub">{t('packs.explain', { seat: displayMoney(prices.seat), slot: displayMoney(prices.slot), days: catalogue.data.daysPerMonth })}</p>
        {rights.data.unlocked ? (
          <Link className="btn btn-secondary btn-block" to={PACK_PATH} data-testid="equity-buy-pack">{t('packs.buy')}</Link>
        ) : (
          <p className="bt-sub" data-testid="equity-packs-locked">{t('packs.needUnlock')}</p>
        )}
      </section>
      <Purchases />
    </div>
  );
}

function Rights({ rights }: { rights: EquityRights }) {
  const { t } = useTranslation('benefits');
  const when = useDateTime();
  return (
    <section className="card" aria-labelledby="bf-rights-title" data-testid="equity-rights">
      <h2 className="bt-h2" id="bf-rights-title">{t('rights.title')}</h2>
      <div className="bf-markets">
        {rights.markets.map((m) => (
          <div key={m.market} className="bf-market" data-testid={`rights-${m.market}`}>
            <h3>{t(`market.${m.market}`)}</h3>
            {(['seats', 'slots'] as const).map((kind) => {
              const c = m[kind];
              return (
                <div key={kind} className="bf-right" data-testid={`rights-${m.market}-${kind}`} data-owned={c.owned} data-free={c.free}>
                  <span className="bf-right-name">{t(`rights.${kind}`)}</span>
                  <span className="num">{t('rights.count', { used: c.used, owned: c.owned, free: c.free })}</span>
                  {c.nextExpiry !== null ? <span className="bf-right-expiry">{t('rights.expires', { n: c.expiringQuantity, at: when(c.nextExpiry) })}</span> : null}
                </div>
              );
            })}
          </div>
        ))}
      </div>
    </section>
  );
}

function Purchases() {
  const { t } = useTranslation('benefits');
  const { t: tc } = useTranslation();
  const purchases = usePurchases();
  const sentinel = useLoadMore(purchases);
  const list: EquityPurchase[] = purchases.data?.pages.flatMap((p) => p.list) ?? [];
  const when = useDateTime();
  const [switching, setSwitching] = useState<EquityPurchase | undefined>();
  return (
    <section className="card" aria-labelledby="bf-purchases-title" data-testid="equity-purchases">
      {switching ? <RenewSheet purchase={switching} onClose={() => setSwitching(undefined)} /> : null}
      <h2 className="bt-h2" id="bf-purchases-title">{t('purchases.title')}</h2>
      {purchases.isPending ? <div className="spinner" aria-label={tc('common.loading')} /> : null}
      {purchases.isSuccess && list.length === 0 ? <p className="bt-sub" data-testid="purchases-empty">{t('purchases.empty')}</p> : null}
      <ul className="bf-purchases">
        {list.map((p) => (
          <li key={p.id} className="bf-purchase" data-testid="purchase-row" data-item={p.item} data-state={p.state}>
            <div className="bf-purchase-head">
              <span className="bf-purchase-what">
                {p.item === 'unlock' ? t('unlock.title') : t(`pack.line.${p.item}`, { n: p.quantity, market: t(`market.${p.market}`) })}
              </span>
              <span className={`badge${p.state === 'active' ? '' : ' muted'}`}>{t(`purchases.state.${p.state}`)}</span>
            </div>
            <dl className="bf-purchase-facts">
              <div><dt>{t('purchases.amount')}</dt><dd className="num">{displayMoney(p.amount)}</dd></div>
              {p.months !== null ? <div><dt>{t('purchases.months')}</dt><dd className="num">{p.months}</dd></div> : null}
              <div><dt>{t('purchases.bought')}</dt><dd className="num">{when(p.purchasedAt)}</dd></div>
              <div><dt>{t('purchases.expires')}</dt><dd className="num">{p.expiresAt === null ? t('purchases.never') : when(p.expiresAt)}</dd></div>
              {p.item !== 'unlock' ? <div><dt>{t('purchases.autoRenew')}</dt><dd data-testid="purchase-auto-renew">{p.autoRenew ? t('purchases.on') : t('purchases.off')}</dd></div> : null}
              {p.renewals > 0 ? <div><dt>{t('purchases.renewals')}</dt><dd className="num">{p.renewals}</dd></div> : null}
              {p.renewal ? (
                <div>
                  <dt>{t('purchases.nextRenewal')}</dt>
                  <dd className="num" data-testid="purchase-next-renewal">{t('purchases.nextRenewalAt', { at: when(p.renewal.at), amount: displayMoney(p.renewal.amount), days: 30 })}</dd>
                </div>
              ) : null}
            </dl>
            {p.renewal?.priceChange ? (
              <p className="bf-short" data-testid="purchase-price-change">{t('purchases.priceChange', { at: when(p.renewal.priceChange.from), amount: displayMoney(p.renewal.priceChange.amount) })}</p>
            ) : null}
            {p.renewalFailedAt !== null ? <p className="bf-short" data-testid="purchase-renew-failed">{t('purchases.renewFailed', { at: when(p.renewalFailedAt) })}</p> : null}
            {p.item !== 'unlock' && p.state === 'active' ? (
              <Button variant="secondary" onClick={() => setSwitching(p)} data-testid="purchase-renew-switch">
                {p.autoRenew ? t('renew.turnOff') : t('renew.turnOn')}
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      <div ref={sentinel} />
      {purchases.hasNextPage ? (
        <Button variant="secondary" block busy={purchases.isFetchingNextPage} onClick={() => void purchases.fetchNextPage()}>{t('purchases.more')}</Button>
      ) : null}
    </section>
  );
}

/** Auto-renew on or off after a confirmation; on needs the auto-subscribe agreement, ticked here. */
function RenewSheet({ purchase, onClose }: { purchase: EquityPurchase; onClose: () => void }) {
  const { t } = useTranslation('benefits');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const agreements = useAgreements();
  const catalogue = useCatalogue();
  const [agreed, setAgreed] = useState(false);
  const [paidPwd, setPaidPwd] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const on = !purchase.autoRenew;
  // What each renewal pays: today's price, kept (the auto-renewal agreement).
  const unit = catalogue.data && purchase.item !== 'unlock' ? catalogue.data.prices[purchase.item] : undefined;
  const renewAmount = unit === undefined ? undefined : formatMoney(parseMoney(unit)! * BigInt(purchase.quantity));
  const needAgreement = on && agreements.data?.autoSubscribe.accepted === false;
  const when = useDateTime();

  const confirm = async () => {
    if (needAgreement && !agreed) {
      setError(t('agree.required'));
      return;
    }
    // Turning it on commits future payments: the payment password, as for a purchase.
    if (on && !new RegExp(`^\\d{${PAY_PWD_LENGTH}}$`).test(paidPwd)) {
      setError(t('pay.pwdFormat', { n: PAY_PWD_LENGTH }));
      return;
    }
    setBusy(true);
    try {
      if (needAgreement) await acceptAgreement('autoSubscribe');
      await switchAutoRenew(purchase.id, on, on ? paidPwd : undefined);
      await afterPurchase(queryClient);
      showToast(on ? t('renew.doneOn') : t('renew.doneOff'), 'success');
      onClose();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : tc('common.loadFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Sheet title={on ? t('renew.titleOn') : t('renew.titleOff')} onClose={onClose} testId="renew-sheet">
      <div className="stack">
        <p className="bt-sub" data-testid="renew-explain">
          {on
            ? t('renew.explainOn', { at: purchase.expiresAt === null ? '--' : when(purchase.expiresAt), amount: renewAmount === undefined ? '--' : displayMoney(renewAmount), days: 30, notice: PRICE_CHANGE_NOTICE_DAYS })
            : t('renew.explainOff', { at: purchase.expiresAt === null ? '--' : when(purchase.expiresAt) })}
        </p>
        {agreements.isPending && on ? <div className="spinner" aria-label={tc('common.loading')} /> : null}
        {needAgreement ? (
          <label className="check">
            <input type="checkbox" checked={agreed} onChange={(e) => { setAgreed(e.target.checked); setError(undefined); }} data-testid="renew-agree" />
            <span>
              {t('agree.prefix')} <Link to={AGREEMENT_PATHS.autoSubscribe}>{t('agree.autoSubscribe')}</Link>
            </span>
          </label>
        ) : null}
        {on ? (
          <label className="field">
            <span>{t('pay.paidPwd')}</span>
            <input
              className="input num"
              type="password"
              inputMode="numeric"
              autoComplete="off"
              maxLength={PAY_PWD_LENGTH}
              value={paidPwd}
              onChange={(e) => { setPaidPwd(e.target.value.replace(/\D/g, '')); setError(undefined); }}
              data-testid="renew-pwd"
            />
          </label>
        ) : null}
        {error ? <p className="field-error" role="alert" data-testid="renew-error">{error}</p> : null}
        <div className="bt-actions">
          <Button busy={busy} disabled={on && agreements.isPending} onClick={() => void confirm()} data-testid="renew-confirm">{t('renew.confirm')}</Button>
          <Button variant="secondary" onClick={onClose}>{t('renew.cancel')}</Button>
        </div>
      </div>
    </Sheet>
  );
}
