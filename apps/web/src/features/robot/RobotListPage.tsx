// pages/robot/robotOrderList/robotOrderList (tab 2, `tab="active"`) and
// pages/robot/robotHistory/robotHistory (`tab="history"`): the robots of the current market.
// Active robots are polled every few seconds (live status, income, equity, position); each offers
// pause / continue / stop (stop confirms: it closes positions) and its detail.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBacktestTranslation } from '../../i18n';
import { Link } from '../../lib/router';
import { useQueryClient } from '@tanstack/react-query';
import type { RobotItem, RobotTab } from '@lq/contracts';
import { Button } from '../../components/Button';
import { useAppStore } from '../../lib/store';
import { showToast } from '../../lib/toast';
import { useIsDesktop } from '../../lib/useMedia';
import { invalidateRobots, robotAction, robotDetailPath, ROBOT_HISTORY_PATH, ROBOT_LIST_PATH, useRobotList, useSeats, type RobotAction } from './api';
import { periodMs, positionSide } from './model';
import { StrategySheet } from './StrategySheet';
import { EmptyState, Money, ReasonText, RobotActions, RobotStatusBadge, useFmt } from './ui';
import './robot.css';
import { useLoadMore } from '../../lib/useLoadMore';


export default function RobotListPage({ tab }: { tab: RobotTab }) {
  const { t } = useTranslation('robot');
  const { t: tc } = useBacktestTranslation();
  const current = useAppStore((s) => s.currentDataSource);
  const dataSource = current.type;
  const list = useRobotList(dataSource, tab);
  const holders = (list.data?.pages.flatMap((p) => p.list) ?? []).map((r) => `${r.id}:${r.status}`).join(',');
  const seats = useSeats(dataSource, tab === 'active', holders);
  const isDesktop = useIsDesktop();
  const queryClient = useQueryClient();
  const [choosing, setChoosing] = useState(false);

  const sentinel = useLoadMore(list);

  const items = list.data?.pages.flatMap((p) => p.list) ?? [];
  const act = async (robot: RobotItem, action: RobotAction) => {
    await robotAction(robot.id, action);
    showToast(t(`done.${action}`), 'success');
    await invalidateRobots(queryClient, robot.id);
  };

  return (
    <div className="bt-page" data-testid={tab === 'active' ? 'robot-list' : 'robot-history'} data-market={current.type === 'mt5' ? 'forex' : 'crypto'}>
      <div className="bt-tabs" role="tablist" aria-label={tc('page.robotOrderList')}>
        <Link role="tab" aria-selected={tab === 'active'} className="bt-tab rb-tab-link" to={ROBOT_LIST_PATH} replace data-testid="robot-tab-active">{t('tab.active')}</Link>
        <Link role="tab" aria-selected={tab === 'history'} className="bt-tab rb-tab-link" to={ROBOT_HISTORY_PATH} replace data-testid="robot-tab-history">{t('tab.history')}</Link>
      </div>
      <div className="rb-head">
        {tab === 'active' && seats.data ? (
          <span className="rb-seats num" data-testid="robot-seats" data-free={seats.data.free}>
            {t('seats', { used: seats.data.used, total: seats.data.total })}
          </span>
        ) : <span />}
        <div className="bt-toolbar">
          <Link className="btn btn-secondary" to="/pages/tools/positionCalc" data-testid="open-position-calc">{t('positionCalc')}</Link>
          <Link className="btn btn-secondary" to="/pages/tools/riskCalc" data-testid="open-risk-calc">{t('riskCalc')}</Link>
          <Link className="btn btn-secondary" to="/pages/market/market" data-testid="open-market">{t('market')}</Link>
          {tab === 'active' ? <Button onClick={() => setChoosing(true)} data-testid="robot-create">{t('createRobot')}</Button> : null}
        </div>
      </div>
      <div role="tabpanel" data-testid="robot-panel" data-tab={tab}>
        {list.isPending ? (
          <div className="spinner" aria-label={tc('common.loading')} />
        ) : list.isError ? (
          <EmptyState testId="robot-load-failed" text={tc('common.loadFailed')} action={<Button onClick={() => void list.refetch()}>{tc('common.retry')}</Button>} />
        ) : !items.length ? (
          tab === 'active' ? (
            <EmptyState
              testId="robot-empty"
              text={t('empty.active')}
              action={
                <div className="bt-actions">
                  <Button onClick={() => setChoosing(true)} data-testid="robot-empty-create">{t('createRobot')}</Button>
                  <Link className="btn btn-secondary" to="/pages/backtest/backtestRecord?tab=completed" data-testid="robot-empty-backtests">{t('fromBacktest')}</Link>
                  <Link className="btn btn-secondary" to="/pages/apikey/apiList" data-testid="robot-empty-accounts">{t('bindAccount')}</Link>
                </div>
              }
            />
          ) : (
            <EmptyState testId="robot-empty" text={t('empty.history')} />
          )
        ) : isDesktop ? (
          <RobotTable items={items} tab={tab} onAct={act} />
        ) : (
          <ul className="bt-cards">
            {items.map((item) => (
              <RobotCard key={item.id} item={item} tab={tab} onAct={(a) => act(item, a)} />
            ))}
          </ul>
        )}
        {items.length ? (
          <div className="bt-more" ref={sentinel}>
            {list.hasNextPage ? (
              <Button variant="secondary" busy={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()} data-testid="robot-more">{t('loadMore')}</Button>
            ) : (
              <span className="bt-sub">{t('noMore')}</span>
            )}
          </div>
        ) : null}
      </div>
      {choosing ? <StrategySheet dataSource={dataSource} onClose={() => setChoosing(false)} /> : null}
    </div>
  );
}

