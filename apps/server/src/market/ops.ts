// Operator commands of the market data service (wired into `npm run ops` by ops/).
import { loadConfig } from '../platform/config';
import { printTable, type OpsCommand, type OpsCommandSet } from '../platform/ops';
import { createDukascopyRun, runDukascopyImport } from './dukascopy';
import { createExchangeRun, EXCHANGES, runExchangeImport, type ExchangeName } from './exchange';
import { importCandleFile, latestImportRuns, MarketImportError } from './imports';
import { listSeries } from './store';

const MARKET_USAGE = `  data:import <file> [--symbol S] [--source name] [--timeframe tf]
                                              import a candle CSV / CSV.gz (common, Binance kline, MT5);
                                              names like binance_BTCUSDT_1m.csv.gz give the defaults
  data:list                                   list the candle series in the store and the latest imports
  data:fetch <binance|okx|dukascopy> <SYMBOL> --from <date> [--to <date>] [--timeframe tf]
                                              fetch missing candles: USDT perpetuals through ccxt,
                                              forex (EURUSD, GBPUSD, USDJPY, XAUUSD) from Dukascopy`;

/** `--name value` flags and positional arguments; unknown flags are refused. */
export function parseFlags(args: string[], known: readonly string[]): { positional: string[]; flags: Record<string, string> } {
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith('--')) {
      const [name, inline] = a.slice(2).split('=', 2);
      if (!known.includes(name)) throw new MarketImportError(`unknown option --${name} (known: ${known.map((k) => `--${k}`).join(', ')})`);
      const value = inline ?? args[++i];
      if (value === undefined || value === '') throw new MarketImportError(`--${name} needs a value`);
      flags[name] = value;
    } else positional.push(a);
  }
  return { positional, flags };
}

const utc = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

function parseDate(text: string, name: string): number {
  const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  if (!Number.isFinite(ms)) throw new MarketImportError(`--${name} "${text}" is not a date (YYYY-MM-DD or ms since epoch)`);
  return ms;
}


const MARKET_COMMANDS: Record<string, OpsCommand> = {
  'data:import': {
    args: -1,
    async run(db, args, out) {
      const { positional, flags } = parseFlags(args, ['symbol', 'source', 'timeframe']);
      if (positional.length !== 1) throw new MarketImportError('usage: data:import <file> [--symbol S] [--source name] [--timeframe tf]');
      let lastShown = -1;
      const r = await importCandleFile(db, {
        file: positional[0],
        symbol: flags.symbol,
        source: flags.source,
        timeframe: flags.timeframe,
        onProgress: (pct, rows) => {
          if (pct >= lastShown + 10 || pct === 100) {
            lastShown = pct;
            out(`${String(pct).padStart(3)}%  ${rows} rows`);
          }
        },
      });
      out(
        `imported ${r.rows} candles of ${r.key.source} ${r.key.symbol} ${r.key.timeframe} ` +
          `(${utc(r.firstTime)} → ${utc(r.lastTime)} UTC) in ${r.seconds.toFixed(1)} s (run ${r.runId})`,
      );
    },
  },
  'data:list': {
    args: 0,
    async run(db, _args, out) {
      const series = await listSeries(db);
      if (series.length === 0) out('no candles in the store (import some with data:import, or set MARKET_DATA_DIR)');
      else
        printTable(
          [
            ['source', 'symbol', 'timeframe', 'first (UTC)', 'last (UTC)', 'candles'],
            ...series.map((s) => [s.source, s.symbol, s.timeframe, utc(s.firstTime), utc(s.lastTime), String(s.count)]),
          ],
          out,
        );
      const runs = await latestImportRuns(db, 10);
      if (runs.length > 0) {
        out('');
        out('latest imports:');
        printTable(
          [
            ['id', 'kind', 'series', 'status', 'progress', 'rows', 'updated (UTC)', 'message'],
            ...runs.map((r) => [
              String(r.id),
              r.kind,
              `${r.source} ${r.symbol} ${r.timeframe}`,
              r.status,
              `${r.progress}%`,
              String(r.rows),
              utc(r.updatedAt.getTime()),
              r.message ?? '',
            ]),
          ],
          out,
        );
      }
    },
  },
  'data:fetch': {
    args: -1,
    async run(db, args, out) {
      const { positional, flags } = parseFlags(args, ['from', 'to', 'timeframe', 'api']);
      const [exchange, symbol] = positional;
      if (positional.length !== 2 || !flags.from) {
        throw new MarketImportError('usage: data:fetch <binance|okx|dukascopy> <SYMBOL> --from <date> [--to <date>] [--timeframe tf]');
      }
      if (![...EXCHANGES, 'dukascopy'].includes(exchange)) {
        throw new MarketImportError(`source must be one of ${[...EXCHANGES, 'dukascopy'].join(', ')}`);
      }
      const config = loadConfig();
      const request = {
        symbol,
        timeframe: flags.timeframe ?? '1m',
        fromMs: parseDate(flags.from, 'from'),
        toMs: flags.to ? parseDate(flags.to, 'to') : Date.now(),
      };
      let lastShown = -1;
      const onProgress = (pct: number, rows: number) => {
        if (pct >= lastShown + 10) {
          lastShown = pct;
          out(`${String(pct).padStart(3)}%  ${rows} rows`);
        }
      };
      const quiet = { info: () => undefined, warn: () => undefined };
      let runId: number;
      let r: { status: string; rows: number; message?: string };
      if (exchange === 'dukascopy') {
        runId = await createDukascopyRun(db, { ...request, apiOrigin: flags.api ?? config.MARKET_DUKASCOPY_URL });
        r = await runDukascopyImport(db, runId, quiet, { onProgress });
      } else {
        const apiOrigin = flags.api ?? (exchange === 'okx' ? config.MARKET_OKX_URL : config.MARKET_BINANCE_URL);
        runId = await createExchangeRun(db, { exchange: exchange as ExchangeName, ...request, apiOrigin });
        r = await runExchangeImport(db, { runId }, quiet, { onProgress });
      }
      if (r.status === 'failed') throw new MarketImportError(`${r.message ?? 'failed'} (run ${runId})`);
      out(`fetched ${r.rows} candles (run ${runId})`);
    },
  },
};

export const MARKET_OPS: OpsCommandSet = { usage: MARKET_USAGE, commands: MARKET_COMMANDS };
