// pages/backtest/resultDateil/resultDetail?id=: status with its reason (live progress while
// running), every report metric with its definition one tap away, the profit curve, the order
// log, the full-screen K-line and "start a robot with these parameters".
import { lazy, Suspense, useMemo, useState } from 'react';
import { useBacktestTranslation } from '../../i18n';
import { Link, useNavigate, useSearchParams } from '../../lib/router';
import { useQueryClient } from '@tanstack/react-query';
import { inParamOrder, type BacktestDetail, type BacktestReport } from '@lq/contracts';
import { Button } from '../../components/Button';
import { showToast } from '../../lib/toast';
import { useAppStore } from '../../lib/store';
import { cancelBacktest, deleteBacktest, getRobotPrefill, invalidateBacktests, useBacktestDetail, useBacktestEquity, useBacktestReport, useBacktestTrades } from './api';
import { downsample, toLine } from './chartData';
import { createOrderPath, isStrategyKey } from './strategies';
import { ConfirmSheet, EmptyState, InfoButton, Metric, ProgressBar, StatusBadge, toneOf, useFormatters, useProgressStep } from './ui';

const EquityChart = lazy(() => import('./charts').then((m) => ({ default: m.EquityChart })));

export const klinePath = (id: number) => `/pages/backtest/resultDateil/fullScreenKline/fullScreenKline?id=${id}`;

export default function ResultDetailPage() {
  const { t } = useBacktestTranslation();
  const [search] = useSearchParams();
  const id = Number(search.get('id')) || undefined;
  const detail = useBacktestDetail(id);
  if (!id) return <EmptyState text={t('backtest.notFound')} testId="detail-missing" />;
  if (detail.isPending) return <div className="spinner" aria-label={t('common.loading')} />;
  if (detail.isError) return <EmptyState text={t('backtest.notFound')} testId="detail-missing" action={<Link className="btn btn-secondary" to="/pages/backtest/backtestRecord">{t('backtest.records')}</Link>} />;
  return <Detail item={detail.data} />;
}

