// pg-boss workers of backtests and recommendations, and the recovery of interrupted runs.
// Database access stays on the main thread; the engine runs on a worker thread (thread-pool.ts).
// While a run is in progress its row carries a heartbeat (`summary.heartbeatAt` of a backtest,
// `result.heartbeatAt` of a recommendation, ms) written with the throttled progress.
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { and, backtestResults, backtests, eq, recommendations } from '@lq/db';
import type { JobContext } from '../platform/jobs';
import { venueOf } from '../strategy-setup';
import { loadCandleRange } from '../market';
import type { BacktestOutcome, ProgressStep } from './compute';
import { intervalToMs } from '@lq/engine';
import { TaskCancelled, TaskFailed, transferableCandles } from './thread-pool';
import { backtestService, QUEUES, seriesOfRecommendation, type BacktestService } from './service';
import type { RecommendResult } from '../../../../packages/workers/src/recommend';

/** Attempts of one backtest / recommendation before an interruption marks it failed. */
export const MAX_ATTEMPTS = 2;
/** A running row without a heartbeat for this long belongs to a dead process. */
export const STALE_MS = 60_000;
const PROGRESS_EVERY_MS = 400;
const HEARTBEAT_EVERY_MS = 5_000;
const RECOVERY_EVERY_MS = 30_000;
/** Parallel backtests per worker process (2 cores here); recommendations use every core themselves. */
const BACKTEST_CONCURRENCY = 2;

type Kind = 'backtest' | 'recommend';

/** A running row's `summary` / `result`: the heartbeat and where the run is (phase, candles done). */
const heartbeat = (step?: RunStep | null) => JSON.stringify(step ? { heartbeatAt: Date.now(), step } : { heartbeatAt: Date.now() });

/** The phases a detail page shows: loading the candles, then the worker's (compute.ts). */
type RunStep = ProgressStep | { phase: 'loading'; done: number; total: number };

/** Progress writer: throttled, plus a heartbeat; reports false when the row is no longer running. */
function progressWriter(svc: BacktestService, kind: Kind, id: number, ac: AbortController) {
  let last = 0;
  let pending: number | null = null;
  let current = 1;
  let step: RunStep | null = null;
  let writing = false;
  const write = async (percent: number) => {
    if (svc.closing) return; // released at shutdown: no heartbeat any more
    if (writing) {
      pending = percent;
      return;
    }
    writing = true;
    try {
      const rows =
        kind === 'backtest'
          ? await svc.database.exec(
              `update backtests set progress = greatest(progress, $2), summary = $3::jsonb where id = $1 and status = 1 and deleted_at is null returning id`,
              [id, percent, heartbeat(step)],
            )
          : await svc.database.exec(
              `update recommendations set progress = greatest(progress, $2), result = $3::jsonb where id = $1 and status = 'running' returning id`,
              [id, percent, heartbeat(step)],
            );
      if (rows.length === 0) ac.abort(); // cancelled or deleted meanwhile
    } catch (err) {
      svc.log?.warn({ err, kind, id }, 'progress write failed');
    } finally {
      writing = false;
      last = Date.now();
    }
    if (pending !== null) {
      const p = pending;
      pending = null;
      await write(p);
    }
  };
  const timer = setInterval(() => void write(current), HEARTBEAT_EVERY_MS);
  timer.unref();
  return {
    progress(percent: number, at?: RunStep) {
      current = Math.min(99, Math.max(current, percent));
      if (at) step = at;
      if (Date.now() - last >= PROGRESS_EVERY_MS) void write(current);
    },
    stop() {
      clearInterval(timer);
    },
  };
}

async function failBacktest(svc: BacktestService, id: number, reason: string) {
  await svc.db
    .update(backtests)
    .set({ status: 3, statusReason: reason.slice(0, 500), finishedAt: new Date(), summary: null })
    .where(and(eq(backtests.id, id), eq(backtests.status, 1)));
}

