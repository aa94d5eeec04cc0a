// pages/pay/pay: the one screen every purchase goes through. What is bought, its price, the balance
// wallet before and after, and the payment password. Too little balance offers the deposit page with
// the amount missing. One idempotency key per visit: a double tap or a retry buys once.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from '../../lib/router';
import { useQueryClient } from '@tanstack/react-query';
import { PAY_PWD_LENGTH } from '@lq/contracts';
import { Button } from '../../components/Button';
import { ErrorView } from '../../components/Views';
import { ApiError, errorField } from '../../lib/api';
import { displayMoney } from '../../lib/money';
import { useAppStore } from '../../lib/store';
import { showToast } from '../../lib/toast';
import { afterPurchase, buy, EQUITY_PATH, unlock, useBalance, useCatalogue } from './api';
import { balanceAfter, orderFrom, priceOf, type Order } from './order';
import '../../components/screens.css';
import './benefits.css';

const newKey = () => `pay-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

/** "2 account seats on crypto × 3 months (90 days)", in the reader's words. */
export function OrderTitle({ order, daysPerMonth }: { order: Order; daysPerMonth: number }) {
  const { t } = useTranslation('benefits');
  if (order.item === 'unlock') return <>{t('unlock.title')}</>;
  return (
    <>
      {t(`pack.line.${order.item}`, { n: order.quantity, market: t(`market.${order.market}`) })}{' '}
      {t('pack.forMonths', { months: order.months, days: order.months * daysPerMonth })}
    </>
  );
}

export default function PayPage() {
  const { t } = useTranslation('benefits');
  const { t: tc } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const catalogue = useCatalogue();
  const balance = useBalance();
  const [paidPwd, setPaidPwd] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [key] = useState(newKey);
  const noPayPwd = useAppStore((s) => s.user?.hasPaidPwd === false);
  const order = orderFrom(location.search);

  if (!order) {
    return (
      <div className="bt-page bf-page" data-testid="pay-page">
        <div className="card bt-empty" data-testid="pay-bad-order">
          <p>{t('pay.badOrder')}</p>
          <Link className="btn btn-primary" to={EQUITY_PATH}>{t('pay.backToBenefits')}</Link>
        </div>
      </div>
    );
  }
  if (catalogue.isPending || balance.isPending) return <div className="spinner" aria-label={tc('common.loading')} />;
  if (catalogue.isError || balance.isError) {
    return <ErrorView message={tc('common.loadFailed')} onRetry={() => void Promise.all([catalogue.refetch(), balance.refetch()])} />;
  }

  const amount = priceOf(order, catalogue.data);
  const after = balanceAfter(balance.data.balanceWallet, amount);
  const missing = after.startsWith('-') ? after.slice(1) : undefined;

  const submit = async () => {
    if (!new RegExp(`^\\d{${PAY_PWD_LENGTH}}$`).test(paidPwd)) {
      setError(t('pay.pwdFormat', { n: PAY_PWD_LENGTH }));
      document.querySelector<HTMLInputElement>('[data-field="paidPwd"]')?.focus();
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      // The amount shown goes with the order: a price changed meanwhile is refused, not charged.
      if (order.item === 'unlock') await unlock({ paidPwd, idempotencyKey: key, expectedAmount: amount });
      else await buy({ kind: order.item, market: order.market, quantity: order.quantity, months: order.months, autoRenew: order.autoRenew, paidPwd, idempotencyKey: key, expectedAmount: amount });
      await afterPurchase(queryClient);
      showToast(t('pay.done'), 'success');
      navigate(EQUITY_PATH, { replace: true });
    } catch (e) {
      if (e instanceof ApiError && errorField(e) === 'paidPwd') {
        setError(e.message);
        document.querySelector<HTMLInputElement>('[data-field="paidPwd"]')?.focus();
      } else {
        // Too little balance (someone paid meanwhile), already unlocked, a price change …: said, and the figures refreshed.
        showToast(e instanceof ApiError ? e.message : tc('common.loadFailed'), 'error');
        void afterPurchase(queryClient);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="bt-page bf-page" data-testid="pay-page">
      <form
        className="card bf-pay"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <h2 className="bt-h2" data-testid="pay-what">
          <OrderTitle order={order} daysPerMonth={catalogue.data.daysPerMonth} />
        </h2>
        {order.item === 'unlock' ? <p className="bt-sub">{t('unlock.gives')}</p> : null}
        {order.item !== 'unlock' && order.autoRenew ? <p className="bt-sub" data-testid="pay-auto-renew">{t('pay.autoRenewOn')}</p> : null}
        <dl className="bf-figures">
          <div>
            <dt>{t('pay.amount')}</dt>
            <dd className="num" data-testid="pay-amount">{displayMoney(amount)}</dd>
          </div>
          <div>
            <dt>{t('pay.balance')}</dt>
            <dd className="num" data-testid="pay-balance">{displayMoney(balance.data.balanceWallet)}</dd>
          </div>
          <div>
            <dt>{t('pay.after')}</dt>
            <dd className={`num${missing ? ' bf-short' : ''}`} data-testid="pay-after">{displayMoney(after)}</dd>
          </div>
        </dl>
        {missing ? (
          <div className="bt-notice bf-notice" role="status" data-testid="pay-short">
            <p>{t('pay.short', { amount: displayMoney(missing) })}</p>
            <Link className="btn btn-primary" to={`/pages/recharge/recharge?need=${encodeURIComponent(missing.replace(/\.?0+$/, ''))}`} data-testid="pay-deposit">
              {t('pay.deposit')}
            </Link>
          </div>
        ) : null}
        {noPayPwd ? (
          <div className="bt-notice bf-notice" role="status" data-testid="pay-no-paypwd">
            <p>{t('pay.noPayPwd')}</p>
            <Link className="btn btn-secondary" to="/pages/changePwd/pay/changePayPwd" data-testid="pay-set-paypwd">{t('pay.setPayPwd')}</Link>
          </div>
        ) : null}
        <label className="field">
          <span>{t('pay.paidPwd')}</span>
          <input
            className="input num"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={PAY_PWD_LENGTH}
            value={paidPwd}
            disabled={noPayPwd || !!missing}
            onChange={(e) => setPaidPwd(e.target.value.replace(/\D/g, ''))}
            aria-invalid={error ? true : undefined}
            aria-describedby="pay-pwd-error"
            data-field="paidPwd"
            data-testid="pay-pwd"
          />
        </label>
        {error ? (
          <p className="field-error" role="alert" id="pay-pwd-error" data-testid="pay-pwd-error">
            {error}
          </p>
        ) : null}
        <Button type="submit" block busy={busy} disabled={noPayPwd || !!missing} data-testid="pay-submit">
          {t('pay.submit', { amount: displayMoney(amount) })}
        </Button>
      </form>
    </div>
  );
}