function Detail({ item }: { item: BacktestDetail }) {
  const { t } = useBacktestTranslation();
  const fmt = useFormatters();
  const stepText = useProgressStep();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const theme = useAppStore((s) => s.theme);
  const finished = item.status !== 1;
  const report = useBacktestReport(item.id, finished);
  const equity = useBacktestEquity(item.id, finished);
  const [confirm, setConfirm] = useState<'stop' | 'delete' | null>(null);
  const [busy, setBusy] = useState(false);
  const [robotBusy, setRobotBusy] = useState(false);
  const name = isStrategyKey(item.strategy) ? t(`strategy.${item.strategy}`) : item.strategy;
  const points = useMemo(() => downsample(toLine(equity.data?.points ?? []), 600), [equity.data]);

  const act = async () => {
    setBusy(true);
    try {
      if (confirm === 'stop') {
        await cancelBacktest(item.id);
        showToast(t('backtest.stopped'), 'success');
        await queryClient.invalidateQueries({ queryKey: ['backtest', item.id] });
      } else {
        await deleteBacktest(item.id);
        showToast(t('backtest.deleted'), 'success');
        navigate('/pages/backtest/backtestRecord', { replace: true });
      }
      void invalidateBacktests(queryClient);
      setConfirm(null);
    } catch {
      // message shown by the client
    } finally {
      setBusy(false);
    }
  };

  const startRobot = async () => {
    setRobotBusy(true);
    try {
      const prefill = await getRobotPrefill(item.id);
      const strategy = isStrategyKey(prefill.strategy) ? prefill.strategy : isStrategyKey(item.strategy) ? item.strategy : null;
      if (!strategy) return;
      navigate(createOrderPath(strategy, item.market, { type: '1', symbol: prefill.symbol, params: JSON.stringify(prefill.params), from: String(prefill.fromBacktest) }));
    } catch {
      // message shown by the client
    } finally {
      setRobotBusy(false);
    }
  };

  return (
    <div className="bt-page" data-testid="result-detail" data-id={item.id} data-status={item.status}>
      <section className="card bt-card bt-detail-head">
        <div className="bt-record-head">
          <h2 className="bt-h2">{item.symbol}</h2>
          <span className="bt-sub">{name} · {item.interval} · {t(item.market === 'forex' ? 'market.forex' : 'market.crypto')}</span>
          <StatusBadge status={item.status} />
        </div>
        {item.status === 1 ? <ProgressBar percent={item.progress} label={t('backtest.running')} detail={stepText(item.progressStep)} testId="detail-progress" /> : null}
        {item.statusReason && item.status !== 2 ? <p className="bt-warn" data-testid="status-reason">{item.statusReason}</p> : null}
        <dl className="bt-facts num">
          <div><dt>{t('backtest.capital')}</dt><dd>{fmt.money(item.capital)}</dd></div>
          <div><dt>{t('field.leverage')}</dt><dd>{fmt.count(item.leverage)}×</dd></div>
          {/* The range as entered (the simulated end time is exclusive: the day after). */}
          <div><dt>{t('field.start')}</dt><dd>{item.start}</dd></div>
          <div><dt>{t('field.end')}</dt><dd>{item.end}</dd></div>
          <div><dt>{t('field.timezone')}</dt><dd>{item.timezone} · {t('backtest.rangeDays', { days: fmt.count(item.range) })}</dd></div>
        </dl>
        <div className="bt-actions">
          <Link className="btn btn-primary" to={klinePath(item.id)} data-testid="open-kline">{t('backtest.fullKline')}</Link>
          <Button variant="secondary" busy={robotBusy} disabled={!finished} onClick={() => void startRobot()} data-testid="start-robot">{t('backtest.startRobot')}</Button>
          {item.status === 1 ? (
            <Button variant="danger" onClick={() => setConfirm('stop')} data-testid="detail-stop">{t('backtest.stop')}</Button>
          ) : (
            <Button variant="danger" onClick={() => setConfirm('delete')} data-testid="detail-delete">{t('backtest.delete')}</Button>
          )}
        </div>
      </section>

      {!finished ? (
        <EmptyState text={t('backtest.reportPending')} testId="report-pending" />
      ) : (
        <div className="bt-detail-grid">
          <section className="card bt-card" aria-labelledby="report-title" data-testid="report">
            <h2 id="report-title" className="bt-h2">{t('backtest.report')}</h2>
            {report.isPending ? <div className="spinner" aria-label={t('common.loading')} /> : report.data ? <ReportMetrics report={report.data} /> : <p className="bt-sub">{item.statusReason ?? t('common.loadFailed')}</p>}
          </section>
          <div className="stack">
            <section className="card bt-card" aria-labelledby="curve-title">
              <div className="bt-section-head">
                <h2 id="curve-title" className="bt-h2">{t('backtest.profitCurve')}</h2>
                <InfoButton metric="profitCurve" />
              </div>
              {points.length > 1 ? (
                <Suspense fallback={<div className="bt-chart" />}>
                  <EquityChart points={points} capital={equity.data?.capital ?? item.capital} theme={theme} locale={fmt.localeTag} />
                </Suspense>
              ) : equity.isPending ? (
                <div className="bt-chart" />
              ) : (
                <p className="bt-sub">--</p>
              )}
            </section>
            {report.data?.monthlyReturns.length ? <Monthly report={report.data} /> : null}
          </div>
          <OrderLog id={item.id} digits={6} />
          <Params params={item.params} />
        </div>
      )}

      {confirm ? (
        <ConfirmSheet
          title={t(confirm === 'stop' ? 'backtest.stop' : 'backtest.delete')}
          message={t(confirm === 'stop' ? 'backtest.confirmStop' : 'backtest.confirmDelete')}
          confirmLabel={t(confirm === 'stop' ? 'backtest.stop' : 'backtest.delete')}
          onConfirm={() => void act()}
          onClose={() => setConfirm(null)}
          busy={busy}
        />
      ) : null}
    </div>
  );
}

