// pages/apikey/apikey: the entry of trading accounts — per market (forex, crypto) how many
// accounts are bound, frozen and trading, with "manage" (the market's list) and "bind".
import { useTranslation } from 'react-i18next';
import { Link } from '../../lib/router';
import { ErrorView, Spinner } from '../../components/Views';
import { BIND_MARKET_PATH, listPath, useOverview } from './api';
import './apikey.css';
import '../../components/screens.css';

export default function ApikeyPage() {
  const { t } = useTranslation('apikey');
  const { t: tc } = useTranslation();
  const overview = useOverview();
  if (overview.isPending) return <Spinner label={tc('common.loading')} />;
  if (overview.isError) return <ErrorView message={tc('common.networkError')} onRetry={() => void overview.refetch()} />;
  return (
    <div className="bt-page" data-testid="apikey-page">
      <p className="bt-lead">{t('overview.lead')}</p>
      <div className="ak-markets">
        {overview.data.markets.map((m) => (
          <section key={m.market} className="card ak-market" data-testid={`apikey-market-${m.market}`} aria-labelledby={`ak-m-${m.market}`}>
            <div className="ak-market-head">
              <h2 id={`ak-m-${m.market}`}>{t(`market.${m.market}`)}</h2>
              <span className="bt-sub">{m.exchanges.map((e) => t(`exchange.${e}`)).join(' · ')}</span>
            </div>
            <ul className="ak-stats">
              <li data-testid="apikey-count" data-count={m.accounts}>{t('overview.accounts', { n: m.accounts })}</li>
              {m.frozen > 0 ? <li>{t('overview.frozen', { n: m.frozen })}</li> : null}
              <li>{t('overview.robots', { n: m.robotsRunning })}</li>
            </ul>
            <div className="ak-actions">
              <Link className="btn btn-secondary" to={listPath(m.market)} data-testid={`apikey-manage-${m.market}`}>{t('overview.manage')}</Link>
              <Link className="btn btn-primary" to={`${BIND_MARKET_PATH}?market=${m.market}`} data-testid={`apikey-bind-${m.market}`}>{t('overview.bind')}</Link>
            </div>
          </section>
        ))}
      </div>
    </div>
  );
}
