import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backtestFromArgs, formatReport } from '../src/backtest';
import { CliError } from '../src/args';

const dir = mkdtempSync(join(tmpdir(), 'lq-cli-'));
process.env.CANDLE_CACHE_DIR = join(dir, 'cache');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// 10 days of synthetic hourly candles oscillating ±3 % around 40 000: a grid must trade.
const rows = ['time,open,high,low,close,volume'];
const t0 = Date.UTC(2024, 0, 1);
for (let i = 0; i < 240; i++) {
  const mid = 40_000 * (1 + 0.03 * Math.sin(i / 6));
  const next = 40_000 * (1 + 0.03 * Math.sin((i + 1) / 6));
  rows.push([t0 + i * 3_600_000, mid, Math.max(mid, next) + 20, Math.min(mid, next) - 20, next, 1].join(','));
}
const data = join(dir, 'btc.csv');
writeFileSync(data, rows.join('\n') + '\n');
const params = JSON.stringify({ capital: 10_000, leverage: 5, gridNumber: 5, gap: 1, lotsPerGrid: 1 });

describe('backtest CLI', () => {
  it('runs a grid and reports trades', () => {
    const r = backtestFromArgs(['--data', data, '--symbol', 'BTCUSDT', '--strategy', 'grid', '--params', params, '--json']);
    expect(r.json).toBe(true);
    expect(r.report.status).toBe(2);
    expect(r.report.tradeCount).toBeGreaterThan(0);
    expect(r.report.candleCount).toBe(240);
    expect(formatReport(r.report, r.ai)).toMatch(/tradeCount\s+\d+/);
  });

  it('refuses a range under 7 days, like the API', () => {
    const run = () => backtestFromArgs(['--data', data, '--symbol', 'BTCUSDT', '--strategy', 'grid', '--params', params, '--from', '2024-01-02', '--to', '2024-01-05']);
    expect(run).toThrow(CliError);
    expect(run).toThrow(/at least 7 days.*3\.0 days/);
  });

  it('honours --from/--to and --interval', () => {
    const r = backtestFromArgs(['--data', data, '--symbol', 'BTCUSDT', '--strategy', 'grid', '--params', params, '--from', '2024-01-02', '--to', '2024-01-09', '--interval', '4h']);
    expect(r.report.candleCount).toBe(7 * 24);
    expect(r.report.intervalMs).toBe(4 * 3_600_000);
  });

  it.each([
    [['--symbol', 'BTCUSDT'], /--data is required/],
    [['--data', data, '--symbol', 'BTC-USDT', '--strategy', 'grid', '--params', params], /Invalid symbol format/],
    [['--data', data, '--symbol', 'BTCUSDT', '--strategy', 'nope', '--params', params], /Unknown strategy type "nope"/],
    [['--data', data, '--symbol', 'BTCUSDT', '--strategy', 'grid', '--params', '{"capital":5}'], /--params: capital/],
    [['--data', data, '--symbol', 'BTCUSDT', '--strategy', 'grid', '--params', '[1]'], /must be a JSON object/],
    [['--data', join(dir, 'missing.csv'), '--symbol', 'BTCUSDT', '--strategy', 'grid', '--params', params], /cannot read .*missing\.csv/],
    [['--data', data, '--symbol', 'BTCUSDT', '--strategy', 'grid', '--params', params, '--from', 'yesterday'], /--from is not an ISO date/],
    [['--data', data, '--symbol', 'BTCUSDT', '--strategy', 'grid', '--params', params, '--interval', '2h'], /Unknown interval/],
    [['--data', data, '--symbol', 'BTCUSDT', '--strategy', 'grid', '--params', params, '--from', '2030-01-01'], /no candles/],
  ])('rejects bad input %#', (argv, message) => {
    expect(() => backtestFromArgs(argv)).toThrow(CliError);
    expect(() => backtestFromArgs(argv)).toThrow(message);
  });
});