function ReportMetrics({ report: r }: { report: BacktestReport }) {
  const { t } = useBacktestTranslation();
  const fmt = useFormatters();
  return (
    <>
      <dl className="bt-metrics">
        <Metric metric="totalReturn" value={fmt.percent(r.totalReturn)} tone={toneOf(r.totalReturn)} />
        <Metric metric="profit" value={fmt.signedMoney(r.profit)} tone={toneOf(r.profit)} />
        <Metric metric="finalEquity" value={fmt.money(r.finalEquity)} />
        <Metric metric="annualisedReturn" value={fmt.percent(r.annualisedReturn)} tone={toneOf(r.annualisedReturn)} />
        <Metric metric="tradeCount" value={fmt.count(r.tradeCount)} />
        <Metric metric="winRate" value={fmt.plainPercent(r.winRate)} />
        <Metric metric="maxDrawdown" value={fmt.plainPercent(r.maxDrawdown)} />
        <Metric metric="drawdownAmount" value={fmt.money(r.drawdownAmount)} />
        <Metric metric="maxFloatingLoss" value={fmt.signedMoney(r.maxFloatingLoss)} tone={toneOf(r.maxFloatingLoss)} />
        <Metric metric="maxFloatingProfit" value={fmt.signedMoney(r.maxFloatingProfit)} tone={toneOf(r.maxFloatingProfit)} />
        <Metric metric="riskReward" value={fmt.ratio(r.riskReward)} />
        <Metric metric="profitFactor" value={fmt.ratio(r.profitFactor)} />
        <Metric metric="expectancy" value={fmt.signedMoney(r.expectancy)} tone={toneOf(r.expectancy)} />
        <Metric metric="sharpe" value={fmt.ratio(r.sharpe)} />
        <Metric metric="sortino" value={fmt.ratio(r.sortino)} />
        <Metric metric="calmar" value={fmt.ratio(r.calmar)} />
        <Metric metric="totalFees" value={fmt.money(r.totalFees)} />
        <Metric metric="totalFunding" value={fmt.signedMoney(r.totalFunding)} />
        <Metric metric="realisedPnl" value={fmt.signedMoney(r.realisedPnl)} tone={toneOf(r.realisedPnl)} />
        <Metric metric="floatingPnl" value={fmt.signedMoney(r.floatingPnl)} tone={toneOf(r.floatingPnl)} />
        <Metric metric="exposureTime" value={fmt.plainPercent(r.exposureTime)} />
        <Metric metric="longestDrawdown" value={fmt.duration(r.longestDrawdownMs)} />
        {r.ai ? <Metric metric="aiHitRate" value={t('backtest.aiHitShort', { hit: fmt.plainPercent(r.ai.hitRate), base: fmt.plainPercent(r.ai.baseRate) })} /> : null}
      </dl>
      {r.openPositions > 0 ? <p className="bt-sub">{t('backtest.openPositions', { count: r.openPositions })}</p> : null}
    </>
  );
}

function Monthly({ report }: { report: BacktestReport }) {
  const { t } = useBacktestTranslation();
  const fmt = useFormatters();
  return (
    <section className="card bt-card" aria-labelledby="monthly-title">
      <h2 id="monthly-title" className="bt-h2">{t('backtest.monthly')}</h2>
      <ul className="bt-monthly num">
        {report.monthlyReturns.map((m) => (
          <li key={m.month}>
            <span>{m.month}</span>
            <b className={`tone-${toneOf(m.return) ?? 'flat'}`}>{fmt.percent(m.return)}</b>
          </li>
        ))}
      </ul>
    </section>
  );
}

