import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '@lq/db';
import { loadCandlesFile } from '@lq/workers';
import { writeCandles, loadCandleRange } from './store';
const dir = mkdtempSync(path.join(tmpdir(), 'lq-bench-'));
const db = await openDatabase({ dataDir: dir, databaseUrl: process.env.DATABASE_URL, pgliteMode: 'exclusive' });
let t = performance.now();
const c = loadCandlesFile('/work/shared/data/binance_BTCUSDT_1m.csv.gz', { cache: false });
console.log('parse', c.length, ((performance.now() - t) / 1000).toFixed(2), 's');
t = performance.now();
const key = { source: 'bench' + Date.now(), symbol: 'BTCUSDT', timeframe: '1m' };
await writeCandles(db, key, c);
console.log('write', ((performance.now() - t) / 1000).toFixed(2), 's');
for (let i = 0; i < 3; i++) {
  t = performance.now();
  const r = await loadCandleRange(db, { ...key, fromMs: Date.UTC(2024, 0, 1), toMs: Date.UTC(2025, 0, 1) });
  console.log('load 2024', r.length, (performance.now() - t).toFixed(0), 'ms');
}
await db.exec('delete from candle_chunks where source = $1', [key.source]);
await db.close();
