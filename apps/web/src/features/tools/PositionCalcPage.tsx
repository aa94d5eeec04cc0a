// pages/tools/positionCalc: lot size (forex) or contracts (crypto) from account size, risk % and
// stop distance. The maths is in calc.ts (unit-tested); the formula is shown on screen.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../lib/router';
import { formatNumber } from '../../lib/format';
import { useAppStore } from '../../lib/store';
import { useInstruments } from './api';
import { parseInput, pipSize, positionSize, type CalcMarket, type PositionError } from './calc';
import { Formula, InstrumentSelect, MarketSwitch, NumField, ResultRow, Segment } from './ui';
import './tools.css';

type StopUnit = 'pips' | 'points' | 'price';

export default function PositionCalcPage() {
  const { t } = useTranslation('tools');
  const theme = useAppStore((s) => s.theme);
  const [market, setMarket] = useState<CalcMarket>(theme);
  const instruments = useInstruments(market);
  const [symbol, setSymbol] = useState('');
  const instrument = instruments.find((i) => i.symbol === symbol) ?? instruments[0];
  const [balance, setBalance] = useState('10000');
  const [risk, setRisk] = useState('1');
  const [stop, setStop] = useState(market === 'forex' ? '50' : '');
  const [unit, setUnit] = useState<StopUnit>('pips');
  const [price, setPrice] = useState('');
  const [leverage, setLeverage] = useState('');
  const [pipValue, setPipValue] = useState('');

  const switchMarket = (m: CalcMarket) => {
    setMarket(m);
    setSymbol('');
    setStop(m === 'forex' ? '50' : '');
    setUnit(m === 'forex' ? 'pips' : 'price');
    setPrice('');
    setPipValue('');
  };
  const stopUnit: StopUnit = market === 'crypto' ? 'price' : unit;

  const outcome = useMemo(() => {
    if (!instrument) return null;
    const p = parseInput(price);
    const lev = parseInput(leverage);
    const pv = parseInput(pipValue);
    return positionSize({
      instrument,
      balance: parseInput(balance) ?? NaN,
      riskPercent: parseInput(risk) ?? NaN,
      stopDistance: parseInput(stop) ?? NaN,
      stopUnit,
      ...(price.trim() ? { price: p ?? NaN } : {}),
      ...(leverage.trim() ? { leverage: lev ?? NaN } : {}),
      ...(pv !== undefined ? { pipValueOverride: pv } : {}),
    });
  }, [instrument, balance, risk, stop, stopUnit, price, leverage, pipValue]);

  // Errors only for fields the user has typed something into (or that a result needs).
  const errorOf = (field: PositionError, text: string) => (outcome && !outcome.ok && outcome.errors.includes(field) && text.trim() !== '' ? t(`error.${field}`) : undefined);
  const needs = (field: PositionError) => !!outcome && !outcome.ok && outcome.errors.includes(field);
  const stopProblem = needs('stopTooSmall')
    ? t('error.stopTooSmall', { step: instrument ? formatNumber(instrument.tickSize, { maxDecimals: 8 }) : '--' })
    : needs('stopTooLarge')
      ? t('error.stopTooLarge')
      : undefined;
  const r = outcome?.ok ? outcome.value : null;
  const sizeUnit = market === 'forex' ? t('lots') : t('contracts');
  const base = instrument?.symbol.replace(/USDT?$/, '') ?? '';
  const money = (v: number | undefined) => formatNumber(v, { decimals: 2 });

  return (
    <div className="tl-page" data-testid="position-calc" data-market={market}>
      <p className="bt-lead">{t('positionLead')}</p>
      <div className="tl-grid">
        <section className="card bt-card" aria-label={t('inputs')}>
          <div className="tl-form">
            <div className="tl-wide"><MarketSwitch market={market} onChange={switchMarket} /></div>
            <div className="tl-wide">{instruments.length ? <InstrumentSelect instruments={instruments} value={instrument?.symbol ?? ''} onChange={setSymbol} /> : null}</div>
            <NumField name="balance" label={t('balance')} value={balance} onChange={setBalance} suffix={market === 'forex' ? 'USD' : 'USDT'} error={errorOf('balance', balance)} />
            <NumField name="risk" label={t('riskPercent')} value={risk} onChange={setRisk} suffix="%" error={errorOf('riskPercent', risk)} />
            {market === 'forex' ? (
              <div className="tl-wide">
                <Segment
                  label={t('stopUnit')}
                  value={unit}
                  options={[
                    { value: 'pips', text: t('pips') },
                    { value: 'points', text: t('points') },
                    { value: 'price', text: t('priceDistance') },
                  ]}
                  onChange={setUnit}
                  testId="calc-unit"
                />
              </div>
            ) : null}
            <NumField
              name="stop"
              label={t('stopDistance')}
              value={stop}
              onChange={setStop}
              suffix={stopUnit === 'price' ? instrument?.quote ?? '' : t(stopUnit)}
              hint={market === 'forex' ? t('pipRule', { pip: instrument ? formatNumber(pipSize(instrument), { maxDecimals: 8 }) : '--' }) : t('stopHintCrypto')}
              error={errorOf('stopDistance', stop) ?? stopProblem}
            />
            <NumField
              name="price"
              label={t('price')}
              value={price}
              onChange={setPrice}
              hint={t(needs('price') && !price.trim() ? 'priceNeeded' : 'priceHint')}
              error={errorOf('price', price) ?? (needs('price') && !price.trim() ? t('error.priceNeeded') : undefined)}
            />
            <NumField name="leverage" label={t('leverageOptional')} value={leverage} onChange={setLeverage} suffix="×" error={errorOf('leverage', leverage)} />
            {market === 'forex' ? (
              <NumField
                name="pipValue"
                label={t('pipValue')}
                value={pipValue}
                onChange={setPipValue}
                suffix="USD"
                hint={t('pipValueHint')}
                error={needs('pipValue') ? t('error.pipValue') : undefined}
              />
            ) : null}
          </div>
        </section>
        <section className="card bt-card" aria-live="polite" aria-label={t('result')} data-testid="calc-result">
          <h2 className="bt-h2">{t('result')}</h2>
          {r ? (
            <dl className="tl-results">
              <ResultRow strong label={t('positionSize')} value={`${formatNumber(r.size, { maxDecimals: 4 })} ${sizeUnit}`} testId="result-size" />
              {r.belowMin ? <p className="bt-warn" data-testid="result-below-min">{t('belowMin', { min: instrument?.minQty ?? '--', unit: sizeUnit })}</p> : null}
              <ResultRow label={t('exactSize')} value={formatNumber(r.rawSize, { maxDecimals: 4 })} testId="result-raw" />
              <ResultRow label={market === 'forex' ? t('units') : t('coins', { base })} value={formatNumber(r.units, { maxDecimals: 8 })} testId="result-units" />
              <ResultRow label={t('riskAmount')} value={money(r.riskAmount)} testId="result-risk" />
              <ResultRow label={t('actualRisk')} value={`${money(r.actualRisk)} (${formatNumber(r.actualRiskPercent, { decimals: 2 })}%)`} testId="result-actual-risk" />
              {r.pipValue !== undefined ? <ResultRow label={t('pipValueUsed')} value={money(r.pipValue)} testId="result-pip-value" /> : null}
              <ResultRow label={t('stopPrice')} value={formatNumber(r.stopPrice, { maxDecimals: instrument?.digits ?? 8 })} testId="result-stop-price" />
              {r.notional !== undefined ? <ResultRow label={t('notional')} value={money(r.notional)} testId="result-notional" /> : null}
              {r.margin !== undefined ? <ResultRow label={t('margin')} value={money(r.margin)} testId="result-margin" /> : null}
              {r.marginAboveBalance ? <p className="bt-warn" role="alert" data-testid="result-margin-above-balance">{t('marginAboveBalance', { margin: money(r.margin), balance: money(parseInput(balance)) })}</p> : null}
            </dl>
          ) : (
            <p className="bt-sub" data-testid="result-empty">{t('fillIn')}</p>
          )}
        </section>
      </div>
      <Formula
        title={t('formula')}
        lines={market === 'forex' ? [t('fRisk'), t('fPipValue'), t('fLots'), t('fRound')] : [t('fRisk'), t('fContracts'), t('fRound')]}
      />
      <div className="tl-links">
        <Link className="btn btn-secondary" to="/pages/tools/riskCalc" data-testid="open-risk-calc">{t('openRisk')}</Link>
      </div>
    </div>
  );
}
