// pages/webview/webview: a provider's hosted page inside the app (the card checkout). Only pages
// of this origin open here (the simulated provider's); anything else is refused rather than framed.
// With `checkout`, the checkout's state is polled and shown above the page: paid → credited. The
// simulated provider's page is named as a demo above the frame (no card charged, the credit not real).
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from '../../lib/router';
import { useCardCheckout, useCardLimits, WALLET_PATH } from './api';
import { displayMoney } from '../../lib/money';
import '../../components/screens.css';
import './wallet.css';

/** A same-origin path ("/sim-pay/…"), never another site or a script URL. */
function framablePath(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url, window.location.origin);
    return parsed.origin === window.location.origin && parsed.protocol.startsWith('http') ? `${parsed.pathname}${parsed.search}` : null;
  } catch {
    return null;
  }
}

export default function WebviewPage() {
  const { t } = useTranslation('wallet');
  const [search] = useSearchParams();
  const src = framablePath(search.get('url'));
  const checkoutId = Number(search.get('checkout') ?? NaN);
  const checkout = useCardCheckout(Number.isInteger(checkoutId) && checkoutId > 0 ? checkoutId : null);
  const simulated = useCardLimits().data?.provider === 'simulated';

  if (!src) {
    return (
      <div className="bt-page wl-page" data-testid="webview-page">
        <div className="bt-empty" data-testid="webview-refused"><p>{t('webview.refused')}</p><Link className="btn btn-secondary" to={WALLET_PATH}>{t('webview.back')}</Link></div>
      </div>
    );
  }
  const state = checkout.data?.state;
  return (
    <div className="wl-webview" data-testid="webview-page">
      {simulated && state !== 'paid' ? (
        <p className="wl-simulated" role="note" data-testid="webview-simulated">{t('webview.simulated')}</p>
      ) : null}
      {state && state !== 'open' ? (
        <div className={`wl-webview-banner ${state === 'paid' ? 'ok' : 'warn'}`} role="status" data-testid="webview-state" data-state={state}>
          <span>{state === 'paid' ? t(simulated ? 'webview.paidSimulated' : 'webview.paid', { amount: displayMoney(checkout.data?.amount) }) : t(`webview.${state}`)}</span>
          <Link className="btn btn-primary" to={WALLET_PATH} data-testid="webview-back">{t('webview.back')}</Link>
        </div>
      ) : null}
      <iframe className="wl-webview-frame" src={src} title={t('webview.title')} data-testid="webview-frame" />
    </div>
  );
}
