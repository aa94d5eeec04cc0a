// Backtests survive a restart: a run interrupted mid-way (process stopped, or crashed) is retried
// by the next worker process or, after its attempts, failed with the reason — never left running.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '..';
import { gridParams, seedCandles, until, vipUser, waitFinished } from './test-helpers';
import { startTestApp, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';

let t: TestApp;
let u: RegisteredUser;

beforeAll(async () => {
  t = await startTestApp({ jobs: true, env: { AUTH_CACHE_MS: '0' } });
  await seedCandles(t.database, { from: '2024-01-01', to: '2025-01-01' });
  u = await vipUser(t);
  await t.database.exec(
    `insert into entitlement_grants (user_id, kind, quantity) select id, 'backtest_slot', 10 from users where mail = $1`,
    [u.mail],
  );
}, 120_000);
const rebuilt: { close(): Promise<unknown> }[] = [];
afterAll(async () => {
  for (const app of rebuilt) await app.close();
  await t?.close();
});

/** Closes the app (as a stop would) and builds a new one on the same database, jobs on. */
async function restart(): Promise<void> {
  await t.app.close();
  const app = await buildApp(t.config, { database: t.database, jobs: true, logger: false });
  rebuilt.push(app);
  t.app = app;
  // t.close() closes t.app; the helper's call() is bound to the first app: rebind it.
  t.call = async (method, url, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.lang) headers.lang = o.lang;
    const res = await app.inject({ method, url, headers, ...(o.body !== undefined ? { payload: o.body as object } : {}) });
    return Object.assign(res, { json: <T>() => JSON.parse(res.body) as T });
  };
}

const row = async (id: number) =>
  (
    await t.database.exec<{ status: number; status_reason: string | null; attempts: number; progress: number }>(
      'select status, status_reason, attempts, progress from backtests where id = $1',
      [id],
    )
  )[0];

describe('a job interrupted mid-run', () => {
  it('is run again after a restart when the server stopped during the run', async () => {
    // The AI indicator over a year of 1m candles takes a while.
    const res = await t.call('POST', '/order/api/backtest/create', {
      token: u.token,
      body: { strategy: 'grid', dataSource: 'binance', symbol: 'BTCUSDT', params: gridParams({ side: 'ai', start: '2024-01-01', end: '2024-12-31' }) },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json<Envelope<{ backtest: { id: number } }>>().data.backtest.id;
    await until('the run to start', async () => ((await row(id)).progress > 0 ? true : undefined), 30_000, 20);
    await restart();
    const done = await waitFinished(t, u.token, id, 90_000);
    expect(done.status).toBeGreaterThanOrEqual(2);
    expect(done.status).not.toBe(3);
    expect((await row(id)).attempts).toBe(2);
    const report = await t.call('GET', `/order/api/backtest/report?id=${id}`, { token: u.token });
    expect(report.statusCode).toBe(200);
  }, 180_000);

  it('is retried after a crash, or failed with a reason once its attempts are used up', async () => {
    // Rows as a crashed process leaves them: running, started minutes ago, no heartbeat since,
    // their pg-boss job still "active".
    const insert = async (attempts: number) => {
      const rows = await t.database.exec<{ id: number }>(
        `insert into backtests (user_id, status, progress, strategy, data_source, candle_source, symbol, interval, timezone, params,
                                capital, leverage, from_at, to_at, job_id, attempts, started_at, summary)
         select id, 1, 40, 'grid', 'binance', 'binance', 'BTCUSDT', '1m', 'UTC', $2::jsonb, 10000, 5,
                '2024-01-01T00:00:00Z', '2024-02-01T00:00:00Z', gen_random_uuid()::text, $3, now() - interval '5 minutes',
                jsonb_build_object('heartbeatAt', (extract(epoch from now() - interval '5 minutes') * 1000)::bigint)
           from users where mail = $1 returning id`,
        [
          u.mail,
          JSON.stringify({ market: 'crypto', symbol: 'BTCUSDT', interval: '1m', side: 'long', unit: 'ZHANG', timezone: 'UTC', useAiIndicator: false, addImmediately: false, ...gridParams() }),
          attempts,
        ],
      );
      return Number(rows[0].id);
    };
    const retried = await insert(1);
    const exhausted = await insert(2);
    await restart();
    const done = await waitFinished(t, u.token, retried, 60_000);
    expect(done.status).toBe(2);
    expect((await row(retried)).attempts).toBe(2);
    const failed = await waitFinished(t, u.token, exhausted, 60_000);
    expect(failed.status).toBe(3);
    expect(failed.statusReasonKey).toBe('interrupted');
    expect(failed.statusReason).toMatch(/重啟/); // zh-TW, the default locale
    // nothing is left running
    const running = await t.database.exec<{ n: number }>(`select count(*)::int as n from backtests where status = 1`);
    expect(running[0].n).toBe(0);
  }, 180_000);
});