function useNames() {
  const { t: tc } = useBacktestTranslation();
  const { t } = useTranslation('robot');
  return {
    strategy: (s: string) => tc(`strategy.${s}`, { defaultValue: s }),
    account: (item: RobotItem) => `${item.account.name} · ${t(`exchange.${item.account.exchange}`, { defaultValue: item.account.exchange })}${item.account.unbound ? ` (${t('unbound')})` : ''}`,
  };
}

function LiveFigures({ item }: { item: RobotItem }) {
  const { t } = useTranslation('robot');
  const fmt = useFmt();
  const side = positionSide(item.live?.position);
  return (
    <>
      <div><dt>{t('equity')}</dt><dd className="num" data-testid="robot-equity">{fmt.money(item.live?.equity)}</dd></div>
      <div>
        <dt>{t('position')}</dt>
        <dd className="num" data-testid="robot-position">
          {side === null ? '--' : side === 'flat' ? t('flat') : <span className={`rb-side-${side}`}>{side === 'long' ? '▲' : '▼'} {t(`side.${side}`)} {fmt.qty(Math.abs(item.live?.position ?? 0))}</span>}
        </dd>
      </div>
      <div><dt>{t('floating')}</dt><dd><Money value={item.live?.floating} testId="robot-floating" /></dd></div>
    </>
  );
}