export async function runBacktestJob(svc: BacktestService, id: number, jobId: string): Promise<void> {
  const [row] = await svc.db.select().from(backtests).where(eq(backtests.id, id));
  if (!row || row.status !== 1 || row.deletedAt || row.jobId !== jobId) return;
  const started = await svc.database.exec(
    `update backtests set started_at = now(), attempts = attempts + 1, progress = greatest(progress, 1), summary = $2::jsonb
      where id = $1 and status = 1 and job_id = $3 returning id`,
    [id, heartbeat(), jobId],
  );
  if (started.length === 0) return;
  const key = `backtest:${id}`;
  const ac = new AbortController();
  svc.running.set(key, ac);
  const writer = progressWriter(svc, 'backtest', id, ac);
  try {
    const expected = Math.max(0, Math.ceil((row.toAt.getTime() - row.fromAt.getTime()) / intervalToMs(row.interval)));
    writer.progress(1, { phase: 'loading', done: 0, total: expected });
    const candles = await loadCandleRange(svc.database, {
      source: row.candleSource,
      symbol: row.symbol,
      timeframe: row.interval,
      fromMs: row.fromAt.getTime(),
      toMs: row.toAt.getTime(),
    });
    if (candles.length === 0) return await failBacktest(svc, id, 'noData');
    writer.progress(2, { phase: 'loading', done: candles.length, total: candles.length });
    const { candles: own, transfer } = transferableCandles(candles);
    const outcome = await svc.runner.run<BacktestOutcome>(
      { kind: 'backtest', symbol: row.symbol, venue: venueOf(row.dataSource), strategy: row.strategy, params: row.params as Record<string, unknown>, candles: own },
      transfer,
      (p, at) => writer.progress(p, at),
      ac.signal,
    );
    writer.stop();
    const statusReason =
      outcome.status === 4 ? `liquidated: ${outcome.statusReason}` : outcome.status === 5 ? `insufficientCapital: ${outcome.statusReason}` : null;
    await svc.db.transaction(async (tx) => {
      const done = await tx
        .update(backtests)
        .set({
          status: outcome.status,
          statusReason,
          summary: { ...outcome.summary, monthly: outcome.monthly, ai: outcome.ai },
          progress: 100,
          finishedAt: new Date(),
        })
        .where(and(eq(backtests.id, id), eq(backtests.status, 1)))
        .returning({ id: backtests.id });
      if (done.length === 0) return; // cancelled at the last moment
      await tx
        .insert(backtestResults)
        .values({ backtestId: id, equity: outcome.equity, trades: outcome.trades, monthly: outcome.monthly })
        .onConflictDoUpdate({
          target: backtestResults.backtestId,
          set: { equity: outcome.equity, trades: outcome.trades, monthly: outcome.monthly },
        });
    });
  } catch (e) {
    if (e instanceof TaskCancelled) return; // cancelled (row already says so), or shutting down (recovered at start)
    if (e instanceof TaskFailed) return await failBacktest(svc, id, `error: ${e.message}`);
    svc.log?.error({ err: e, id }, 'backtest failed');
    if (!svc.closing) await failBacktest(svc, id, `error: ${(e as Error).message}`);
  } finally {
    writer.stop();
    svc.running.delete(key);
  }
}

async function failRecommendation(svc: BacktestService, id: number, reason: string) {
  await svc.db
    .update(recommendations)
    .set({ status: 'failed', error: reason.slice(0, 500), finishedAt: new Date(), result: null })
    .where(and(eq(recommendations.id, id), eq(recommendations.status, 'running')));
}

export async function runRecommendJob(svc: BacktestService, id: number, jobId: string, threads: number): Promise<void> {
  const [row] = await svc.db.select().from(recommendations).where(eq(recommendations.id, id));
  if (!row || row.status !== 'running' || row.jobId !== jobId) return;
  const started = await svc.database.exec(
    `update recommendations set progress = greatest(progress, 1), result = $2::jsonb where id = $1 and status = 'running' and job_id = $3 returning id`,
    [id, heartbeat(), jobId],
  );
  if (started.length === 0) return;
  const key = `recommend:${id}`;
  const ac = new AbortController();
  svc.running.set(key, ac);
  const writer = progressWriter(svc, 'recommend', id, ac);
  try {
    const series = seriesOfRecommendation(row);
    const candles = await loadCandleRange(svc.database, {
      ...series,
      symbol: row.symbol,
      fromMs: row.fromAt.getTime(),
      toMs: row.toAt.getTime(),
    });
    if (candles.length === 0) return await failRecommendation(svc, id, 'noData');
    const { candles: own, transfer } = transferableCandles(candles);
    const result = await svc.runner.run<RecommendResult>(
      {
        kind: 'recommend',
        symbol: row.symbol,
        venue: venueOf(row.dataSource),
        strategy: row.strategy,
        capital: Number(row.capital),
        fromMs: row.fromAt.getTime(),
        toMs: row.toAt.getTime(),
        budget: row.budget ?? undefined,
        seed: row.seed,
        params: row.fixed as Record<string, unknown>,
        candles: own,
        threads,
      },
      transfer,
      (p) => writer.progress(p),
      ac.signal,
    );
    writer.stop();
    const stored = {
      interval: result.interval,
      inSample: result.inSample,
      outOfSample: result.outOfSample,
      presets: result.presets.map((p) => ({
        tier: p.tier,
        params: p.params,
        searched: p.searched,
        inSample: p.inSample,
        outOfSample: p.outOfSample,
        validated: p.validated,
        ai: p.ai,
      })),
      evaluated: result.evaluated,
      accepted: result.accepted,
      seconds: result.seconds,
    };
    // NaN / Infinity are not JSON: null ("--" on screen).
    const json = JSON.parse(JSON.stringify(stored, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v))) as unknown;
    await svc.db
      .update(recommendations)
      .set({ status: 'done', progress: 100, result: json, finishedAt: new Date() })
      .where(and(eq(recommendations.id, id), eq(recommendations.status, 'running')));
  } catch (e) {
    if (e instanceof TaskCancelled) return;
    if (e instanceof TaskFailed) return await failRecommendation(svc, id, `error: ${e.message}`);
    svc.log?.error({ err: e, id }, 'recommendation failed');
    if (!svc.closing) await failRecommendation(svc, id, `error: ${(e as Error).message}`);
  } finally {
    writer.stop();
    svc.running.delete(key);
  }
}

