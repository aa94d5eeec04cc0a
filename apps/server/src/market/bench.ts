// Measures the candle store on the real BTCUSDT 1m file: parse, write (1 008 000 rows), and load of
// the year 2024 (527 040 candles). `node --import tsx apps/server/src/market/bench.ts [file]`;
// PGlite in a temporary directory, or PostgreSQL when DATABASE_URL is set (its rows are removed).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '@lq/db';
import { loadCandlesFile } from '@lq/workers';
import { loadCandleRange, writeCandles } from './store';

const file = process.argv[2] ?? path.resolve('../shared/data/binance_BTCUSDT_1m.csv.gz');
const dir = mkdtempSync(path.join(tmpdir(), 'lq-bench-'));
const db = await openDatabase({ dataDir: dir, databaseUrl: process.env.DATABASE_URL, pgliteMode: 'exclusive' });
try {
  let t = performance.now();
  const c = loadCandlesFile(file, { cache: false });
  console.log(`parse ${c.length} rows: ${((performance.now() - t) / 1000).toFixed(2)} s`);
  t = performance.now();
  const key = { source: `bench${Date.now()}`, symbol: 'BTCUSDT', timeframe: '1m' };
  await writeCandles(db, key, c);
  console.log(`write: ${((performance.now() - t) / 1000).toFixed(2)} s (${db.kind})`);
  for (let i = 0; i < 3; i++) {
    t = performance.now();
    const r = await loadCandleRange(db, { ...key, fromMs: Date.UTC(2024, 0, 1), toMs: Date.UTC(2025, 0, 1) });
    console.log(`load 2024: ${r.length} candles in ${(performance.now() - t).toFixed(0)} ms (${db.kind})`);
  }
  await db.exec('delete from candle_chunks where source = $1', [key.source]);
} finally {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
