// pages/apikey/bindMarket: choose the market, then the exchange, then the form (apiAdd).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from '../../lib/router';
import type { AccountExchange, AccountMarket } from '@lq/contracts';
import { Button } from '../../components/Button';
import { useAppStore } from '../../lib/store';
import { addPath, EXCHANGES, isMarket, MARKETS, marketOfDataSource } from './api';
import './apikey.css';
import '../../components/screens.css';

export default function BindMarketPage() {
  const { t } = useTranslation('apikey');
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const currentType = useAppStore((s) => s.currentDataSource.type);
  const fromQuery = search.get('market');
  const [market, setMarket] = useState<AccountMarket>(isMarket(fromQuery) ? fromQuery : marketOfDataSource(currentType));
  const [exchange, setExchange] = useState<AccountExchange>(EXCHANGES[market][0]);
  const pickMarket = (m: AccountMarket) => {
    setMarket(m);
    setExchange(EXCHANGES[m][0]);
  };
  return (
    <div className="bt-page" data-testid="bind-market-page" style={{ maxWidth: 720, margin: '0 auto' }}>
      <p className="bt-lead">{t('bindMarket.lead')}</p>
      <h2 className="section-title">{t('bindMarket.market')}</h2>
      <div className="ak-choices" role="group" aria-label={t('bindMarket.market')}>
        {MARKETS.map((m) => (
          <button key={m} type="button" className="ak-choice" aria-pressed={market === m} onClick={() => pickMarket(m)} data-testid={`bind-market-${m}`}>
            <span className="ak-choice-text">
              <strong>{t(`market.${m}`)}</strong>
              <small>{EXCHANGES[m].map((e) => t(`exchange.${e}`)).join(' · ')}</small>
            </span>
          </button>
        ))}
      </div>
      <h2 className="section-title">{t('bindMarket.exchange')}</h2>
      <div className="ak-choices" role="group" aria-label={t('bindMarket.exchange')}>
        {EXCHANGES[market].map((e) => (
          <button key={e} type="button" className="ak-choice" aria-pressed={exchange === e} onClick={() => setExchange(e)} data-testid={`bind-exchange-${e}`}>
            <span className="ak-choice-text">
              <strong>{t(`exchange.${e}`)}</strong>
              <small>{t(`exchangeHint.${e}`)}</small>
            </span>
          </button>
        ))}
      </div>
      <Button block onClick={() => navigate(addPath(exchange))} data-testid="bind-next">
        {t('bindMarket.next')}
      </Button>
    </div>
  );
}
