// pages/orderDetail/orderDetail?id=: one robot — status with its pause / stop reason and actions,
// income and live figures, open positions, order intents with their state, fills (paged), the
// events timeline (errors and stop details in plain words) and the parameters. Polled while live.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBacktestTranslation } from '../../i18n';
import { Link, useSearchParams } from '../../lib/router';
import { useQueryClient } from '@tanstack/react-query';
import { inParamOrder, type RobotDetail, type RobotEvent } from '@lq/contracts';
import { Button } from '../../components/Button';
import { showToast } from '../../lib/toast';
import { useIsDesktop } from '../../lib/useMedia';
import { invalidateRobots, robotAction, ROBOT_LIST_PATH, useRobotDetail, useRobotFills, type RobotAction } from './api';
import { DriftPanel } from './DriftPanel';
import { factKey, periodMs, splitReason } from './model';
import { EmptyState, Money, ReasonText, RobotActions, RobotStatusBadge, toneOf, useFmt, useReasonParts } from './ui';
import './robot.css';

export default function OrderDetailPage() {
  const { t } = useTranslation('robot');
  const { t: tc } = useBacktestTranslation();
  const [search] = useSearchParams();
  const id = Number(search.get('id')) || undefined;
  const detail = useRobotDetail(id);
  const back = <Link className="btn btn-secondary" to={ROBOT_LIST_PATH}>{t('backToList')}</Link>;
  if (!id) return <EmptyState text={t('notFound')} testId="robot-missing" action={back} />;
  if (detail.isPending) return <div className="spinner" aria-label={tc('common.loading')} />;
  if (detail.isError) return <EmptyState text={t('notFound')} testId="robot-missing" action={back} />;
  return <Detail robot={detail.data} now={detail.dataUpdatedAt} />;
}

