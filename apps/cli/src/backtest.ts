// `npm run backtest -- --data <file.csv[.gz]> --symbol <SYMBOL> --strategy <type> --params <json>
//    [--from <iso>] [--to <iso>] [--interval 1h] [--json] [--fills]`
// Runs one backtest and prints the report (a table, or one JSON object with --json).
// Bad arguments, parameters or data → one line on stderr naming the problem, exit code 2.
import { pathToFileURL } from 'node:url';
import {
  InstrumentError,
  getInstrument,
  intervalName,
  prepareCandles,
  runBacktest,
  type BacktestConfig,
  type BacktestReport,
  type Instrument,
} from '@lq/engine';
import { computeAiSignal, scoreAiSignal } from '../../../packages/engine/src/ai/index';
import { getStrategy, needsAi, runSettings, type SideModeName } from '@lq/strategies';
import { CandleFileError, loadCandlesFile } from '@lq/workers';
import { CliError, intervalArg, isoArg, jsonObjectArg, parseStrict, requireArg, runMain, toJson } from './args';

export const USAGE =
  'usage: npm run backtest -- --data <file.csv[.gz]> --symbol <SYMBOL> --strategy <type> --params <json> [--from <iso>] [--to <iso>] [--interval <1m|5m|15m|30m|1h|4h|1d>] [--json] [--fills]';

export interface BacktestCliResult {
  report: BacktestReport;
  params: Record<string, unknown>;
  ai: { hitRate: number; baseRate: number; predictions: number } | null;
}

function instrumentArg(symbol: string): Instrument {
  try {
    return getInstrument(symbol);
  } catch (e) {
    if (e instanceof InstrumentError) throw new CliError(`--symbol ${symbol}: ${e.message}`);
    throw e;
  }
}

/** Parses the arguments, loads the data, runs the backtest. Throws CliError for any user error. */
export function backtestFromArgs(argv: readonly string[]): BacktestCliResult & { json: boolean; fills: boolean } {
  const v = parseStrict(argv, {
    data: { type: 'string' },
    symbol: { type: 'string' },
    strategy: { type: 'string' },
    params: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    interval: { type: 'string' },
    json: { type: 'boolean', default: false },
    fills: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  });
  if (v.help) throw new CliError(USAGE);
  const data = requireArg(v, 'data');
  const instrument = instrumentArg(requireArg(v, 'symbol'));
  let definition;
  try {
    definition = getStrategy(requireArg(v, 'strategy'));
  } catch (e) {
    throw new CliError(`--strategy: ${(e as Error).message}`);
  }
  if (!definition.markets.includes(instrument.market)) {
    throw new CliError(`--strategy ${definition.type} does not trade ${instrument.market} (${instrument.symbol}); it trades ${definition.markets.join(', ')}`);
  }
  const raw = jsonObjectArg('params', v.params);
  const fromMs = isoArg('from', v.from);
  const toMs = isoArg('to', v.to);
  intervalArg(v.interval);
  if (raw.symbol !== undefined && (typeof raw.symbol !== 'string' || raw.symbol.toUpperCase() !== instrument.symbol)) {
    throw new CliError(`--params symbol ${JSON.stringify(raw.symbol)} differs from --symbol ${instrument.symbol}`);
  }
  const input: Record<string, unknown> = {
    market: instrument.market,
    ...raw,
    symbol: instrument.symbol,
    ...(v.interval !== undefined ? { interval: v.interval } : {}),
  };
  const parsed = definition.schema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue.path.join('.');
    const got = path && path in input ? ` (got ${JSON.stringify(input[path])})` : '';
    throw new CliError(`--params: ${path || '(root)'}: ${issue.message}${got}`);
  }
  const params = parsed.data as Record<string, unknown>;
  let strategy;
  try {
    strategy = definition.create(parsed.data, instrument);
  } catch (e) {
    throw new CliError(`--params: ${(e as Error).message}`);
  }
  const settings = runSettings(parsed.data, instrument);

  let candles;
  try {
    candles = loadCandlesFile(data);
  } catch (e) {
    if (e instanceof CandleFileError) throw new CliError(e.message);
    throw e;
  }
  const config: BacktestConfig = {
    instrument,
    candles,
    intervalMs: settings.intervalMs ?? candles.intervalMs,
    capital: settings.capital,
    leverage: settings.leverage,
    makerFee: settings.makerFee,
    takerFee: settings.takerFee,
    spreadPoints: settings.spreadPoints,
    fromMs: fromMs ?? settings.fromMs,
    toMs: toMs ?? settings.toMs,
    utcOffsetMinutes: settings.utcOffsetMinutes,
    recordFills: v.fills === true,
  };
  if (config.intervalMs! < candles.intervalMs || config.intervalMs! % candles.intervalMs !== 0) {
    throw new CliError(`--interval ${intervalName(config.intervalMs!)} is finer than the data (${intervalName(candles.intervalMs)}) or not a multiple of it`);
  }
  const { input: range, decision } = prepareCandles(config);
  if (range.length === 0) throw new CliError(`no candles of ${data} fall in the --from/--to range`);
  // As the API: the candles run on must cover at least BACKTEST_RANGE_MIN_DAYS days.
  const coveredMs = range.time[range.length - 1] + range.intervalMs - range.time[0];
  if (coveredMs < BACKTEST_RANGE_MIN_DAYS * 86_400_000) {
    throw new CliError(
      `the range must cover at least ${BACKTEST_RANGE_MIN_DAYS} days of candles; ${iso(range.time[0])} – ${iso(range.time[range.length - 1] + range.intervalMs)} is ${num(coveredMs / 86_400_000, 1)} days`,
    );
  }

  let ai: BacktestCliResult['ai'] = null;
  let aiConfig = config;
  if (needsAi({ side: params.side as SideModeName, useAiIndicator: params.useAiIndicator === true })) {
    const result = computeAiSignal(decision, { seed: 1 });
    const score = scoreAiSignal(decision.close, result.signal.signal, 12, 0, decision.length);
    ai = { hitRate: score.hitRate, baseRate: score.baseRate, predictions: score.predictions };
    aiConfig = { ...config, ai: result.signal };
  }
  const report = runBacktest(strategy, aiConfig);
  return { report, params, ai, json: v.json === true, fills: v.fills === true };
}

