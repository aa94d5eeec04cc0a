// Tab 1 (`/` and pages/backtest/recommandParams): market, strategy, symbol, capital and range →
// AI recommendation with live progress → three presets; one tap runs a backtest or opens the
// create-order form prefilled.
import { useMemo, useState, type ReactNode } from 'react';
import { useBacktestTranslation } from '../../i18n';
import { Link, useNavigate, useSearchParams } from '../../lib/router';
import { useQueryClient } from '@tanstack/react-query';
import { ERRORS, type RecommendPreset, type Recommendation } from '@lq/contracts';
import { Button } from '../../components/Button';
import { ApiError, TransportError } from '../../lib/api';
import { on } from '../../lib/events';
import { useAppStore } from '../../lib/store';
import { showToast } from '../../lib/toast';
import { cancelRecommendation, createBacktest, createRecommendation, invalidateBacktests, useCurrencies, useRecommendation, useTactics } from './api';
import { defaultRange } from './formModel';
import { createOrderPath, isStrategyKey, marketOfDataSource } from './strategies';
import { distinctPresets } from './presets';
import { EmptyState, Notice, ProgressBar, toneOf, useFormatters } from './ui';
import { DataStatus } from './DataStatus';

const DAY = 86_400_000;
/** The last recommendation of this tab, so leaving tab 1 and coming back shows it again (ui.md). */
const LAST_REC_KEY = 'lq.lastRecommendation';
const lastRecommendation = () => {
  try {
    return Number(sessionStorage.getItem(LAST_REC_KEY)) || undefined;
  } catch {
    return undefined;
  }
};
// Another user may log in in this tab: forget the previous user's recommendation.
on('logout', () => {
  try {
    sessionStorage.removeItem(LAST_REC_KEY);
  } catch {
    // nothing stored
  }
});
const rememberRecommendation = (id: number) => {
  try {
    sessionStorage.setItem(LAST_REC_KEY, String(id));
  } catch {
    // private mode: the ?rec= of the address still works
  }
};
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The recommendation's range as the form's dates (its end time is exclusive: the day after the last one). */
/** start / end (inclusive days) of [from, to) ms. */
const daysOf = (from: number, to: number) => ({ start: isoDay(from), end: isoDay(Math.max(from, to - 1)) });
const rangeOf = (r: Recommendation) => daysOf(r.startTime, r.endTime);


interface ServerProblem {
  text: string;
  vip: boolean;
}
function problemOf(error: unknown, t: (k: string) => string): ServerProblem {
  if (error instanceof ApiError) return { text: error.message, vip: error.code === ERRORS.NOT_VIP.code };
  return { text: t(error instanceof TransportError && error.timeout ? 'common.timeout' : 'common.networkError'), vip: false };
}

export function ProblemNotice({ problem }: { problem: ServerProblem }) {
  const { t } = useBacktestTranslation();
  return (
    <Notice tone="error" testId={problem.vip ? 'vip-required' : 'server-error'}>
      <span>{problem.text}</span>
      {problem.vip ? (
        <Link to="/pages/equity/index" className="bt-link" data-testid="upgrade-vip">
          {t('backtest.upgrade')}
        </Link>
      ) : null}
    </Notice>
  );
}