function Detail({ robot, now }: { robot: RobotDetail; now: number }) {
  const { t } = useTranslation('robot');
  const { t: tc } = useBacktestTranslation();
  const fmt = useFmt();
  const queryClient = useQueryClient();
  const act = async (action: RobotAction) => {
    await robotAction(robot.id, action);
    showToast(t(`done.${action}`), 'success');
    await invalidateRobots(queryClient, robot.id);
  };
  const errorReason = robot.status === 'paused' ? robot.pauseReason : robot.status === 'stopped' || robot.status === 'stopping' ? robot.stopReason : null;
  const errorIsUser = splitReason(errorReason)?.key === 'user';
  return (
    <div className="bt-page" data-testid="robot-detail" data-id={robot.id} data-status={robot.status}>
      <section className="card bt-card">
        <div className="bt-record-head">
          <h2 className="bt-h2">{robot.symbol}</h2>
          <span className="bt-sub">
            {tc(`strategy.${robot.strategy}`, { defaultValue: robot.strategy })} · {robot.interval} · {t(`marketName.${robot.market}`)} · {t(`mode.${robot.mode}`)}
          </span>
          <RobotStatusBadge status={robot.status} />
        </div>
        {robot.status === 'paused' ? <ReasonText reason={robot.pauseReason} testId="robot-pause-reason" /> : null}
        {robot.status === 'stopping' ? <p className="bt-sub" data-testid="robot-stopping">{t('stoppingNote')}</p> : null}
        <dl className="rb-figs">
          <div><dt>{t('income')}</dt><dd className="rb-income"><Money value={robot.income} testId="detail-income" /></dd></div>
          <div><dt>{t('equity')}</dt><dd className="num" data-testid="detail-equity">{fmt.money(robot.live?.equity)}</dd></div>
          <div><dt>{t('floating')}</dt><dd><Money value={robot.live?.floating} /></dd></div>
          <div><dt>{t('lastPrice')}</dt><dd className="num">{fmt.price(robot.live?.price)}</dd></div>
          <div><dt>{t('capital')}</dt><dd className="num">{fmt.money(robot.capital)}</dd></div>
          <div><dt>{t('leverage')}</dt><dd className="num">{fmt.qty(robot.leverage)}×</dd></div>
          <div><dt>{t('account')}</dt><dd>{robot.account.name} · {t(`exchange.${robot.account.exchange}`, { defaultValue: robot.account.exchange })}{robot.account.frozen ? ` (${t('frozen')})` : ''}{robot.account.unbound ? ` (${t('unbound')})` : ''}</dd></div>
          <div><dt>{t('tradingPair')}</dt><dd>{robot.tradingPair ?? robot.symbol}</dd></div>
          <div><dt>{t('created')}</dt><dd className="num">{fmt.dateTime(robot.createdAt)}</dd></div>
          <div><dt>{t('runTime')}</dt><dd className="num">{fmt.duration(periodMs(robot.createdAt, robot.stoppedAt, now))}</dd></div>
          <div><dt>{t('lastCandle')}</dt><dd className="num">{fmt.dateTime(robot.lastCandleAt)}</dd></div>
          <div><dt>{t('heartbeat')}</dt><dd className="num">{fmt.dateTime(robot.heartbeatAt)}</dd></div>
        </dl>
        <div className="rb-actions">
          <RobotActions robot={robot} onAct={act} />
          {robot.sourceBacktestId ? <Link className="btn btn-ghost" to={`/pages/backtest/resultDateil/resultDetail?id=${robot.sourceBacktestId}`} data-testid="robot-source-backtest">{t('sourceBacktest')}</Link> : null}
        </div>
      </section>

      {robot.error && !errorIsUser ? (
        <section className="card bt-card rb-error" data-testid="robot-error" role="status">
          <h2 className="bt-h2">{t('errorTitle')}</h2>
          <EventText event={robot.error} />
          <p className="bt-sub">{fmt.dateTime(robot.error.createdAt)}</p>
          {robot.status === 'paused' ? <p className="bt-sub">{t('errorHelp')}</p> : null}
        </section>
      ) : null}

      {robot.stop ? (
        <section className="card bt-card" data-testid="robot-stop-details">
          <h2 className="bt-h2">{t('stopDetails')}</h2>
          <ReasonText reason={robot.stop.reason} testId="robot-stop-reason" />
          <dl className="rb-figs">
            <div><dt>{t('stoppedAt')}</dt><dd className="num">{fmt.dateTime(robot.stop.stoppedAt)}</dd></div>
            <div><dt>{t('finalIncome')}</dt><dd className="rb-income"><Money value={robot.stop.income} testId="robot-final-income" /></dd></div>
          </dl>
        </section>
      ) : null}

      <div className="bt-detail-grid">
        <DriftPanel robotId={robot.id} lastCandleAt={robot.lastCandleAt ?? null} />
        <Positions robot={robot} />
        <Events events={robot.events} />
        <Orders robot={robot} />
        <Fills robot={robot} />
        <Params params={robot.params} />
      </div>
    </div>
  );
}

