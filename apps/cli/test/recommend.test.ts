import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCli, UsageError } from '../src/recommend';

const repoRoot = resolve(import.meta.dirname, '../../..');
const sharedDir = process.env.SHARED_DIR ?? resolve(repoRoot, '../shared');
const eth = resolve(sharedDir, 'data/binance_ETHUSDT_1m.csv.gz');
const required = ['--data', eth, '--symbol', 'ETHUSDT', '--strategy', 'grid', '--capital', '10000'];

function cli(args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'apps/cli/src/recommend.ts', ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
}

describe('recommend command line', () => {
  it('parses the options', () => {
    const { options, json } = parseCli([...required, '--budget', '20', '--seed', '3', '--from', '2021-05-20', '--to', '2021-06-01T00:00Z', '--interval', '15m', '--json']);
    expect(json).toBe(true);
    expect(options).toMatchObject({ symbol: 'ETHUSDT', strategy: 'grid', capital: 10_000, budget: 20, seed: 3, params: { interval: '15m' } });
    expect(options.fromMs).toBe(Date.UTC(2021, 4, 20));
    expect(options.toMs).toBe(Date.UTC(2021, 5, 1));
  });

  it.each([
    [['--symbol', 'ETHUSDT', '--strategy', 'grid', '--capital', '10000'], /--data is required/],
    [[...required.slice(0, 4), '--strategy', 'nope', '--capital', '10000'], /unknown --strategy "nope"/],
    [[...required.slice(0, 6), '--capital', '500'], /at least 1000/],
    [[...required, '--budget', '2.5'], /--budget must be a non-negative integer/],
    [[...required, '--from', 'yesterday'], /--from is not an ISO date/],
    [[...required, '--from', '2021-06-01', '--to', '2021-05-01'], /--from must be before --to/],
    [[...required, '--params', '{oops'], /--params is not valid JSON/],
    [[...required, '--bogus'], /Unknown option '--bogus'/],
  ])('rejects bad arguments %#', (args, message) => {
    expect(() => parseCli(args)).toThrow(UsageError);
    expect(() => parseCli(args)).toThrow(message);
  });

  it('prints three presets as JSON and a progress bar on stderr', () => {
    const run = cli([...required, '--from', '2021-05-16', '--to', '2021-05-30', '--interval', '15m', '--budget', '12', '--threads', '1', '--json']);
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { presets: { tier: string; params: unknown; inSample: unknown; outOfSample: unknown }[] };
    expect(result.presets.map((p) => p.tier)).toEqual(['conservative', 'balanced', 'aggressive']);
    for (const preset of result.presets) {
      expect(preset.params).toMatchObject({ symbol: 'ETHUSDT', capital: 10_000, interval: '15m' });
      expect(preset.inSample).toHaveProperty('totalReturn');
      expect(preset.outOfSample).toHaveProperty('maxDrawdown');
    }
    expect(run.stderr).toContain('100%');
  });

  it('exits 2 with one line for bad arguments and for a missing file', () => {
    const bad = cli(['--symbol', 'ETHUSDT']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.split('\n')[0]).toMatch(/^error: --data is required$/);
    expect(bad.stdout).toBe('');
    const missing = cli([...required.map((a) => (a === eth ? '/nonexistent/file.csv' : a))]);
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim()).toMatch(/^error: cannot read \/nonexistent\/file\.csv/);
  });
});
