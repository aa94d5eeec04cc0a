// `npm run recommend -- --data <file> --symbol <SYMBOL> --strategy <type> --capital <n>
//   [--budget <candidates>] [--seed <n>] [--from <iso>] [--to <iso>] [--interval <1m…1d>]
//   [--params <json>] [--threads <n>] [--json]`
// Prints the conservative / balanced / aggressive presets; a progress bar goes to stderr.
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { STRATEGY_TYPES, parseIsoMs } from '@lq/strategies';
import { CandleFileError } from '@lq/workers';
import { RecommendError, recommend, type RecommendOptions, type RecommendResult } from '../../../packages/workers/src/recommend';

export class UsageError extends Error {}

const USAGE =
  'usage: npm run recommend -- --data <file> --symbol <SYMBOL> --strategy <type> --capital <n> [--budget <n>] [--seed <n>] [--from <iso>] [--to <iso>] [--interval <1m|5m|15m|30m|1h|4h|1d>] [--params <json>] [--threads <n>] [--json]';

export interface CliOptions {
  readonly options: RecommendOptions;
  readonly json: boolean;
}

function positiveNumber(name: string, text: string | undefined, integer: boolean): number | undefined {
  if (text === undefined) return undefined;
  const v = Number(text);
  if (!Number.isFinite(v) || v < 0 || (integer && !Number.isInteger(v))) throw new UsageError(`--${name} must be a ${integer ? 'non-negative integer' : 'number'}, got "${text}"`);
  return v;
}

function isoMs(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseIsoMs(text);
  if (Number.isNaN(ms)) throw new UsageError(`--${name} is not an ISO date: "${text}"`);
  return ms;
}

export function parseCli(argv: readonly string[]): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        data: { type: 'string' },
        symbol: { type: 'string' },
        strategy: { type: 'string' },
        capital: { type: 'string' },
        budget: { type: 'string' },
        seed: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        interval: { type: 'string' },
        params: { type: 'string' },
        threads: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    }));
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0]);
  }
  for (const required of ['data', 'symbol', 'strategy', 'capital'] as const) {
    if (values[required] === undefined) throw new UsageError(`--${required} is required`);
  }
  if (!(STRATEGY_TYPES as readonly string[]).includes(values.strategy!)) {
    throw new UsageError(`unknown --strategy "${values.strategy}" (one of ${STRATEGY_TYPES.join(', ')})`);
  }
  const capital = positiveNumber('capital', values.capital, false)!;
  if (capital < 1000) throw new UsageError('--capital must be at least 1000');
  const budget = positiveNumber('budget', values.budget, true);
  if (budget === 0) throw new UsageError('--budget must be at least 1');
  let params: Record<string, unknown> = {};
  if (values.params !== undefined) {
    try {
      params = JSON.parse(values.params) as Record<string, unknown>;
    } catch {
      throw new UsageError('--params is not valid JSON');
    }
    if (typeof params !== 'object' || params === null || Array.isArray(params)) throw new UsageError('--params must be a JSON object');
  }
  if (values.interval !== undefined) params = { ...params, interval: values.interval };
  const fromMs = isoMs('from', values.from);
  const toMs = isoMs('to', values.to);
  if (fromMs !== undefined && toMs !== undefined && fromMs >= toMs) throw new UsageError('--from must be before --to');
  return {
    json: values.json === true,
    options: {
      dataPath: values.data!,
      symbol: values.symbol!.toUpperCase(),
      strategy: values.strategy!,
      capital,
      budget,
      seed: positiveNumber('seed', values.seed, true),
      fromMs,
      toMs,
      threads: positiveNumber('threads', values.threads, true),
      params,
    },
  };
}

const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(2)}%` : '—');
const num = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '—');

export function formatResult(r: RecommendResult): string {
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
  const lines = [
    `${r.strategy} on ${r.symbol}, capital ${r.capital}, interval ${r.interval}, seed ${r.seed}`,
    `in-sample ${iso(r.inSample.fromMs)} → ${iso(r.inSample.toMs)}, out-of-sample → ${iso(r.outOfSample.toMs)}`,
    `${r.evaluated} candidates (${r.accepted} accepted; rejected: ${Object.entries(r.rejected)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}), ${r.validated} validated, ${r.seconds.toFixed(1)} s on ${r.threads || 1} thread(s)`,
  ];
  if (r.presets.length === 0) {
    lines.push('', 'no preset: every candidate liquidated, lacked capital or traded too rarely — widen the range or raise the capital');
    return lines.join('\n');
  }
  const header = ['preset', 'part', 'return', 'max DD', 'win rate', 'trades', 'sharpe', 'status'];
  const rows: string[][] = [];
  for (const p of r.presets) {
    for (const [part, m] of [
      ['in-sample', p.inSample],
      ['out-of-sample', p.outOfSample],
    ] as const) {
      rows.push([part === 'in-sample' ? p.tier : '', part, pct(m.totalReturn), pct(m.maxDrawdown), pct(m.winRate), String(m.tradeCount), num(m.sharpe), String(m.status)]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const fmt = (row: string[]) => row.map((cell, i) => cell.padEnd(widths[i])).join('  ');
  lines.push('', fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt), '');
  for (const p of r.presets) {
    lines.push(`${p.tier}${p.validated ? '' : ' (not validated: every candidate failed out-of-sample)'}: ${JSON.stringify(p.searched)}`);
    if (p.ai) {
      lines.push(
        `  AI indicator hit rate ${pct(p.ai.inSample.hitRate)} in-sample (base rate ${pct(p.ai.inSample.baseRate)}), ${pct(p.ai.outOfSample.hitRate)} out-of-sample (base rate ${pct(p.ai.outOfSample.baseRate)})`,
      );
    }
  }
  return lines.join('\n');
}

function progressBar(percent: number): string {
  const width = 30;
  const filled = Math.round((percent / 100) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(percent).padStart(3)}%`;
}

export async function main(argv: readonly string[]): Promise<number> {
  let cli: CliOptions;
  try {
    cli = parseCli(argv);
  } catch (e) {
    process.stderr.write(`error: ${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const tty = process.stderr.isTTY === true;
  let lastLine = -1;
  const onProgress = (p: number) => {
    if (tty) process.stderr.write(`\r${progressBar(p)}`);
    else if (Math.floor(p / 10) > lastLine) {
      lastLine = Math.floor(p / 10);
      process.stderr.write(`${progressBar(p)}\n`);
    }
  };
  try {
    const result = await recommend(cli.options, onProgress);
    if (tty) process.stderr.write('\n');
    process.stdout.write(cli.json ? `${JSON.stringify(result)}\n` : `${formatResult(result)}\n`);
    return 0;
  } catch (e) {
    if (tty) process.stderr.write('\n');
    const expected = e instanceof RecommendError || e instanceof CandleFileError || (e as Error).name === 'InstrumentError';
    process.stderr.write(`error: ${(e as Error).message.split('\n')[0]}\n`);
    return expected ? 2 : 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2));
}
