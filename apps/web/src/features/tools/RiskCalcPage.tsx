// pages/tools/riskCalc: margin and liquidation price of a position from entry, size, leverage,
// side and maintenance margin rate (linear, USDT-margined; fees and funding ignored). The
// formula is on screen; the maths is in calc.ts (unit-tested).
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../lib/router';
import { formatNumber } from '../../lib/format';
import { useAppStore } from '../../lib/store';
import { useInstruments } from './api';
import { parseInput, riskFigures, type CalcInstrument, type CalcMarket, type RiskError } from './calc';
import { Formula, InstrumentSelect, MarketSwitch, NumField, ResultRow, Segment } from './ui';
import './tools.css';

const defaultRate = (i: CalcInstrument | undefined) => formatNumber((i?.maintenanceMarginRate ?? 0.005) * 100, { maxDecimals: 4 });

export default function RiskCalcPage() {
  const { t } = useTranslation('tools');
  const theme = useAppStore((s) => s.theme);
  const [market, setMarket] = useState<CalcMarket>(theme);
  const instruments = useInstruments(market);
  const [symbol, setSymbol] = useState('');
  const instrument = instruments.find((i) => i.symbol === symbol) ?? instruments[0];
  const [side, setSide] = useState<'long' | 'short'>('long');
  const [entry, setEntry] = useState('');
  const [size, setSize] = useState('');
  const [leverage, setLeverage] = useState(market === 'forex' ? '100' : '10');
  const [rate, setRate] = useState(() => defaultRate(instrument));
  const [extra, setExtra] = useState('');

  const switchMarket = (m: CalcMarket) => {
    setMarket(m);
    setSymbol('');
    setEntry('');
    setSize('');
    setLeverage(m === 'forex' ? '100' : '10');
    setRate(defaultRate(undefined));
  };
  const pick = (s: string) => {
    setSymbol(s);
    setRate(defaultRate(instruments.find((i) => i.symbol === s)));
  };

  const contractSize = instrument?.contractSize ?? 1;
  const outcome = useMemo(() => {
    const sz = parseInput(size);
    return riskFigures({
      side,
      entry: parseInput(entry) ?? NaN,
      quantity: sz === undefined ? NaN : sz * contractSize,
      leverage: parseInput(leverage) ?? NaN,
      maintenanceMarginRate: (parseInput(rate) ?? NaN) / 100,
      extraMargin: extra.trim() ? parseInput(extra) ?? NaN : 0,
    });
  }, [side, entry, size, contractSize, leverage, rate, extra]);

  const errorOf = (field: RiskError, text: string) => (!outcome.ok && outcome.errors.includes(field) && text.trim() !== '' ? t(`error.${field}`) : undefined);
  const r = outcome.ok ? outcome.value : null;
  const quote = instrument?.quote ?? 'USDT';
  const money = (v: number) => `${formatNumber(v, { decimals: 2 })} ${quote}`;
  const digits = instrument?.digits ?? 2;

  return (
    <div className="tl-page" data-testid="risk-calc" data-market={market}>
      <p className="bt-lead">{t('riskLead')}</p>
      <div className="tl-grid">
        <section className="card bt-card" aria-label={t('inputs')}>
          <div className="tl-form">
            <div className="tl-wide"><MarketSwitch market={market} onChange={switchMarket} /></div>
            <div className="tl-wide">{instruments.length ? <InstrumentSelect instruments={instruments} value={instrument?.symbol ?? ''} onChange={pick} /> : null}</div>
            <div className="tl-wide">
              <Segment
                label={t('side')}
                value={side}
                options={[
                  { value: 'long', text: `▲ ${t('long')}` },
                  { value: 'short', text: `▼ ${t('short')}` },
                ]}
                onChange={setSide}
                testId="calc-side"
              />
            </div>
            <NumField name="entry" label={t('entry')} value={entry} onChange={setEntry} suffix={quote} error={errorOf('entry', entry)} />
            <NumField
              name="size"
              label={market === 'forex' ? t('sizeLots') : t('sizeContracts')}
              value={size}
              onChange={setSize}
              hint={market === 'forex' ? t('sizeHintForex', { size: formatNumber(contractSize) }) : t('sizeHintCrypto', { size: formatNumber(contractSize, { maxDecimals: 8 }), base: instrument?.symbol.replace(/USDT?$/, '') ?? '' })}
              error={errorOf('quantity', size)}
            />
            <NumField name="leverage" label={t('leverage')} value={leverage} onChange={setLeverage} suffix="×" error={errorOf('leverage', leverage)} />
            <NumField name="rate" label={t('mmr')} value={rate} onChange={setRate} suffix="%" hint={t('mmrHint')} error={errorOf('maintenanceMarginRate', rate)} />
            <NumField name="extra" label={t('extraMargin')} value={extra} onChange={setExtra} suffix={quote} hint={t('extraHint')} error={errorOf('extraMargin', extra)} />
          </div>
        </section>
        <section className="card bt-card" aria-live="polite" aria-label={t('result')} data-testid="calc-result">
          <h2 className="bt-h2">{t('result')}</h2>
          {r ? (
            <dl className="tl-results">
              <ResultRow strong label={t('liquidationPrice')} value={r.liquidationPrice > 0 ? formatNumber(r.liquidationPrice, { decimals: digits }) : t('noLiquidation')} testId="result-liquidation" />
              <ResultRow label={t('liquidationDistance')} value={`${side === 'long' ? '▼' : '▲'} ${formatNumber(r.liquidationDistance * 100, { decimals: 2 })}%`} testId="result-distance" tone={r.liquidationDistance < 0.05 ? 'warn' : undefined} />
              <ResultRow label={t('notional')} value={money(r.notional)} testId="result-notional" />
              <ResultRow label={t('initialMargin')} value={money(r.initialMargin)} testId="result-margin" />
              <ResultRow label={t('maintenanceMargin')} value={money(r.maintenanceMargin)} testId="result-maintenance" />
              <ResultRow label={t('lossAtLiquidation')} value={money(r.lossAtLiquidation)} testId="result-loss" />
            </dl>
          ) : (
            <p className="bt-sub" data-testid="result-empty">{t('fillIn')}</p>
          )}
          {market === 'forex' ? <p className="bt-sub">{t('forexNote')}</p> : null}
        </section>
      </div>
      <Formula title={t('formula')} lines={[t('fNotional'), t('fMargin'), t('fLiqLong'), t('fLiqShort'), t('fCross')]} />
      <div className="tl-links">
        <Link className="btn btn-secondary" to="/pages/tools/positionCalc" data-testid="open-position-calc">{t('openPosition')}</Link>
      </div>
    </div>
  );
}
