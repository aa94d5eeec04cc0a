// Binary candle cache: six Float64 columns behind a small header, keyed by path + size + mtime,
// so a re-read of an unchanged file costs one sequential read instead of gunzip + parse.
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Candles } from '@lq/engine';

const MAGIC = 0x4c51_4331; // "LQC1"
const VERSION = 1;
const HEADER_BYTES = 32; // magic u32, version u32, length f64, intervalMs f64, reserved 8

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** `CANDLE_CACHE_DIR`, else `<repo>/.cache/candles`. */
export function candleCacheDir(): string {
  return process.env.CANDLE_CACHE_DIR ?? join(repoRoot, '.cache', 'candles');
}

/** Cache file of a source file: hash of absolute path, size and mtime (any change misses). */
export function cachePathFor(sourcePath: string, cacheDir = candleCacheDir()): string {
  const abs = resolve(sourcePath);
  const st = statSync(abs);
  const key = createHash('sha256').update(`${abs}\0${st.size}\0${st.mtimeMs}`).digest('hex').slice(0, 32);
  return join(cacheDir, `${key}.bin`);
}

export function encodeCandles(c: Candles): Uint8Array {
  const n = c.length;
  const buf = new ArrayBuffer(HEADER_BYTES + 6 * 8 * n);
  const head = new DataView(buf, 0, HEADER_BYTES);
  head.setUint32(0, MAGIC, true);
  head.setUint32(4, VERSION, true);
  head.setFloat64(8, n, true);
  head.setFloat64(16, c.intervalMs, true);
  const cols = [c.time, c.open, c.high, c.low, c.close, c.volume];
  cols.forEach((col, k) => new Float64Array(buf, HEADER_BYTES + k * 8 * n, n).set(col.subarray(0, n)));
  return new Uint8Array(buf);
}

/** Decodes without copying: the columns are views on `buf` (which must be 8-byte aligned). */
export function decodeCandles(buf: ArrayBuffer): Candles | null {
  if (buf.byteLength < HEADER_BYTES) return null;
  const head = new DataView(buf, 0, HEADER_BYTES);
  if (head.getUint32(0, true) !== MAGIC || head.getUint32(4, true) !== VERSION) return null;
  const n = head.getFloat64(8, true);
  const intervalMs = head.getFloat64(16, true);
  if (!Number.isInteger(n) || n < 0 || buf.byteLength !== HEADER_BYTES + 48 * n) return null;
  const col = (k: number) => new Float64Array(buf, HEADER_BYTES + k * 8 * n, n);
  return { length: n, intervalMs, time: col(0), open: col(1), high: col(2), low: col(3), close: col(4), volume: col(5) };
}

/** Reads a whole file into a fresh (aligned) ArrayBuffer. */
function readAligned(path: string): ArrayBuffer {
  const fd = openSync(path, 'r');
  try {
    const size = statSync(path).size;
    const buf = new ArrayBuffer(size);
    const view = new Uint8Array(buf);
    let off = 0;
    while (off < size) {
      const got = readSync(fd, view, off, size - off, null);
      if (got <= 0) break;
      off += got;
    }
    return off === size ? buf : buf.slice(0, off);
  } finally {
    closeSync(fd);
  }
}

export function readCache(cacheFile: string): Candles | null {
  try {
    return decodeCandles(readAligned(cacheFile));
  } catch {
    return null;
  }
}

/** Best effort: a read-only or full disk only costs the next load a parse. */
export function writeCache(cacheFile: string, c: Candles): boolean {
  try {
    mkdirSync(dirname(cacheFile), { recursive: true });
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(tmp, encodeCandles(c));
    renameSync(tmp, cacheFile);
    return true;
  } catch {
    return false;
  }
}