/**
 * Running rows whose process died: retried (new job) while attempts remain, else failed with the
 * reason `interrupted`. Rows never started whose job is gone are queued again. `orphanAll` (the
 * embedded database: no other process can be running them) treats every started row as orphaned.
 */
export async function recoverRuns(svc: BacktestService, orphanAll: boolean): Promise<{ retried: number; failed: number; requeued: number }> {
  const out = { retried: 0, failed: 0, requeued: 0 };
  if (!svc.boss) return out;
  const staleBefore = orphanAll ? Number.MAX_SAFE_INTEGER : Date.now() - STALE_MS;
  for (const kind of ['backtest', 'recommend'] as const) {
    const table = kind === 'backtest' ? 'backtests' : 'recommendations';
    const running = kind === 'backtest' ? 'status = 1 and deleted_at is null' : `status = 'running'`;
    const beat = kind === 'backtest' ? `summary->>'heartbeatAt'` : `result->>'heartbeatAt'`;
    const started = kind === 'backtest' ? 'started_at is not null' : `${beat} is not null`;
    const attempts = kind === 'backtest' ? 'attempts' : '0';
    const rows = await svc.database.exec<{ id: string | number; job_id: string | null; started: boolean; beat: string | null; attempts: number }>(
      `select id, job_id, (${started}) as started, ${beat} as beat, (${attempts})::int as attempts from ${table} where ${running}`,
    );
    for (const r of rows) {
      const id = Number(r.id);
      if (svc.running.has(`${kind}:${id}`)) continue;
      let orphaned = false;
      if (r.started) {
        orphaned = Number(r.beat ?? 0) < staleBefore;
      } else {
        // Not started: is its job still waiting?
        const jobs = r.job_id
          ? await svc.database.exec<{ state: string }>(`select state from pgboss.job where name = $1 and id = $2`, [QUEUES[kind], r.job_id])
          : [];
        const state = jobs[0]?.state;
        if (state === 'created' || state === 'retry') continue;
        if (state === 'active') {
          orphaned = orphanAll;
          if (!orphaned) continue;
        } else {
          // No job (queued while no pg-boss ran, or the job finished without touching the row).
          const jobId = randomUUID();
          await svc.database.exec(`update ${table} set job_id = $2 where id = $1`, [id, jobId]);
          await svc.enqueue(kind, id, jobId);
          out.requeued++;
          continue;
        }
      }
      if (!orphaned) continue;
      if (r.job_id) await svc.boss.cancel(QUEUES[kind], r.job_id).catch(() => undefined);
      // A backtest is retried; a recommendation (the user watches it) fails and can be asked again.
      if (kind === 'backtest' && r.attempts < MAX_ATTEMPTS) {
        const jobId = randomUUID();
        await svc.database.exec(`update backtests set job_id = $2, started_at = null, progress = 0, summary = null where id = $1 and status = 1`, [id, jobId]);
        await svc.enqueue(kind, id, jobId);
        out.retried++;
      } else {
        if (kind === 'backtest') await failBacktest(svc, id, 'interrupted');
        else await failRecommendation(svc, id, 'interrupted');
        out.failed++;
      }
    }
  }
  return out;
}

/** Creates the queues; with `work`, starts the consumers, recovers interrupted runs and keeps checking. */
export async function startBacktestJobs({ boss, database, log, work }: JobContext): Promise<void> {
  const svc = backtestService(database);
  svc.reopen();
  svc.boss = boss;
  svc.log = log;
  await boss.createQueue(QUEUES.backtest);
  await boss.createQueue(QUEUES.recommend);
  if (!work) return;
  svc.runner.warm();
  for (let i = 0; i < BACKTEST_CONCURRENCY; i++) {
    svc.workerIds.backtest.push(
      await boss.work<{ id: number }>(QUEUES.backtest, { pollingIntervalSeconds: 1 }, async ([job]) => {
        await runBacktestJob(svc, job.data.id, job.id);
      }),
    );
  }
  const threads = Math.max(1, availableParallelism());
  svc.workerIds.recommend.push(
    await boss.work<{ id: number }>(QUEUES.recommend, { pollingIntervalSeconds: 1 }, async ([job]) => {
      await runRecommendJob(svc, job.data.id, job.id, threads);
    }),
  );
  const orphanAll = database.kind === 'pglite' && database.via === 'direct';
  const recovered = await recoverRuns(svc, orphanAll);
  if (recovered.retried + recovered.failed + recovered.requeued > 0) log.warn(recovered, 'interrupted backtests / recommendations recovered');
  const timer = setInterval(() => {
    recoverRuns(svc, false).catch((err: unknown) => log.warn({ err }, 'backtest recovery failed'));
  }, RECOVERY_EVERY_MS);
  timer.unref();
  svc.timers.push(timer);
}