function RobotCard({ item, tab, onAct }: { item: RobotItem; tab: RobotTab; onAct: (a: RobotAction) => Promise<void> }) {
  const { t } = useTranslation('robot');
  const fmt = useFmt();
  const names = useNames();
  return (
    <li className="card bt-record" data-testid="robot-row" data-id={item.id} data-status={item.status}>
      <Link to={robotDetailPath(item.id)} className="rb-card-main" data-testid="robot-open">
        <div className="bt-record-head">
          <strong>{item.symbol}</strong>
          <span className="bt-sub">{names.strategy(item.strategy)} · {item.interval}{item.mode === 'paper' ? ` · ${t('mode.paper')}` : ''}</span>
          <RobotStatusBadge status={item.status} />
        </div>
        <span className="bt-sub">{names.account(item)}</span>
        <dl className="rb-figs">
          <div><dt>{t('income')}</dt><dd className="rb-income"><Money value={item.income} testId="robot-income" /></dd></div>
          <div><dt>{t('capital')}</dt><dd className="num">{fmt.money(item.capital)} · {fmt.qty(item.leverage)}×</dd></div>
          {tab === 'active' ? <LiveFigures item={item} /> : (
            <div><dt>{t('period')}</dt><dd className="num">{fmt.dateTime(item.createdAt)} – {fmt.dateTime(item.stoppedAt)} ({fmt.duration(periodMs(item.createdAt, item.stoppedAt, 0))})</dd></div>
          )}
        </dl>
      </Link>
      {item.status === 'paused' ? <ReasonText reason={item.pauseReason} testId="robot-pause-reason" /> : null}
      {tab === 'history' || item.status === 'stopping' ? <ReasonText reason={item.stopReason} testId="robot-stop-reason" /> : null}
      <div className="rb-actions">
        <RobotActions robot={item} onAct={onAct} />
        <Link className="btn btn-ghost" to={robotDetailPath(item.id)} data-testid="robot-view">{t('action.view')}</Link>
      </div>
    </li>
  );
}

function RobotTable({ items, tab, onAct }: { items: RobotItem[]; tab: RobotTab; onAct: (item: RobotItem, a: RobotAction) => Promise<void> }) {
  const { t } = useTranslation('robot');
  const fmt = useFmt();
  const names = useNames();
  return (
    <div className="bt-table-wrap">
      <table className="bt-table num">
        <thead>
          <tr>
            <th scope="col">{t('symbol')}</th>
            <th scope="col">{t('strategy')}</th>
            <th scope="col">{t('account')}</th>
            <th scope="col">{t('statusTitle')}</th>
            <th scope="col" className="r">{t('capital')}</th>
            <th scope="col" className="r">{t('income')}</th>
            {tab === 'active' ? (
              <>
                <th scope="col" className="r">{t('equity')}</th>
                <th scope="col" className="r">{t('position')}</th>
              </>
            ) : (
              <th scope="col">{t('period')}</th>
            )}
            <th scope="col" />
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            const side = positionSide(item.live?.position);
            return (
              <tr key={item.id} data-testid="robot-row" data-id={item.id} data-status={item.status}>
                <td><Link to={robotDetailPath(item.id)} data-testid="robot-open">{item.symbol}</Link></td>
                <td>{names.strategy(item.strategy)} · {item.interval}{item.mode === 'paper' ? ` · ${t('mode.paper')}` : ''}</td>
                <td>{names.account(item)}</td>
                <td>
                  <RobotStatusBadge status={item.status} />
                  {item.status === 'paused' ? <ReasonText reason={item.pauseReason} testId="robot-pause-reason" /> : null}
                  {tab === 'history' ? <ReasonText reason={item.stopReason} testId="robot-stop-reason" /> : null}
                </td>
                <td className="r">{fmt.money(item.capital)} · {fmt.qty(item.leverage)}×</td>
                <td className="r"><Money value={item.income} testId="robot-income" /></td>
                {tab === 'active' ? (
                  <>
                    <td className="r" data-testid="robot-equity">{fmt.money(item.live?.equity)}</td>
                    <td className="r" data-testid="robot-position">{side === null ? '--' : side === 'flat' ? t('flat') : <span className={`rb-side-${side}`}>{side === 'long' ? '▲' : '▼'} {fmt.qty(Math.abs(item.live?.position ?? 0))}</span>}</td>
                  </>
                ) : (
                  <td>{fmt.dateTime(item.createdAt)} – {fmt.dateTime(item.stoppedAt)}</td>
                )}
                <td className="r">
                  <div className="rb-actions">
                    <RobotActions robot={item} onAct={(a) => onAct(item, a)} />
                    <Link className="btn btn-ghost" to={robotDetailPath(item.id)} data-testid="robot-view">{t('action.view')}</Link>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