export default function RecommendPage({ marketSwitcher }: { marketSwitcher?: ReactNode }) {
  const { t } = useBacktestTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [search, setSearch] = useSearchParams();
  const current = useAppStore((s) => s.currentDataSource);
  const dataSource = current.type;
  const market = marketOfDataSource(dataSource);
  const fmt = useFormatters();

  const tactics = useTactics(dataSource, false);
  const currencies = useCurrencies(dataSource);
  const [strategy, setStrategy] = useState('');
  const [symbol, setSymbol] = useState('');
  const [capital, setCapital] = useState('10000');
  // The range typed for one symbol; choosing another symbol falls back to its last 90 days.
  const [typedRange, setTypedRange] = useState<{ symbol: string; start: string; end: string } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<ServerProblem | null>(null);
  const [starting, setStarting] = useState(false);
  const [runningTier, setRunningTier] = useState<string | null>(null);

  const strategies = tactics.data ?? [];
  const symbols = currencies.data ?? [];
  const chosenStrategy = strategies.some((s) => s.value === strategy) ? strategy : (strategies[0]?.value ?? '');
  const chosenSymbol = symbols.some((s) => s.symbol === symbol) ? symbol : (symbols[0]?.symbol ?? '');
  const item = symbols.find((s) => s.symbol === chosenSymbol);
  const [now] = useState(() => Date.now());
  const fallbackRange = useMemo(() => defaultRange(item?.from, item?.to, now), [item?.from, item?.to, now]);
  const { start, end } = typedRange?.symbol === chosenSymbol ? typedRange : fallbackRange;
  const setRange = (r: { start: string; end: string }) => setTypedRange({ symbol: chosenSymbol, ...r });

  const [remembered] = useState(lastRecommendation);
  const recId = Number(search.get('rec')) || remembered;
  const rec = useRecommendation(recId);
  // A recommendation opened by its address fills the form with what it was made for; after that
  // it is shown only while the form still asks for that market, strategy and symbol (switching
  // BTCUSDT to ETHUSDT no longer leaves BTCUSDT's presets on screen).
  const loaded = rec.data;
  const [filledFrom, setFilledFrom] = useState<number>();
  if (loaded && filledFrom !== loaded.id && loaded.dataSource === dataSource) {
    setFilledFrom(loaded.id);
    setStrategy(loaded.strategy);
    setSymbol(loaded.symbol);
  }
  const recommendation =
    loaded && loaded.dataSource === dataSource && loaded.strategy === chosenStrategy && loaded.symbol === chosenSymbol ? loaded : undefined;

  const strategyLabel = (value: string, label?: string) => (isStrategyKey(value) ? t(`strategy.${value}`) : (label ?? value));

  const validate = () => {
    const e: Record<string, string> = {};
    const cap = Number(capital.replace(/,/g, ''));
    if (!capital.trim() || !Number.isFinite(cap)) e.capital = 'validation.invalidType';
    else if (cap < 1000) e.capital = 'validation.capitalMin';
    const s = Date.parse(start);
    const en = Date.parse(end);
    if (Number.isNaN(s)) e.start = 'validation.invalidDate';
    if (Number.isNaN(en)) e.end = 'validation.invalidDate';
    else if (s > en) e.end = 'validation.startAfterEnd';
    else if (en - s < 7 * DAY) e.end = 'validation.rangeMin7Days';
    if (!chosenStrategy) e.strategy = 'validation.required';
    if (!chosenSymbol) e.symbol = 'validation.required';
    setErrors(e);
    return Object.keys(e).length === 0 ? cap : null;
  };

  const recommend = async () => {
    const cap = validate();
    if (cap === null) return;
    setProblem(null);
    setStarting(true);
    try {
      const created = await createRecommendation({ strategy: chosenStrategy, dataSource, symbol: chosenSymbol, capital: cap, start, end });
      queryClient.setQueryData(['recommendation', created.id], created);
      rememberRecommendation(created.id);
      setSearch({ rec: String(created.id) }, { replace: true });
    } catch (error) {
      setProblem(problemOf(error, t));
    } finally {
      setStarting(false);
    }
  };

  const stop = async () => {
    if (!recId) return;
    await cancelRecommendation(recId).catch(() => undefined);
    showToast(t('backtest.recommendCancelled'));
    void rec.refetch();
  };

  const runPreset = async (r: Recommendation, preset: RecommendPreset, window?: { from: number; to: number }) => {
    setProblem(null);
    setRunningTier(preset.tier);
    try {
      const params = { ...preset.params, ...(window ? daysOf(window.from, window.to) : rangeOf(r)) };
      const result = await createBacktest({ type: 0, strategy: r.strategy, dataSource: r.dataSource, symbol: r.symbol, params });
      void invalidateBacktests(queryClient);
      showToast(t('backtest.started'), 'success');
      navigate(`/pages/backtest/resultDateil/resultDetail?id=${result.backtest.id}`);
    } catch (error) {
      setProblem(problemOf(error, t));
    } finally {
      setRunningTier(null);
    }
  };

  const editPreset = (r: Recommendation, preset: RecommendPreset) => {
    if (!isStrategyKey(r.strategy)) return;
    const params = { ...preset.params, ...rangeOf(r) };
    navigate(createOrderPath(r.strategy, marketOfDataSource(r.dataSource), { symbol: r.symbol, params: JSON.stringify(params) }));
  };

  const running = loaded?.status === 'running';
  const loadingRefs = tactics.isPending || currencies.isPending;

  return (
    <div className="bt-page bt-recommend" data-testid="recommend-page" data-market={market}>
      <div className="bt-toolbar">
        {marketSwitcher}
        <Link to="/pages/backtest/backtestRecord" className="btn btn-secondary" data-testid="open-records">
          {t('backtest.records')}
        </Link>
        <Link to="/pages/backtest/chooseList/chooseList" className="btn btn-ghost" data-testid="open-choose">
          {t('backtest.manual')}
        </Link>
      </div>

      <section className="card bt-card" aria-label={t('page.recommandParams')}>
        <p className="bt-sub" data-testid="rec-market">
          {t('backtest.market')}: {current.text || t(market === 'forex' ? 'market.forex' : 'market.crypto')}
        </p>
        {loadingRefs ? (
          <div className="spinner" aria-label={t('common.loading')} />
        ) : !strategies.length ? (
          <EmptyState text={t('backtest.noStrategies')} testId="no-strategies" />
        ) : !symbols.length ? (
          <>
            <EmptyState text={t('backtest.noSymbols')} testId="no-symbols" action={<Button variant="secondary" onClick={() => void currencies.refetch()}>{t('common.retry')}</Button>} />
            <DataStatus />
          </>
        ) : (
          <form className="bt-form-grid" onSubmit={(e) => { e.preventDefault(); void recommend(); }} noValidate data-testid="recommend-form">
            <div className="field">
              <label htmlFor="rec-strategy">{t('backtest.strategy')}</label>
              <select id="rec-strategy" className="input" value={chosenStrategy} onChange={(e) => setStrategy(e.target.value)} data-testid="rec-strategy" aria-invalid={errors.strategy ? true : undefined}>
                {strategies.map((s) => (
                  <option key={s.value} value={s.value}>{strategyLabel(s.value, s.label)}</option>
                ))}
              </select>
              {errors.strategy ? <p className="field-error" role="alert" data-testid="strategy-error">{t(errors.strategy)}</p> : null}
            </div>
            <div className="field">
              <label htmlFor="rec-symbol">{t('backtest.symbol')}</label>
              <select id="rec-symbol" className="input" value={chosenSymbol} onChange={(e) => setSymbol(e.target.value)} data-testid="rec-symbol" aria-describedby="rec-symbol-hint">
                {symbols.map((s) => (
                  <option key={s.symbol} value={s.symbol}>{s.label ?? s.symbol}</option>
                ))}
              </select>
              {item?.from !== undefined ? (
                <p id="rec-symbol-hint" className="field-hint num" data-testid="symbol-range">{t('fieldHint.dataRange', { from: fmt.date(item.from), to: fmt.date(item.to) })}</p>
              ) : null}
            </div>
            <div className="field">
              <label htmlFor="rec-capital">{t('backtest.capital')}</label>
              <input id="rec-capital" className="input num" inputMode="decimal" value={capital} onChange={(e) => setCapital(e.target.value)} data-testid="rec-capital" aria-invalid={errors.capital ? true : undefined} />
              {errors.capital ? <p className="field-error" role="alert" data-testid="capital-error">{t(errors.capital)}</p> : null}
            </div>
            <div className="field">
              <span className="bt-label">{t('field.start')} – {t('field.end')} (UTC)</span>
              <div className="bt-range">
                <input aria-label={t('field.start')} className="input num" type="date" value={start} onChange={(e) => setRange({ start: e.target.value, end })} data-testid="rec-start" aria-invalid={errors.start ? true : undefined} />
                <input aria-label={t('field.end')} className="input num" type="date" value={end} onChange={(e) => setRange({ start, end: e.target.value })} data-testid="rec-end" aria-invalid={errors.end ? true : undefined} />
              </div>
              {errors.start || errors.end ? <p className="field-error" role="alert" data-testid="range-error">{t(errors.start ?? errors.end ?? '')}</p> : null}
            </div>
            <div className="bt-field-wide">
              <Button type="submit" block busy={starting} disabled={running} data-testid="get-recommendation">
                {t('backtest.getRecommendation')}
              </Button>
            </div>
          </form>
        )}
      </section>

      {problem ? <ProblemNotice problem={problem} /> : null}

      {recommendation ? (
        <RecommendationView
          rec={recommendation}
          onStop={() => void stop()}
          onRun={(p, window) => void runPreset(recommendation, p, window)}
          onEdit={(p) => editPreset(recommendation, p)}
          runningTier={runningTier}
          strategyLabel={strategyLabel(recommendation.strategy)}
        />
      ) : (!recId || loaded) && strategies.length && symbols.length ? (
        <EmptyState text={t('backtest.emptyPresets')} testId="presets-empty" />
      ) : null}
    </div>
  );
}

