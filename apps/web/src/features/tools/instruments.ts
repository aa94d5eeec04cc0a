// The calculators' instruments from the server's currency list (contracts market.ts `instrument`
// facts), merged over the local catalog. Pure; unit-tested in apps/web/test/tools.test.ts.
import type { CurrencyItem } from '@lq/contracts';
import { LOCAL_INSTRUMENTS, type CalcInstrument, type CalcMarket } from './calc';

/** Server items (any shape the list may take) → calculator instruments of `market`. */
export function instrumentsFrom(data: unknown, market: CalcMarket): CalcInstrument[] {
  const list = Array.isArray(data) ? data : Array.isArray((data as { list?: unknown } | null)?.list) ? (data as { list: unknown[] }).list : [];
  const out: CalcInstrument[] = [];
  for (const raw of list as Partial<CurrencyItem>[]) {
    const i = raw?.instrument;
    if (!raw || typeof raw.symbol !== 'string' || !i || typeof i !== 'object') continue;
    if (![i.tickSize, i.contractSize, i.minQty, i.qtyStep].every((n) => typeof n === 'number' && n > 0)) continue;
    const local = LOCAL_INSTRUMENTS.find((l) => l.symbol === raw.symbol);
    const item: CalcInstrument = {
      symbol: raw.symbol,
      market: i.market === 'forex' || i.market === 'crypto' ? i.market : market,
      quote: typeof i.quote === 'string' ? i.quote : market === 'crypto' ? 'USDT' : 'USD',
      tickSize: i.tickSize,
      digits: typeof i.digits === 'number' ? i.digits : 2,
      contractSize: i.contractSize,
      minQty: i.minQty,
      qtyStep: i.qtyStep,
    };
    if (typeof i.maxLeverage === 'number') item.maxLeverage = i.maxLeverage;
    if (local?.maintenanceMarginRate !== undefined) item.maintenanceMarginRate = local.maintenanceMarginRate;
    if (item.market === market) out.push(item);
  }
  return out;
}

/** The server's instruments first, then local ones it does not list. */
export function mergeInstruments(server: CalcInstrument[], market: CalcMarket): CalcInstrument[] {
  const seen = new Set(server.map((s) => s.symbol));
  return [...server, ...LOCAL_INSTRUMENTS.filter((l) => l.market === market && !seen.has(l.symbol))];
}
