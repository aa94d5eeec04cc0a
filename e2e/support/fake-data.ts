// Candles the e2e fake exchange replays. The e2e server imports every file of ../shared/data into
// its candle store, and the runner's feed asks a venue only for candles after the newest one stored
// (apps/server/src/runner/feed.ts). Replaying the files as they are (from their first candle) would
// give a live robot nothing new for two years of market time, so the fake gets the last days of
// each 1m file shifted to start one minute after the file ends: a robot's feed continues the stored
// series and sees real price moves.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

const MINUTE = 60_000;

/** Writes `binance_<SYMBOL>_1m.csv.gz` of the last `days` of each source file, shifted, into `outDir`. */
export function writeShiftedTails(sourceDir: string, outDir: string, days = 10, symbols = ['BTCUSDT', 'ETHUSDT']): void {
  mkdirSync(outDir, { recursive: true });
  for (const symbol of symbols) {
    const file = join(sourceDir, `binance_${symbol}_1m.csv.gz`);
    if (!existsSync(file)) continue;
    const lines = gunzipSync(readFileSync(file)).toString('utf8').trimEnd().split('\n');
    const header = lines[0];
    const rows = lines.slice(Math.max(1, lines.length - days * 1440));
    const first = Number(rows[0].slice(0, rows[0].indexOf(',')));
    const last = Number(rows[rows.length - 1].slice(0, rows[rows.length - 1].indexOf(',')));
    const shift = last - first + MINUTE;
    const shifted = rows.map((r) => {
      const comma = r.indexOf(',');
      return `${Number(r.slice(0, comma)) + shift}${r.slice(comma)}`;
    });
    writeFileSync(join(outDir, `binance_${symbol}_1m.csv.gz`), gzipSync(`${header}\n${shifted.join('\n')}\n`));
  }
}