interface ViewProps {
  rec: Recommendation;
  onStop: () => void;
  onRun: (p: RecommendPreset, window?: { from: number; to: number }) => void;
  onEdit: (p: RecommendPreset) => void;
  runningTier: string | null;
  strategyLabel: string;
}

function RecommendationView({ rec, onStop, onRun, onEdit, runningTier, strategyLabel }: ViewProps) {
  const { t } = useBacktestTranslation();
  const fmt = useFormatters();
  if (rec.status === 'running') {
    return (
      <section className="card bt-card" data-testid="recommend-running" aria-live="polite">
        <h2 className="bt-h2">{t('backtest.recommending')}</h2>
        <p className="bt-sub">{strategyLabel} · {rec.symbol} · <span className="num">{fmt.date(rec.startTime)} – {fmt.date(Math.max(rec.startTime, rec.endTime - 1))}</span></p>
        <ProgressBar percent={rec.progress} testId="recommend-progress" />
        <Button variant="secondary" onClick={onStop} data-testid="recommend-stop">
          {t('backtest.recommendCancel')}
        </Button>
      </section>
    );
  }
  if (rec.status !== 'done' || !rec.result) {
    return (
      <Notice tone="error" testId="recommend-failed">
        {rec.status === 'cancelled' ? t('backtest.recommendCancelled') : t('backtest.recommendFailed')}
        {rec.error ? `: ${rec.error}` : ''}
      </Notice>
    );
  }
  const result = rec.result;
  // Each date unbroken, the line free to break after the dash (a narrow column holds one date).
  const windowText = (w: { from: number; to: number }) => (
    <>
      <span>{fmt.date(w.from)} –</span> <span>{fmt.date(Math.max(w.from, w.to - 1))}</span>
    </>
  );
  return (
    <section data-testid="presets" aria-labelledby="presets-title">
      <h2 id="presets-title" className="section-title">{t('backtest.presets')} · {strategyLabel} · {rec.symbol}</h2>
      <p className="bt-sub">{t('backtest.presetsHint', { count: result.evaluated })}</p>
      {result.presets.length === 0 ? <EmptyState text={t('backtest.recommendFailed')} /> : null}
      <div className="bt-presets">
        {distinctPresets(result.presets).map(({ preset: p, tiers }) => (
          <article key={p.tier} className={`card bt-preset bt-preset-${p.tier}`} data-testid={`preset-${p.tier}`} data-tiers={tiers.join(' ')}>
            <header className="bt-preset-head">
              <h3>{tiers.map((tier) => t(`backtest.tier.${tier}`)).join(' · ')}</h3>
              {typeof p.params.interval === 'string' ? <span className="badge muted">{p.params.interval}</span> : null}
            </header>
            <table className="bt-mini num">
              <thead>
                <tr>
                  <th scope="col" />
                  <th scope="col">
                    {t('backtest.inSample')}
                    <span className="bt-window" data-testid="window-in">{windowText(result.inSample)}</span>
                  </th>
                  <th scope="col">
                    {t('backtest.outOfSample')}
                    <span className="bt-window" data-testid="window-out">{windowText(result.outOfSample)}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">{t('metric.totalReturn')}</th>
                  <td className={`tone-${toneOf(p.inSample.totalReturn) ?? 'flat'}`}>{fmt.percent(p.inSample.totalReturn)}</td>
                  <td className={`tone-${toneOf(p.outOfSample.totalReturn) ?? 'flat'}`}>{fmt.percent(p.outOfSample.totalReturn)}</td>
                </tr>
                <tr>
                  <th scope="row">{t('metric.maxDrawdown')}</th>
                  <td>{fmt.plainPercent(p.inSample.maxDrawdown)}</td>
                  <td>{fmt.plainPercent(p.outOfSample.maxDrawdown)}</td>
                </tr>
                <tr>
                  <th scope="row">{t('metric.winRate')}</th>
                  <td>{fmt.plainPercent(p.inSample.winRate)}</td>
                  <td>{fmt.plainPercent(p.outOfSample.winRate)}</td>
                </tr>
                <tr>
                  <th scope="row">{t('metric.tradeCount')}</th>
                  <td>{fmt.count(p.inSample.tradeCount)}</td>
                  <td>{fmt.count(p.outOfSample.tradeCount)}</td>
                </tr>
              </tbody>
            </table>
            {p.ai ? (
              <p className="bt-ai num" data-testid="preset-ai">
                {t('backtest.aiHit', { hit: fmt.plainPercent(p.ai.outOfSample.hitRate), base: fmt.plainPercent(p.ai.outOfSample.baseRate) })}
              </p>
            ) : null}
            {!p.validated ? <p className="bt-warn">{t('backtest.notValidated')}</p> : null}
            <div className="bt-actions">
              <Button onClick={() => onRun(p)} busy={runningTier === p.tier} disabled={runningTier !== null} data-testid={`run-${p.tier}`}>
                {t('backtest.runBacktest')}
              </Button>
              <Button variant="secondary" onClick={() => onEdit(p)} data-testid={`edit-${p.tier}`}>
                {t('backtest.editParams')}
              </Button>
              <Button variant="secondary" onClick={() => onRun(p, result.outOfSample)} disabled={runningTier !== null} data-testid={`run-oos-${p.tier}`}>
                {t('backtest.runOutOfSample')}
              </Button>
            </div>
          </article>
        ))}
      </div>
    </section>
  );
}
