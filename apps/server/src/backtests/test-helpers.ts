// Shared by the backtest integration tests: real candles from ../shared/data into the store, VIP
// users (with the basic rights), polling.
import { fileURLToPath } from 'node:url';
import { sliceByTime } from '@lq/engine';
import { loadCandlesFile } from '@lq/workers';
import type { DatabaseHandle } from '@lq/db';
import { writeCandles } from '../market';
import { grantUnlock, registerUser, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';

export const DATA_DIR = fileURLToPath(new URL('../../../../../shared/data/', import.meta.url));
export const ms = (iso: string) => Date.parse(iso);

/** BTCUSDT 1m (Binance) for [from, to) and EURUSD 1m (Dukascopy, Sep 2010) into the candle store. */
export async function seedCandles(database: DatabaseHandle, btc: { from: string; to: string }): Promise<void> {
  const btcAll = loadCandlesFile(`${DATA_DIR}binance_BTCUSDT_1m.csv.gz`);
  await writeCandles(database, { source: 'binance', symbol: 'BTCUSDT', timeframe: '1m' }, sliceByTime(btcAll, ms(btc.from), ms(btc.to)));
  const eur = loadCandlesFile(`${DATA_DIR}dukascopy_EURUSD_1m.csv.gz`);
  await writeCandles(database, { source: 'dukascopy', symbol: 'EURUSD', timeframe: '1m' }, eur);
}

export async function vipUser(t: TestApp, level = 'VIP1'): Promise<RegisteredUser> {
  const u = await registerUser(t);
  await t.database.exec('update users set user_level = $2 where mail = $1', [u.mail, level]);
  await grantUnlock(t, u.mail);
  return u;
}

export async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 60_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export interface Detail {
  id: number;
  status: number;
  progress: number;
  statusReason: string | null;
  statusReasonKey: string | null;
  [k: string]: unknown;
}

/** Polls the detail call until the backtest leaves status 1. */
export async function waitFinished(t: TestApp, token: string, id: number, timeoutMs = 60_000): Promise<Detail> {
  return until(`backtest ${id}`, async () => {
    const d = (await t.call('GET', `/order/api/backtest/detail?id=${id}`, { token })).json<Envelope<Detail>>().data;
    return d.status !== 1 ? d : undefined;
  }, timeoutMs);
}

export const gridParams = (over: Record<string, unknown> = {}) => ({
  capital: 10_000,
  leverage: 5,
  gridNumber: 10,
  gap: 0.5,
  lotsPerGrid: 1,
  start: '2024-01-01',
  end: '2024-01-31',
  ...over,
});
