// "Live vs backtest" on the robot page (issue 33): the robot's trades held against a backtest of the
// same strategy over the same candles — each side's return, the gap and its parts, both equity
// curves with their trades, the pairs and the trades one side has and the other not, with the
// likeliest cause; the pairs as CSV. Asked again when the robot has stepped a new candle.
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useBacktestTranslation } from '../../i18n';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DriftPair, DriftTrade, DriftUnpaired, RobotDrift } from '@lq/contracts';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { downloadFile } from '../../lib/download';
import { api } from '../../lib/session';
import { showToast } from '../../lib/toast';
import { Money, useFmt } from './ui';

const DriftChart = lazy(() => import('./DriftChart'));
/** At most one report a minute, however often the robot page polls. */
const MIN_REFRESH_MS = 60_000;
const ROWS_SHOWN = 50;

/** `lastCandleAt`: the robot's last candle — a new one asks for the report again (the robot page polls it). */
export function DriftPanel({ robotId, lastCandleAt }: { robotId: number; lastCandleAt: number | null }) {
  const { t } = useTranslation('robot');
  const { t: tc } = useBacktestTranslation();
  const fmt = useFmt();
  const [busy, setBusy] = useState(false);
  const q = useQuery({
    queryKey: ['robot', 'drift', robotId, lastCandleAt],
    queryFn: () => api.get<RobotDrift>(`order/api/robot/drift/${robotId}`, { silent: true }),
    placeholderData: keepPreviousData,
    staleTime: MIN_REFRESH_MS,
  });
  const d = q.data;
  const csv = async () => {
    setBusy(true);
    try {
      await downloadFile(`order/api/robot/drift/${robotId}/pairs.csv`, `robot-${robotId}-drift.csv`);
    } catch (e) {
      showToast((e as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card bt-card bt-wide" aria-labelledby="drift-title" data-testid="robot-drift">
      <div className="bt-record-head">
        <h2 className="bt-h2" id="drift-title">{t('drift.title')}</h2>
        {d ? <span className="bt-sub">{t('drift.upTo', { at: fmt.dateTime(d.cursor) })}</span> : null}
      </div>
      <p className="bt-sub">{t('drift.hint')}</p>
      {q.isPending ? (
        <div className="spinner" aria-label={tc('common.loading')} />
      ) : q.isError || !d ? (
        <p className="bt-sub" data-testid="drift-error">{t('drift.failed')}</p>
      ) : d.cursor === null ? (
        <p className="bt-sub" data-testid="drift-empty">{t('drift.none')}</p>
      ) : (
        <>
          <dl className="rb-figs" data-testid="drift-figures">
            <div><dt>{t('drift.liveReturn')}</dt><dd className="num" data-testid="drift-live-return">{fmt.percent(d.live.returnPct / 100)}</dd></div>
            <div><dt>{t('drift.backtestReturn')}</dt><dd className="num" data-testid="drift-shadow-return">{fmt.percent(d.shadow.returnPct / 100)}</dd></div>
            <div><dt>{t('drift.gap')}</dt><dd className="rb-income" data-testid="drift-gap" data-gap={d.gap.total}><Money value={d.gap.total} /> ({fmt.percent(d.gap.pct / 100)})</dd></div>
            <div><dt>{t('drift.trades')}</dt><dd className="num">{d.live.trades} / {d.shadow.trades}</dd></div>
          </dl>
          <dl className="rb-figs rb-drift-parts" data-testid="drift-parts">
            {(['slippage', 'fees', 'funding', 'missed', 'extra', 'timing'] as const).map((k) => (
              <div key={k}><dt>{t(`drift.part.${k}`)}</dt><dd><Money value={d.gap[k]} testId={`drift-part-${k}`} /></dd></div>
            ))}
          </dl>
          <Suspense fallback={<div className="rb-drift-chart" />}>
            <DriftChart live={d.curves.live} shadow={d.curves.shadow} liveLabel={t('drift.robot')} shadowLabel={t('drift.backtest')} locale={fmt.locale.replace('_', '-')} />
          </Suspense>
          <p className="bt-sub rb-legend"><span className="rb-key rb-key-live" /> {t('drift.robot')} <span className="rb-key rb-key-shadow" /> {t('drift.backtest')}</p>
          <Unpaired items={d.unpaired} />
          <Pairs pairs={d.pairs} />
          <Button variant="secondary" busy={busy} onClick={() => void csv()} data-testid="drift-csv">{t('drift.csv')}</Button>
          <AlertForm key={`${d.alert.gapPct}-${d.alert.onMissed}`} robotId={robotId} alert={d.alert} />
        </>
      )}
    </section>
  );
}

function TradeText({ trade }: { trade: DriftTrade }) {
  const { t } = useTranslation('robot');
  const fmt = useFmt();
  return (
    <span>
      {t(`drift.action.${trade.action}`)} {t(`drift.side.${trade.side}`)} {fmt.qty(trade.qty)} @ {fmt.price(trade.price)} · {fmt.dateTime(trade.time)}
    </span>
  );
}

function Unpaired({ items }: { items: DriftUnpaired[] }) {
  const { t } = useTranslation('robot');
  if (items.length === 0) return <p className="bt-sub" data-testid="drift-all-paired">{t('drift.allPaired')}</p>;
  return (
    <>
      <h3 className="rb-h3">{t('drift.unpaired')}</h3>
      <ul className="rb-drift-list" data-testid="drift-unpaired">
        {items.slice(-ROWS_SHOWN).reverse().map((u) => (
          <li key={`${u.on}-${u.trade.clientOrderId}`} data-testid="drift-unpaired-item" data-on={u.on} data-cause={u.cause}>
            <strong>{t(u.on === 'shadow' ? 'drift.missed' : 'drift.extra')}</strong> <TradeText trade={u.trade} />
            <span className="bt-sub"> — {t(`drift.cause.${u.cause}`)}{u.detail ? `: ${u.detail}` : ''}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

function Pairs({ pairs }: { pairs: DriftPair[] }) {
  const { t } = useTranslation('robot');
  const fmt = useFmt();
  if (pairs.length === 0) return null;
  // Only a live robot on perpetuals pays funding: no column of zeros for the others.
  const funding = pairs.some((p) => p.funding !== 0);
  return (
    <>
      <h3 className="rb-h3">{t('drift.pairs', { n: pairs.length })}</h3>
      <div className="bt-table-wrap">
        <table className="bt-table num" data-testid="drift-pairs">
          <thead>
            <tr>
              <th>{t('drift.col.trade')}</th>
              <th>{t('drift.col.backtest')}</th>
              <th>{t('drift.col.robot')}</th>
              <th>{t('drift.col.offset')}</th>
              <th>{t('drift.col.slippage')}</th>
              <th>{t('drift.col.fee')}</th>
              {funding && <th>{t('drift.col.funding')}</th>}
            </tr>
          </thead>
          <tbody>
            {pairs.slice(-ROWS_SHOWN).reverse().map((p) => (
              <tr key={`${p.shadow.clientOrderId}-${p.live.clientOrderId}`} data-testid="drift-pair" data-by={p.by}>
                <td>{t(`drift.action.${p.live.action}`)} {t(`drift.side.${p.live.side}`)}</td>
                <td className="num">{fmt.price(p.shadow.price)} × {fmt.qty(p.shadow.qty)}<br /><span className="bt-sub">{fmt.dateTime(p.shadow.time)}</span></td>
                <td className="num">{fmt.price(p.live.price)} × {fmt.qty(p.live.qty)}<br /><span className="bt-sub">{fmt.dateTime(p.live.time)}</span></td>
                <td className="num">{fmt.duration(Math.abs(p.offsetMs))}{p.moveMoney !== 0 && <> · <Money value={-p.moveMoney} /></>}</td>
                <td className="num">{fmt.qty(Math.round(p.slippagePoints * 10) / 10)} · <Money value={-p.slippageMoney} /></td>
                <td><Money value={-p.feeDiff} /></td>
                {funding && <td data-testid="drift-pair-funding"><Money value={p.funding} /></td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** When the owner is told: the gap past a percent of capital (once per crossing), and at each missed trade. */
function AlertForm({ robotId, alert }: { robotId: number; alert: RobotDrift['alert'] }) {
  const { t } = useTranslation('robot');
  const queryClient = useQueryClient();
  const [pct, setPct] = useState(String(alert.gapPct));
  const [onMissed, setOnMissed] = useState(alert.onMissed);
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const gapPct = Number(pct);
    if (!/^\d{1,3}(\.\d{1,2})?$/.test(pct.trim()) || gapPct < 0.1 || gapPct > 100) {
      setError(t('drift.alertRange'));
      return;
    }
    setError(undefined);
    setSaving(true);
    try {
      await api.post('order/api/robot/drift/alert', { id: robotId, gapPct, onMissed });
      showToast(t('drift.alertSaved'), 'success');
      await queryClient.invalidateQueries({ queryKey: ['robot', 'drift', robotId] });
    } catch {
      // the toast said why
    } finally {
      setSaving(false);
    }
  };
  return (
    <form className="rb-drift-alert" onSubmit={(e) => void save(e)} noValidate data-testid="drift-alert-form">
      <h3 className="rb-h3">{t('drift.alertTitle')}</h3>
      <TextField label={t('drift.alertPct')} inputMode="decimal" maxLength={6} value={pct} onChange={(e) => setPct(e.target.value)} error={error} data-testid="drift-alert-pct" />
      <label className="rb-check">
        <input type="checkbox" checked={onMissed} onChange={(e) => setOnMissed(e.target.checked)} data-testid="drift-alert-missed" />
        <span>{t('drift.alertMissed')}</span>
      </label>
      <Button type="submit" variant="secondary" busy={saving} data-testid="drift-alert-save">{t('drift.alertSave')}</Button>
    </form>
  );
}
