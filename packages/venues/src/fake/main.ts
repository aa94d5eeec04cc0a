// `npm run fake-exchange`: the fake Binance USDⓈ-M and OKX v5 servers on 127.0.0.1 replaying real
// candles. Env: FAKE_PORT (Binance, default 18080), FAKE_OKX_PORT (default 18081), FAKE_DATA_DIR (default ../shared/data), FAKE_FAULTS (JSON array
// of fault rules: hang, reset, http, rate_limit, partial, latency (wall ms, and marketMs: the order reaches the
// book that much market time late), slippage (bps against the trader)), FAKE_KEYS (JSON {apiKey: secret}; default {"fake-key":"fake-secret"}),
// FAKE_TICK_MS (advance the market clock one candle every this many wall ms; 0 = only via admin),
// FAKE_CLOCK=wall (the market clock follows the wall clock instead, FAKE_SPEED times as fast),
// FAKE_CONTINUE_DAYS (replay the files' last N days shifted past their end: see continuedTail).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Candles } from '@lq/engine';
import { continuedTail, loadCandleFile } from './candles';
import { FakeOkx } from './okx';
import { DEFAULT_KEYS, FakeBinance, type FaultRule } from './server';

const dataDir = process.env.FAKE_DATA_DIR ?? '../shared/data';
const continueDays = Number(process.env.FAKE_CONTINUE_DAYS ?? 0);
const candles: Record<string, Candles> = {};
for (const symbol of ['BTCUSDT', 'ETHUSDT']) {
  const file = join(dataDir, `binance_${symbol}_1m.csv.gz`);
  if (existsSync(file)) candles[symbol] = continueDays > 0 ? continuedTail(loadCandleFile(file), continueDays) : loadCandleFile(file);
  else console.warn(`fake-exchange: ${file} not found; ${symbol} keeps a fixed price`);
}
const keys = process.env.FAKE_KEYS ? (JSON.parse(process.env.FAKE_KEYS) as Record<string, string>) : DEFAULT_KEYS;
const faults = process.env.FAKE_FAULTS ? (JSON.parse(process.env.FAKE_FAULTS) as FaultRule[]) : [];
const binance = new FakeBinance({ port: Number(process.env.FAKE_PORT ?? 18080), keys, faults, candles });
const okx = new FakeOkx({ port: Number(process.env.FAKE_OKX_PORT ?? 18081), keys, faults, candles });
const b = await binance.listen();
const o = await okx.listen();
console.log(`fake-exchange: binanceusdm on ${b}, okx on ${o} (urls.api.rest); admin under /__admin/ on each`);
const wall = process.env.FAKE_CLOCK === 'wall';
if (wall) {
  const speed = Number(process.env.FAKE_SPEED ?? 1);
  binance.setClock({ mode: 'wall', speed });
  okx.setClock({ mode: 'wall', speed });
}
const tick = Number(process.env.FAKE_TICK_MS ?? 1000);
const timer =
  tick > 0 && !wall
    ? setInterval(() => {
        binance.advance(60_000);
        okx.advance(60_000);
      }, tick)
    : null;
const stop = (): void => {
  if (timer) clearInterval(timer);
  void Promise.all([binance.close(), okx.close()]).then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
