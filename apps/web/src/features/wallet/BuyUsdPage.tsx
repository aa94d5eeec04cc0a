// pages/buyusd/buyusd: buy USDT with a card through the hosted checkout — an amount within the
// provider's limits, in whole cents, then the provider's page in pages/webview/webview. The
// simulated provider (the embedded demo) is named as such: no card is charged, the credit is not real. One idempotency key per
// visit of the page, so a double tap or a retry opens one checkout.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from '../../lib/router';
import { parseMoney } from '@lq/contracts';
import { Button } from '../../components/Button';
import { ApiError, errorField } from '../../lib/api';
import { createCardCheckout, useCardLimits } from './api';
import { displayMoney } from '../../lib/money';
import '../../components/screens.css';
import './wallet.css';

const newKey = () => `card-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

export default function BuyUsdPage() {
  const { t } = useTranslation('wallet');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const limits = useCardLimits();
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string>();
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [key] = useState(newKey);

  const submit = async () => {
    if (!limits.data) return;
    const micro = parseMoney(amount.trim());
    if (micro === undefined || micro <= 0n) return setError(t('buy.format'));
    if (micro % 10_000n !== 0n) return setError(t('buy.cents'));
    if (micro < parseMoney(limits.data.min)! || micro > parseMoney(limits.data.max)!) {
      return setError(t('buy.range', { min: displayMoney(limits.data.min), max: displayMoney(limits.data.max) }));
    }
    setError(undefined);
    setFormError(undefined);
    setBusy(true);
    try {
      const checkout = await createCardCheckout(amount.trim(), key);
      navigate(`/pages/webview/webview?checkout=${checkout.id}&url=${encodeURIComponent(checkout.checkoutUrl)}`);
    } catch (e) {
      // An amount the server refused goes under the field; anything else (closed, limited, offline) above the button.
      if (e instanceof ApiError && errorField(e) === 'amount') setError(e.message);
      else setFormError(t('buy.failed', { message: e instanceof Error ? e.message : String(e) }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="bt-page wl-page" data-testid="buyusd-page">
      <section className="card wl-recharge" aria-labelledby="buy-title">
        <h2 className="bt-h2" id="buy-title">{t('buy.title')}</h2>
        {limits.data?.provider === 'simulated' ? (
          <p className="wl-simulated" role="note" data-testid="buy-simulated">{t('buy.simulated')}</p>
        ) : null}
        {limits.isPending ? (
          <div className="spinner" aria-label={tc('common.loading')} />
        ) : limits.isError ? (
          <div className="bt-empty"><p>{tc('common.loadFailed')}</p><Button onClick={() => void limits.refetch()}>{tc('common.retry')}</Button></div>
        ) : !limits.data.open ? (
          <div className="bt-empty" data-testid="buy-closed"><p>{t('buy.closed')}</p></div>
        ) : (
          <form
            className="wl-recharge"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <label className="field">
              <span>{t('buy.amount')}</span>
              <input
                className="input num"
                inputMode="decimal"
                autoComplete="off"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby="buy-amount-help"
                data-testid="buy-amount"
              />
            </label>
            {error ? (
              <p className="field-error" role="alert" id="buy-amount-help" data-testid="buy-amount-error">{error}</p>
            ) : (
              <p className="bt-sub" id="buy-amount-help">{t('buy.range', { min: displayMoney(limits.data.min), max: displayMoney(limits.data.max) })}</p>
            )}
            <p className="wl-facts">{t('buy.hint')}</p>
            {formError ? <p className="field-error" role="alert" data-testid="buy-error">{formError}</p> : null}
            <Button type="submit" block busy={busy} data-testid="buy-submit">{t('buy.continue')}</Button>
          </form>
        )}
      </section>
    </div>
  );
}
