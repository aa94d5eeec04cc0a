// pages/market/market: live prices and 24 h change of the current market's symbols (tickers,
// refetched every 5 s while visible), a search filter, and per symbol "create robot" / "backtest".
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBacktestTranslation } from '../../i18n';
import { Button } from '../../components/Button';
import { formatPercent } from '../../lib/format';
import { useAppStore } from '../../lib/store';
import { useTickers } from './api';
import { filterTickers, priceKind } from './model';
import type { TickerItem } from '@lq/contracts';
import { StrategySheet } from './StrategySheet';
import { EmptyState, toneOf, useFmt } from './ui';
import './robot.css';

export default function MarketPage() {
  const { t } = useTranslation('robot');
  const { t: tc } = useBacktestTranslation();
  const current = useAppStore((s) => s.currentDataSource);
  const dataSource = current.type;
  const tickers = useTickers(dataSource);
  const fmt = useFmt();
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const [sheet, setSheet] = useState<{ symbol: string; type: 0 | 1 } | null>(null);
  const rows = useMemo(() => filterTickers(tickers.data?.list ?? [], search), [tickers.data, search]);
  const market = tickers.data?.market ?? (dataSource === 'mt5' ? 'forex' : 'crypto');
  // Each price with its time and source: imported history is never called live, and a symbol
  // without any price says so instead of "--".
  const now = tickers.dataUpdatedAt; // when the prices were read (rows exist only then)
  const whenOf = (row: TickerItem, kind: ReturnType<typeof priceKind>) =>
    t(`priceSource.${kind}`, { time: row.at === null ? '' : fmt.dateTime(row.at), source: (row.source ?? '').replace(/:live$/, '') });

  return (
    <div className="bt-page" data-testid="market-page" data-market={market}>
      <div className="rb-search">
        <label htmlFor="market-search" className="sr-only">{t('searchSymbol')}</label>
        <input
          id="market-search"
          className="input"
          type="search"
          placeholder={t('searchSymbol')}
          value={search}
          autoComplete="off"
          onChange={(e) => setSearch(e.target.value)}
          data-testid="market-search"
        />
      </div>
      <p className="bt-sub">{t('marketLead', { market: t(`marketName.${market}`) })}</p>
      {tickers.isPending ? (
        <div className="spinner" aria-label={tc('common.loading')} />
      ) : tickers.isError && !tickers.data ? (
        <EmptyState testId="market-failed" text={tc('common.loadFailed')} action={<Button onClick={() => void tickers.refetch()}>{tc('common.retry')}</Button>} />
      ) : !rows.length ? (
        <EmptyState testId="market-empty" text={search ? t('noMatch') : t('noTickers')} />
      ) : (
        <ul className="rb-tickers num" aria-live="off">
          <li className="rb-ticker rb-ticker-head" aria-hidden="true">
            <span>{t('symbol')}</span>
            <span className="r">{t('lastPrice')}</span>
            <span className="r">{t('change24h')}</span>
          </li>
          {rows.map((row) => {
            const tone = toneOf(row.change24h);
            const expanded = open === row.symbol;
            const kind = priceKind(row, now);
            return (
              <li key={row.symbol} className="rb-ticker" data-testid="ticker-row" data-symbol={row.symbol} data-kind={kind}>
                <button type="button" className="rb-ticker-symbol" aria-expanded={expanded} onClick={() => setOpen(expanded ? null : row.symbol)} data-testid="ticker-open">
                  <strong>{row.symbol}</strong>
                  <span className="bt-sub" data-testid="ticker-when">{whenOf(row, kind)}</span>
                </button>
                <span className="r" data-testid="ticker-price">{fmt.price(row.price)}</span>
                <span className="r">
                  <span className={`rb-change tone-${tone}`} data-testid="ticker-change">
                    {tone === 'up' ? '▲ ' : tone === 'down' ? '▼ ' : ''}{formatPercent(row.change24h)}
                  </span>
                </span>
                {expanded ? (
                  <div className="rb-ticker-actions">
                    <Button onClick={() => setSheet({ symbol: row.symbol, type: 1 })} data-testid="ticker-robot">{t('createRobotFor', { symbol: row.symbol })}</Button>
                    <Button variant="secondary" onClick={() => setSheet({ symbol: row.symbol, type: 0 })} data-testid="ticker-backtest">{t('backtestFor', { symbol: row.symbol })}</Button>
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {sheet ? <StrategySheet dataSource={dataSource} symbol={sheet.symbol} type={sheet.type} onClose={() => setSheet(null)} /> : null}
    </div>
  );
}
