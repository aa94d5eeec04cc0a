// `npm run fake-exchange`: the fake Binance USDⓈ-M server on 127.0.0.1 replaying real candles.
// Env: FAKE_PORT (default 18080), FAKE_DATA_DIR (default ../shared/data), FAKE_FAULTS (JSON array
// of fault rules), FAKE_KEYS (JSON {apiKey: secret}; default {"fake-key":"fake-secret"}),
// FAKE_TICK_MS (advance the market clock one candle every this many wall ms; 0 = only via admin).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Candles } from '@lq/engine';
import { loadCandleFile } from './candles';
import { DEFAULT_KEYS, FakeBinance, type FaultRule } from './server';

const dataDir = process.env.FAKE_DATA_DIR ?? '../shared/data';
const candles: Record<string, Candles> = {};
for (const symbol of ['BTCUSDT', 'ETHUSDT']) {
  const file = join(dataDir, `binance_${symbol}_1m.csv.gz`);
  if (existsSync(file)) candles[symbol] = loadCandleFile(file);
  else console.warn(`fake-exchange: ${file} not found; ${symbol} keeps a fixed price`);
}
const fake = new FakeBinance({
  port: Number(process.env.FAKE_PORT ?? 18080),
  keys: process.env.FAKE_KEYS ? (JSON.parse(process.env.FAKE_KEYS) as Record<string, string>) : DEFAULT_KEYS,
  faults: process.env.FAKE_FAULTS ? (JSON.parse(process.env.FAKE_FAULTS) as FaultRule[]) : [],
  candles,
});
const origin = await fake.listen();
console.log(`fake-exchange (binanceusdm) listening on ${origin}; admin under ${origin}/__admin/`);
const tick = Number(process.env.FAKE_TICK_MS ?? 1000);
const timer = tick > 0 ? setInterval(() => fake.advance(60_000), tick) : null;
const stop = (): void => {
  if (timer) clearInterval(timer);
  void fake.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
