import { mkdtempSync, rmSync, writeFileSync, existsSync, readdirSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCandlesFileDetailed, CandleFileError } from '../src';

const dir = mkdtempSync(join(tmpdir(), 'lq-load-'));
const cacheDir = join(dir, 'cache');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const csv = 'time,open,high,low,close,volume\n1704067200000,10,11,9,10.5,1\n1704067260000,10.5,12,10,11,2\n';

describe('loadCandlesFile', () => {
  it('reads gzip by magic bytes, then serves the same columns from the binary cache', () => {
    const file = join(dir, 'a.csv.gz');
    writeFileSync(file, gzipSync(csv));
    const first = loadCandlesFileDetailed(file, { cacheDir });
    expect(first.source).toBe('parsed');
    expect(readdirSync(cacheDir).filter((f) => f.endsWith('.bin'))).toHaveLength(1);
    const second = loadCandlesFileDetailed(file, { cacheDir });
    expect(second.source).toBe('cache');
    expect(Array.from(second.candles.close)).toEqual([10.5, 11]);
    expect(second.candles.intervalMs).toBe(60_000);
    expect(Array.from(second.candles.time)).toEqual(Array.from(first.candles.time));
  });

  it('misses the cache when the file changes', () => {
    const file = join(dir, 'b.csv');
    writeFileSync(file, csv);
    loadCandlesFileDetailed(file, { cacheDir });
    writeFileSync(file, csv.replace('10.5,1\n', '10.25,1\n'));
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const again = loadCandlesFileDetailed(file, { cacheDir });
    expect(again.source).toBe('parsed');
    expect(again.candles.close[0]).toBe(10.25);
  });

  it('names the file and line on errors', () => {
    const file = join(dir, 'bad.csv');
    writeFileSync(file, 'time,open,high,low,close,volume\n1704067200000,10,11,9,abc,1\n');
    expect(() => loadCandlesFileDetailed(file, { cacheDir })).toThrow(/bad\.csv: line 2: invalid close "abc"/);
    expect(() => loadCandlesFileDetailed(join(dir, 'missing.csv'), { cacheDir })).toThrow(CandleFileError);
    writeFileSync(join(dir, 'broken.gz'), Buffer.from([0x1f, 0x8b, 1, 2, 3]));
    expect(() => loadCandlesFileDetailed(join(dir, 'broken.gz'), { cache: false })).toThrow(/not a valid gzip/);
  });

  const shared = process.env.SHARED_DIR ?? join(import.meta.dirname, '../../../../shared');
  it.skipIf(!existsSync(join(shared, 'data')))('loads every shared data file', () => {
    for (const f of readdirSync(join(shared, 'data')).filter((x) => x.endsWith('.csv.gz') && !x.includes('BTCUSDT_1m'))) {
      const r = loadCandlesFileDetailed(join(shared, 'data', f), { cache: false });
      expect(r.candles.length, f).toBeGreaterThan(1000);
      expect(r.format).toBe('common');
    }
  });
});