function OrderLog({ id }: { id: number; digits: number }) {
  const { t } = useBacktestTranslation();
  const fmt = useFormatters();
  const [page, setPage] = useState(1);
  const trades = useBacktestTrades(id, page, true);
  const data = trades.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <section className="card bt-card bt-wide" aria-labelledby="log-title" data-testid="order-log">
      <h2 id="log-title" className="bt-h2">{t('backtest.orderLog')} {data ? <span className="bt-sub num">({fmt.count(data.total)})</span> : null}</h2>
      {!data ? (
        trades.isError ? <p className="bt-sub">{t('common.loadFailed')}</p> : <div className="spinner" aria-label={t('common.loading')} />
      ) : !data.list.length ? (
        <p className="bt-sub" data-testid="no-trades">{t('backtest.noTrades')}</p>
      ) : (
        <>
          <div className="bt-table-wrap">
            <table className="bt-table bt-log num">
              <thead>
                <tr>
                  <th scope="col">{t('backtest.col.no')}</th>
                  <th scope="col">{t('backtest.col.side')}</th>
                  <th scope="col" className="r">{t('backtest.col.lots')}</th>
                  <th scope="col">{t('backtest.col.entry')}</th>
                  <th scope="col">{t('backtest.col.exit')}</th>
                  <th scope="col" className="r">{t('backtest.col.pnl')}</th>
                  <th scope="col" className="r">{t('backtest.col.fee')}</th>
                  <th scope="col">{t('backtest.col.reason')}</th>
                </tr>
              </thead>
              <tbody>
                {data.list.map((r) => (
                  <tr key={r.no} data-testid="trade-row">
                    <td>{r.no}</td>
                    <td className={r.side === 'long' ? 'tone-up' : 'tone-down'}>{r.side === 'long' ? '▲ ' : '▼ '}{t(`option.${r.side}`)}</td>
                    <td className="r">{fmt.price(r.lots, 6)}</td>
                    <td><div>{fmt.price(r.entryPrice, 6)}</div><div className="bt-sub">{fmt.date(r.entryTime, 'UTC', true)}</div></td>
                    <td><div>{fmt.price(r.exitPrice, 6)}</div><div className="bt-sub">{fmt.date(r.exitTime, 'UTC', true)}</div></td>
                    <td className={`r tone-${toneOf(r.pnl) ?? 'flat'}`}>{fmt.signedMoney(r.pnl)}</td>
                    <td className="r">{fmt.money(r.fee)}</td>
                    <td>{t(`exitReason.${r.reason}`, { defaultValue: r.reason })}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pages > 1 ? (
            <div className="bt-pager">
              <Button variant="secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)} data-testid="log-prev">{t('backtest.prev')}</Button>
              <span className="num">{t('backtest.pageOf', { page, pages })}</span>
              <Button variant="secondary" disabled={page >= pages} onClick={() => setPage((p) => p + 1)} data-testid="log-next">{t('backtest.next')}</Button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

function Params({ params }: { params: Record<string, unknown> }) {
  const { t } = useBacktestTranslation();
  const entries = inParamOrder(Object.entries(params).filter(([k, v]) => k !== 'market' && v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0)));
  const show = (k: string, v: unknown) => {
    if (typeof v === 'boolean') return v ? '✓' : '✗';
    if ((k === 'side' || k === 'unit') && typeof v === 'string') return t(`option.${v}`);
    if ((k === 'makerFee' || k === 'takerFee') && typeof v === 'number') return `${Number((v * 100).toPrecision(10))}%`;
    if (Array.isArray(v)) return v.map((x) => (x === null ? '--' : String(x))).join(' / ');
    return String(v);
  };
  return (
    <section className="card bt-card bt-wide" aria-labelledby="params-title" data-testid="detail-params">
      <h2 id="params-title" className="bt-h2">{t('backtest.parameters')}</h2>
      <dl className="bt-facts num">
        {entries.map(([k, v]) => (
          <div key={k}>
            <dt>{t(`field.${k}`, { defaultValue: k })}</dt>
            <dd>{show(k, v)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
