// The reference data behind the spec §7 calls: strategies per market, intervals, symbols with data
// ranges, contract info, and the market data status. Pure functions over the registry, the
// instrument catalog and the candle store; the routes only validate and wrap.
import {
  DATA_SOURCES,
  TACTICS_INTERVALS,
  type ContractInfo,
  type CurrencyItem,
  type DictItem,
  type MarketDataStatus,
  type TacticsItem,
  type InstrumentFacts,
} from '@lq/contracts';
import type { DatabaseHandle } from '@lq/db';
import { getInstrument, venuesOf, type Instrument, type VenueName } from '@lq/engine';
import { STRATEGY_TYPES, strategies } from '@lq/strategies';
import { latestImportRuns } from './imports';
import { isLiveSource, listSeries } from './store';

export type Market = 'crypto' | 'forex';

/** The market of an open data source (mt5 → forex, binance → crypto); undefined when unknown or not open. */
export function marketOfDataSource(dataSource: string): { market: Market; open: boolean } | undefined {
  const s = DATA_SOURCES.find((d) => d.type === dataSource.trim().toLowerCase());
  return s ? { market: s.market, open: s.isOpen } : undefined;
}

/**
 * The create-order page a strategy uses in a market: its `<market>_…` page (crypto_grid,
 * forex_dmy, …), else a market-neutral page (prt, irl); undefined when the spec has no page for it
 * there (blue-bands has only crypto_blue, so forex does not offer it).
 */
export function pageFor(pages: readonly string[], market: Market): string | undefined {
  return pages.find((p) => p.startsWith(`${market}_`)) ?? pages.find((p) => !/^(crypto|forex)_/.test(p));
}

/** Strategies a market offers, in registry order. Backtests and robots offer the same set. */
export function tacticsFor(market: Market): TacticsItem[] {
  const out: TacticsItem[] = [];
  for (const type of STRATEGY_TYPES) {
    const def = strategies[type];
    if (!def.markets.includes(market)) continue;
    const page = pageFor(def.pages, market);
    if (page) out.push({ type, nameKey: def.displayNameKey, page });
  }
  return out;
}

export const tacticsIntervals = (): DictItem[] => TACTICS_INTERVALS.map((v) => ({ label: v, value: v }));

function instrumentOrUndefined(symbol: string, venue?: VenueName): Instrument | undefined {
  try {
    return getInstrument(symbol, venue);
  } catch {
    return undefined;
  }
}

/** What the forms and calculators need of an instrument: its sizes on `venue` and on the market's other venues. */
export function instrumentFactsOf(inst: Instrument): InstrumentFacts {
  const facts: InstrumentFacts = {
    market: inst.market,
    quote: inst.quote,
    tickSize: inst.tickSize,
    digits: inst.digits,
    contractSize: inst.contractSize,
    minQty: inst.minQty,
    qtyStep: inst.qtyStep,
    maxLeverage: inst.maxLeverage,
    ...(inst.maxQty !== undefined ? { maxQty: inst.maxQty } : {}),
    ...(inst.venue ? { venue: inst.venue, minNotional: inst.minNotional ?? 0 } : {}),
  };
  const venueSizes = venuesOf(inst.symbol).map((venue) => {
    const v = getInstrument(inst.symbol, venue);
    return { venue, minQty: v.minQty, qtyStep: v.qtyStep, ...(v.maxQty !== undefined ? { maxQty: v.maxQty } : {}), minNotional: v.minNotional ?? 0 };
  });
  if (venueSizes.length > 0) facts.venueSizes = venueSizes;
  return facts;
}