/** As the API's BACKTEST_RANGE_MIN_DAYS (packages/contracts; the CLI stays off contracts). */
const BACKTEST_RANGE_MIN_DAYS = 7;

const iso = (ms: number) => (Number.isFinite(ms) ? new Date(ms).toISOString().replace('.000Z', 'Z') : '-');
const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
const num = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : String(x));

export function formatReport(r: BacktestReport, ai: BacktestCliResult['ai'], maxTrades = 40): string {
  const STATUS = { 1: 'running', 2: 'success', 3: 'fail', 4: 'liquidate', 5: 'capital' } as const;
  const rows: [string, string][] = [
    ['status', `${r.status} ${STATUS[r.status]} — ${r.statusReason}`],
    ['symbol / interval', `${r.symbol} ${intervalName(r.intervalMs)} decisions on ${intervalName(r.inputIntervalMs)} candles`],
    ['range', `${iso(r.fromMs)} → ${iso(r.toMs)} (${r.candleCount} candles)`],
    ['capital', num(r.capital)],
    ['finalEquity', num(r.finalEquity)],
    ['totalReturn', pct(r.totalReturn)],
    ['annualisedReturn', pct(r.annualisedReturn)],
    ['tradeCount', String(r.tradeCount)],
    ['winRate', pct(r.winRate)],
    ['maxDrawdown', pct(r.maxDrawdown)],
    ['drawdownAmount', num(r.drawdownAmount)],
    ['maxFloatingLoss', num(r.maxFloatingLoss)],
    ['maxFloatingProfit', num(r.maxFloatingProfit)],
    ['riskReward', num(r.riskReward)],
    ['profitFactor', num(r.profitFactor)],
    ['expectancy', num(r.expectancy)],
    ['totalFees', num(r.totalFees)],
    ['realisedPnl', num(r.realisedPnl)],
    ['floatingPnl', num(r.floatingPnl)],
    ['sharpe', num(r.sharpe)],
    ['sortino', num(r.sortino)],
    ['calmar', num(r.calmar)],
    ['exposureTime', pct(r.exposureTime)],
    ['longestDrawdown', `${num(r.longestDrawdownMs / 86_400_000)} days`],
    ['openTickets', String(r.openTickets.length)],
  ];
  if (ai) rows.push(['AI hit rate / base rate', `${pct(ai.hitRate)} / ${pct(ai.baseRate)} (${ai.predictions} predictions)`]);
  const w = Math.max(...rows.map(([k]) => k.length));
  const lines = rows.map(([k, val]) => `${k.padEnd(w)}  ${val}`);
  if (r.monthlyReturns.length > 0) {
    lines.push('', 'monthly returns: ' + r.monthlyReturns.map((m) => `${m.month} ${pct(m.return)}`).join(' · '));
  }
  lines.push('', `trades (${r.trades.length}${r.trades.length > maxTrades ? `, first ${maxTrades}; --json for all` : ''}):`);
  lines.push('side   lots        entry time            entry price    exit time             exit price     pnl          fee        reason');
  for (const t of r.trades.slice(0, maxTrades)) {
    lines.push(
      [
        t.side.padEnd(6),
        String(t.lots).padEnd(11),
        iso(t.entryTime).padEnd(21),
        String(t.entryPrice).padEnd(14),
        iso(t.exitTime).padEnd(21),
        String(t.exitPrice).padEnd(14),
        num(t.pnl).padEnd(12),
        num(t.fee, 4).padEnd(10),
        t.reason,
      ].join(' '),
    );
  }
  return lines.join('\n');
}

function main(): void {
  const { report, params, ai, json, fills } = backtestFromArgs(process.argv.slice(2));
  if (json) {
    const out = fills ? report : { ...report, fills: undefined };
    process.stdout.write(toJson({ ...out, params, ai }) + '\n');
  } else {
    process.stdout.write(formatReport(report, ai) + '\n');
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runMain(main);
