// The console's market data and failed jobs on a real app, database and pg-boss (both databases):
// a fetch of missing candles recorded as a run and queued (here against a closed local port, so it
// fails fast and says why), every bad request named; a job that failed listed with its error and
// its data's secret-looking values hidden, retried once (a second retry refused); audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleFailedJobList, ConsoleImportItem, ConsoleMarketData } from '@lq/contracts';
import { startTestApp, type Envelope, type TestApp } from '../../test/helpers';
import { consoleTestKit } from './test-helpers';

let t: TestApp;
beforeAll(async () => {
  // A closed port: the exchange import fails at once instead of reaching out.
  t = await startTestApp({ shareSocket: true, jobs: true, env: { AUTH_CACHE_MS: '0', MARKET_BINANCE_URL: 'http://127.0.0.1:9', MARKET_OKX_URL: 'http://127.0.0.1:9' } });
});
afterAll(() => t?.close());

const { signedIn } = consoleTestKit(() => t);
const data = <T>(res: { json<U>(): U }) => res.json<Envelope<T>>().data;

async function until<T>(what: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await what();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('gave up waiting');
}

describe('market data and jobs', () => {
  it('queues a fetch of missing candles as a run; bad requests named', async () => {
    const op = await signedIn();
    const call = (url: string, body?: unknown) => t.call(body === undefined ? 'GET' : 'POST', `/console/api${url}`, { token: op.token, body });
    const run = data<ConsoleImportItem>(await call('/market/fetch', { source: 'binance', symbol: 'btcusdt', timeframe: '1h', from: '2026-01-01', to: '2026-01-03' }));
    expect(run).toMatchObject({ kind: 'ccxt', source: 'binance', symbol: 'BTCUSDT', timeframe: '1h', fromMs: Date.parse('2026-01-01T00:00:00Z'), toMs: Date.parse('2026-01-03T00:00:00Z') });
    const failed = await until(
      async () => data<ConsoleMarketData>(await call('/market')).imports.find((x) => x.id === run.id),
      (x) => x?.status === 'failed',
    );
    expect(failed?.message).toBeTruthy();
    const bad = async (body: Record<string, unknown>) => {
      const res = await call('/market/fetch', { source: 'binance', symbol: 'BTCUSDT', from: '2026-01-01', ...body });
      return [res.statusCode, data<{ field?: string }>(res)?.field];
    };
    expect(await bad({ source: 'kraken' })).toEqual([422, 'source']);
    expect(await bad({ symbol: 'BTC/USDT' })).toEqual([422, 'symbol']);
    expect(await bad({ timeframe: '2m' })).toEqual([422, 'timeframe']);
    expect(await bad({ from: '1 Jan' })).toEqual([422, 'from']);
    expect(await bad({ to: '2025-12-31' })).toEqual([422, 'to']);
    expect(await bad({ source: 'dukascopy', symbol: 'BTCUSDT' })).toEqual([422, 'symbol']);
    const rows = await t.database.exec<{ outcome: string; object_id: string }>(`select outcome, object_id from audit_log where action = 'market.fetch' and actor = $1 order by id`, [op.mail]);
    expect(rows).toEqual([
      { outcome: 'done', object_id: String(run.id) },
      { outcome: 'refused', object_id: 'dukascopy:BTCUSDT' },
    ]);
  });

  it('lists a failed job with its error (secrets hidden) and retries it once', async () => {
    const op = await signedIn();
    const call = (url: string, body?: unknown) => t.call(body === undefined ? 'GET' : 'POST', `/console/api${url}`, { token: op.token, body });
    const boss = t.app.boss!;
    const queue = `console-test-failing-${Date.now()}`;
    await boss.createQueue(queue, { name: queue, retryLimit: 0 });
    const worker = await boss.work(queue, { pollingIntervalSeconds: 0.5 }, () => Promise.reject(new Error('the stand-in refused the payment')));
    const id = (await boss.send(queue, { userId: 7, apiSecret: 'do-not-show', nested: { token: 'nor-this' } }))!;
    const list = await until(
      async () => data<ConsoleFailedJobList>(await call(`/jobs/failed?queue=${queue}`)),
      (l) => l.total === 1,
    );
    await boss.offWork(worker);
    expect(list.list[0]).toMatchObject({ id, queue, error: 'the stand-in refused the payment', data: { userId: 7, apiSecret: '[hidden]', nested: { token: '[hidden]' } } });
    expect(JSON.stringify(list)).not.toContain('do-not-show');

    expect((await call('/jobs/retry', { queue, id })).statusCode).toBe(200);
    const [job] = await t.database.exec<{ state: string }>('select state from pgboss.job where id = $1', [id]);
    expect(job.state).toBe('retry');
    const again = await call('/jobs/retry', { queue, id });
    expect([again.statusCode, again.json<Envelope<null>>().code]).toEqual([409, 'A0409']);
    expect((await call('/jobs/retry', { queue, id: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
    expect((await call('/jobs/retry', { queue, id: 'nope' })).statusCode).toBe(422);
    const rows = await t.database.exec<{ outcome: string }>(`select outcome from audit_log where action = 'jobs.retry' and object_id = $1 order by id`, [id]);
    expect(rows.map((r) => r.outcome)).toEqual(['done', 'refused']); // the unknown id is recorded under its own id
  });
});