/** Symbols of a market that have candles in the store, with their data ranges and instrument facts. */
export async function currencyList(
  database: DatabaseHandle,
  market: Market,
  candleSource?: string,
  /** The data source's venue: the sizes shown are the ones it takes. */
  venue?: VenueName,
): Promise<CurrencyItem[]> {
  const bySymbol = new Map<string, CurrencyItem>();
  for (const s of await listSeries(database)) {
    // Data ranges are imported history; live-recorded candles do not move them.
    if (isLiveSource(s.source) || (candleSource && s.source !== candleSource)) continue;
    const inst = instrumentOrUndefined(s.symbol, venue);
    if (!inst || inst.market !== market) continue;
    let item = bySymbol.get(inst.symbol);
    if (!item) {
      item = {
        symbol: inst.symbol,
        instrument: instrumentFactsOf(inst),
        ranges: [],
      };
      bySymbol.set(inst.symbol, item);
    }
    item.ranges.push({ source: s.source, timeframe: s.timeframe, firstTime: s.firstTime, lastTime: s.lastTime, count: s.count });
  }
  return [...bySymbol.values()].sort((a, b) => a.symbol.localeCompare(b.symbol));
}

/** BTC-USDT-SWAP, BTC-USDT, btcusdt → BTCUSDT; anything else as upper case. */
export function symbolOfInstId(instId: string): string {
  const parts = instId.trim().toUpperCase().split('-');
  if (parts.length === 3 && parts[2] === 'SWAP') return parts[0] + parts[1];
  if (parts.length === 2) return parts[0] + parts[1];
  return parts.join('');
}

const decimal = (x: number) => (Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(12))));

/** Contract info of spec §7 from the instrument catalog; null for an instrument it does not know. */
export function contractInfoOf(instId: string): ContractInfo {
  const inst = instrumentOrUndefined(symbolOfInstId(instId));
  if (!inst) return null;
  return {
    instId: inst.market === 'crypto' ? `${inst.symbol.slice(0, -4)}-USDT-SWAP` : inst.symbol,
    ctVal: decimal(inst.contractSize),
    ctMult: '1',
    minSz: decimal(inst.minQty),
  };
}

export const CONTRACT_INFO_TTL_MS = 24 * 60 * 60 * 1000;

/** Contract info cached one day per instId (spec §7), hits and misses alike. */
export class ContractInfoCache {
  private readonly entries = new Map<string, { value: ContractInfo; expires: number }>();
  constructor(
    private readonly lookup: (instId: string) => ContractInfo = contractInfoOf,
    private readonly ttlMs = CONTRACT_INFO_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get(instId: string): { value: ContractInfo; cached: boolean } {
    const key = instId.trim().toUpperCase();
    const hit = this.entries.get(key);
    if (hit && hit.expires > this.now()) return { value: hit.value, cached: true };
    const value = this.lookup(key);
    if (this.entries.size > 10_000) this.entries.clear();
    this.entries.set(key, { value, expires: this.now() + this.ttlMs });
    return { value, cached: false };
  }
}

/** Series in the store, the newest import runs and each candle source's latest outcome. */
export async function marketStatus(database: DatabaseHandle): Promise<MarketDataStatus> {
  const [series, runs, latest] = await Promise.all([
    listSeries(database),
    latestImportRuns(database, 20),
    database.exec<{ source: string; kind: string; status: string; message: string | null; updated_at: Date | string }>(
      `select distinct on (source) source, kind, status, message, updated_at
         from market_imports order by source, id desc`,
    ),
  ]);
  const iso = (d: Date | string) => new Date(d).toISOString();
  // Messages may name server paths (file imports); the page needs the file name only.
  const plain = (kind: string, m: string | null) => (m === null || kind !== 'file' ? m : m.replace(/(?:[A-Za-z]:)?[\\/](?:[^\s:\\/]+[\\/])+([^\s:\\/]+)/g, '$1'));
  return {
    series: series.map((s) => ({ ...s })),
    imports: runs.map((r) => ({
      id: r.id,
      kind: r.kind,
      source: r.source,
      symbol: r.symbol,
      timeframe: r.timeframe,
      status: r.status,
      progress: r.progress,
      rows: r.rows,
      message: plain(r.kind, r.message),
      updatedAt: iso(r.updatedAt),
    })),
    sources: latest.map((l) => ({ source: l.source, status: l.status, message: plain(l.kind, l.message), updatedAt: iso(l.updated_at) })),
  };
}