function Positions({ robot }: { robot: RobotDetail }) {
  const { t } = useTranslation('robot');
  const fmt = useFmt();
  const isDesktop = useIsDesktop();
  return (
    <section className="card bt-card" aria-labelledby="pos-title" data-testid="robot-positions">
      <h2 id="pos-title" className="bt-h2">{t('positions')}</h2>
      {!robot.positions.length ? (
        <p className="bt-sub" data-testid="no-positions">{t('noPositions')}</p>
      ) : !isDesktop ? (
        <ul className="rb-mini-list num">
          {robot.positions.map((p, i) => (
            <li key={i} data-testid="position-row">
              <div className="rb-mini-head">
                <span className={`rb-side-${p.side}`}>{p.side === 'long' ? '▲' : '▼'} {t(`side.${p.side}`)} {fmt.qty(p.qty)}</span>
                <Money value={p.floating} />
              </div>
              <div className="bt-sub">{t('lastPrice')} {fmt.price(p.price)}</div>
            </li>
          ))}
        </ul>
      ) : (
        <div className="bt-table-wrap">
          <table className="bt-table num">
            <thead><tr><th scope="col">{t('sideTitle')}</th><th scope="col" className="r">{t('qty')}</th><th scope="col" className="r">{t('lastPrice')}</th><th scope="col" className="r">{t('floating')}</th></tr></thead>
            <tbody>
              {robot.positions.map((p, i) => (
                <tr key={i} data-testid="position-row">
                  <td className={`rb-side-${p.side}`}>{p.side === 'long' ? '▲' : '▼'} {t(`side.${p.side}`)}</td>
                  <td className="r">{fmt.qty(p.qty)}</td>
                  <td className="r">{fmt.price(p.price)}</td>
                  <td className="r"><Money value={p.floating} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

const STATE_TONE: Record<string, string> = { filled: 'rb-status-running', open: 'rb-status-warn', sending: 'rb-status-warn', queued: 'rb-status-muted', unknown: 'rb-status-warn', canceled: 'rb-status-muted', rejected: 'bt-status-bad' };

function Orders({ robot }: { robot: RobotDetail }) {
  const { t } = useTranslation('robot');
  const fmt = useFmt();
  const isDesktop = useIsDesktop();
  return (
    <section className="card bt-card bt-wide" aria-labelledby="orders-title" data-testid="robot-orders">
      <h2 id="orders-title" className="bt-h2">{t('orders')} <span className="bt-sub num">({robot.orders.length})</span></h2>
      {!robot.orders.length ? (
        <p className="bt-sub" data-testid="no-orders">{t('noOrders')}</p>
      ) : !isDesktop ? (
        <ul className="rb-mini-list num">
          {robot.orders.map((o) => (
            <li key={o.id} data-testid="order-row" data-state={o.state}>
              <div className="rb-mini-head">
                <span className={`rb-side-${o.positionSide === 'short' ? 'short' : 'long'}`}>{t(`action.${o.action === 'close' ? 'close' : 'open'}`)} {t(`side.${o.positionSide === 'short' ? 'short' : 'long'}`)}</span>
                <span className={`bt-status ${STATE_TONE[o.state] ?? 'rb-status-muted'}`}>{t(`orderState.${o.state}`, { defaultValue: o.state })}</span>
              </div>
              <div className="bt-sub">
                {o.type ? t(`orderTypes.${o.type}`, { defaultValue: o.type }) : '--'}{o.reduceOnly ? ` · ${t('reduceOnly')}` : ''} · {fmt.qty(o.amount)} @ {o.price === null ? t('marketPrice') : fmt.price(o.price)} · {t('filled')} {fmt.qty(o.filled)}{o.average ? ` @ ${fmt.price(o.average)}` : ''}
              </div>
              <div className="bt-sub">{fmt.dateTime(o.createdAt)} · {o.clientOrderId}</div>
              {o.error ? <div className="rb-reason" data-testid="order-error">{o.error}</div> : null}
            </li>
          ))}
        </ul>
      ) : (
        <div className="bt-table-wrap">
          <table className="bt-table num">
            <thead>
              <tr>
                <th scope="col">{t('time')}</th>
                <th scope="col">{t('orderAction')}</th>
                <th scope="col">{t('orderType')}</th>
                <th scope="col" className="r">{t('qty')}</th>
                <th scope="col" className="r">{t('price')}</th>
                <th scope="col">{t('state')}</th>
                <th scope="col" className="r">{t('filled')}</th>
                <th scope="col">{t('clientOrderId')}</th>
              </tr>
            </thead>
            <tbody>
              {robot.orders.map((o) => (
                <tr key={o.id} data-testid="order-row" data-state={o.state}>
                  <td>{fmt.dateTime(o.createdAt)}</td>
                  <td className={`rb-side-${o.positionSide === 'short' ? 'short' : 'long'}`}>{t(`action.${o.action === 'close' ? 'close' : 'open'}`)} {t(`side.${o.positionSide === 'short' ? 'short' : 'long'}`)}</td>
                  <td>{o.type ? t(`orderTypes.${o.type}`, { defaultValue: o.type }) : '--'}{o.reduceOnly ? ` · ${t('reduceOnly')}` : ''}</td>
                  <td className="r">{fmt.qty(o.amount)}</td>
                  <td className="r">{o.price === null ? t('marketPrice') : fmt.price(o.price)}</td>
                  <td>
                    <span className={`bt-status ${STATE_TONE[o.state] ?? 'rb-status-muted'}`}>{t(`orderState.${o.state}`, { defaultValue: o.state })}</span>
                    {o.error ? <div className="rb-reason" data-testid="order-error">{o.error}</div> : null}
                  </td>
                  <td className="r">{fmt.qty(o.filled)}{o.average ? ` @ ${fmt.price(o.average)}` : ''}</td>
                  <td className="bt-sub">{o.clientOrderId}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Fills({ robot }: { robot: RobotDetail }) {
  const { t } = useTranslation('robot');
  const { t: tc } = useBacktestTranslation();
  const reasonOf = (r: string | null) => (r ? tc(`exitReason.${r}`, { defaultValue: r }) : '--');
  const fmt = useFmt();
  const isDesktop = useIsDesktop();
  const [page, setPage] = useState(1);
  const fills = useRobotFills(robot.id, page, robot.status !== 'stopped');
  const data = fills.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <section className="card bt-card bt-wide" aria-labelledby="fills-title" data-testid="robot-fills">
      <h2 id="fills-title" className="bt-h2">{t('fills')} {data ? <span className="bt-sub num">({fmt.qty(data.total)})</span> : null}</h2>
      {!data ? (
        fills.isError ? <p className="bt-sub">{t('loadFailed')}</p> : <div className="spinner" />
      ) : !data.list.length ? (
        <p className="bt-sub" data-testid="no-fills">{t('noFills')}</p>
      ) : (
        <>
          {!isDesktop ? (
            <ul className="rb-mini-list num">
              {data.list.map((f) => (
                <li key={f.id} data-testid="fill-row">
                  <div className="rb-mini-head">
                    <span className={`rb-side-${f.positionSide === 'short' ? 'short' : 'long'}`}>{t(`action.${f.action === 'close' ? 'close' : 'open'}`)} {t(`side.${f.positionSide === 'short' ? 'short' : 'long'}`)}</span>
                    <b className={`tone-${toneOf(f.pnl)}`}>{fmt.signed(f.pnl)}</b>
                  </div>
                  <div className="bt-sub">{fmt.qty(f.qty)} @ {fmt.price(f.price)} · {t('fee')} {fmt.money(f.fee)}{f.reason ? ` · ${reasonOf(f.reason)}` : ''}</div>
                  <div className="bt-sub">{fmt.dateTime(f.filledAt)}</div>
                </li>
              ))}
            </ul>
          ) : (
            <div className="bt-table-wrap">
              <table className="bt-table num">
                <thead>
                  <tr>
                    <th scope="col">{t('time')}</th>
                    <th scope="col">{t('orderAction')}</th>
                    <th scope="col" className="r">{t('qty')}</th>
                    <th scope="col" className="r">{t('price')}</th>
                    <th scope="col" className="r">{t('fee')}</th>
                    <th scope="col" className="r">{t('pnl')}</th>
                    <th scope="col">{t('fillReason')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.list.map((f) => (
                    <tr key={f.id} data-testid="fill-row">
                      <td>{fmt.dateTime(f.filledAt)}</td>
                      <td className={`rb-side-${f.positionSide === 'short' ? 'short' : 'long'}`}>{t(`action.${f.action === 'close' ? 'close' : 'open'}`)} {t(`side.${f.positionSide === 'short' ? 'short' : 'long'}`)}</td>
                      <td className="r">{fmt.qty(f.qty)}</td>
                      <td className="r">{fmt.price(f.price)}</td>
                      <td className="r">{fmt.money(f.fee)}</td>
                      <td className={`r tone-${toneOf(f.pnl)}`}>{fmt.signed(f.pnl)}</td>
                      <td>{reasonOf(f.reason)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {pages > 1 ? (
            <div className="bt-pager">
              <Button variant="secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)} data-testid="fills-prev">{t('prev')}</Button>
              <span className="num">{t('pageOf', { page, pages })}</span>
              <Button variant="secondary" disabled={page >= pages} onClick={() => setPage((p) => p + 1)} data-testid="fills-next">{t('next')}</Button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

const ERROR_KINDS = new Set(['error', 'rejected', 'failed']);
const WARN_KINDS = new Set(['paused', 'stopping', 'stopped', 'reconciled', 'unknown']);

/** The parts of an event's detail worth showing: the venue's message and code, a stop reason, who acted, other facts. */
function detailParts(detail: unknown): { message?: string; code?: string; reason?: string; byUser?: boolean; facts: [string, unknown][] } {
  if (detail === null || detail === undefined) return { facts: [] };
  if (typeof detail === 'string') return { message: detail, facts: [] };
  if (typeof detail !== 'object') return { facts: [] };
  // Ids and clocks the timeline already shows (or that only the runner needs) stay hidden.
  const { message, venueCode, reason, by, clientOrderId: _id, at: _at, mode: _mode, fromMs: _from, ...rest } = detail as Record<string, unknown>;
  const out: ReturnType<typeof detailParts> = { facts: [] };
  if (typeof message === 'string' && message) out.message = message;
  if (typeof venueCode === 'string' || typeof venueCode === 'number') out.code = String(venueCode);
  if (typeof reason === 'string' && reason) out.reason = reason;
  if (by === 'user') out.byUser = true;
  else if (typeof by === 'string' && by) rest.by = by;
  out.facts = Object.entries(rest).filter(([k, v]) => v !== null && v !== undefined && v !== '' && factKey(k, v) !== null);
  return out;
}

/** A value of an unknown fact as text: nested facts as "name value" pairs, never JSON. */
function plain(value: unknown): string {
  if (value !== null && typeof value === 'object') return Object.entries(value).map(([k, v]) => `${k} ${plain(v)}`).join(', ');
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

/** One fact of an event's detail in words (`sourceBacktestId` → "From backtest #12"), never raw JSON. */
function Fact({ name, value }: { name: string; value: unknown }) {
  const { t } = useTranslation('robot');
  const fmt = useFmt();
  const n = typeof value === 'number' ? value : Number(value);
  switch (name) {
    case 'sourceBacktestId':
      return (
        <Link to={`/pages/backtest/resultDateil/resultDetail?id=${n}`} data-testid="event-source-backtest">
          {t('fact.sourceBacktest', { id: n })}
        </Link>
      );
    case 'silentSeconds':
    case 'retryAfter':
      return <span>{t(`fact.${name}`, { duration: fmt.duration(n * 1000) })}</span>;
    case 'by':
      return <span>{t(`fact.by.${String(value)}`, { defaultValue: String(value) })}</span>;
    case 'queried':
    case 'resent':
    case 'orphansCanceled':
    case 'venuePosition':
    case 'ledgerPosition':
      return <span>{t(factKey(name, n) ?? `fact.${name}`, { n: fmt.qty(n) })}</span>;
    default:
      return (
        <span>
          {t(`fact.${name}`, { defaultValue: name })}: {plain(value)}
        </span>
      );
  }
}

/** An event's message key (`robot.error.insufficientFunds`, `robot.paused` …) or plain text, in the user's language. */
function useEventMessage() {
  const { t } = useTranslation('robot');
  const partsOf = useReasonParts();
  const reasonText = (reason: string | null | undefined) => {
    const r = partsOf(reason);
    if (!r) return null;
    return r.label ? `${r.label}${r.detail ? `: ${r.detail}` : ''}` : r.detail;
  };
  const message = (text: string | null) => {
    if (!text) return null;
    const error = /^robot\.error\.(\w+)$/.exec(text);
    if (error) return t(`reason.${error[1]}`, { defaultValue: error[1] });
    if (/^robot\.[\w.]+$/.test(text)) return null; // the event's title already says it
    return reasonText(text);
  };
  return { message, reasonText };
}

function EventText({ event }: { event: RobotEvent }) {
  const { t } = useTranslation('robot');
  const { message, reasonText } = useEventMessage();
  const text = message(event.message);
  const d = detailParts(event.detail);
  return (
    <div className="rb-event-text">
      <strong>{t(`event.${event.kind}`, { defaultValue: event.kind })}{d.byUser ? ` · ${t('byUser')}` : ''}</strong>
      {text ? <span data-testid="event-message">{text}</span> : null}
      {d.reason ? <span>{reasonText(d.reason)}</span> : null}
      {d.message ? <p className="rb-event-detail" data-testid="event-venue-message">{t('venueSays', { message: d.message })}{d.code ? ` (${d.code})` : ''}</p> : null}
      {d.facts.length ? (
        <p className="rb-event-detail rb-event-facts" data-testid="event-facts">
          {d.facts.map(([name, value]) => (
            <Fact key={name} name={name} value={value} />
          ))}
        </p>
      ) : null}
    </div>
  );
}

function Events({ events }: { events: RobotEvent[] }) {
  const { t } = useTranslation('robot');
  const fmt = useFmt();
  return (
    <section className="card bt-card" aria-labelledby="events-title" data-testid="robot-events">
      <h2 id="events-title" className="bt-h2">{t('events')}</h2>
      {!events.length ? (
        <p className="bt-sub">{t('noEvents')}</p>
      ) : (
        <ol className="rb-timeline">
          {events.map((e) => (
            <li key={e.id} data-testid="event-row" data-kind={e.kind}>
              <span className={`rb-dot${ERROR_KINDS.has(e.kind) ? ' rb-dot-error' : WARN_KINDS.has(e.kind) ? ' rb-dot-warn' : ''}`} aria-hidden="true" />
              <div>
                <EventText event={e} />
                <span className="bt-sub num">{fmt.dateTime(e.createdAt)}</span>
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Params({ params }: { params: Record<string, unknown> }) {
  const { t } = useTranslation('robot');
  const { t: tc } = useBacktestTranslation();
  const entries = inParamOrder(Object.entries(params).filter(([k, v]) => k !== 'market' && v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0)));
  const show = (k: string, v: unknown) => {
    if (typeof v === 'boolean') return v ? '✓' : '✗';
    if ((k === 'side' || k === 'unit') && typeof v === 'string') return tc(`option.${v}`, { defaultValue: v });
    if ((k === 'makerFee' || k === 'takerFee') && typeof v === 'number') return `${Number((v * 100).toPrecision(10))}%`;
    if (Array.isArray(v)) return v.map((x: unknown) => (typeof x === 'number' || typeof x === 'string' ? String(x) : '--')).join(' / ');
    if (typeof v === 'number' || typeof v === 'string') return String(v);
    return JSON.stringify(v);
  };
  return (
    <section className="card bt-card bt-wide" aria-labelledby="params-title" data-testid="robot-params">
      <h2 id="params-title" className="bt-h2">{t('parameters')}</h2>
      <dl className="bt-facts num">
        {entries.map(([k, v]) => (
          <div key={k}>
            <dt>{tc(`field.${k}`, { defaultValue: k })}</dt>
            <dd>{show(k, v)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
