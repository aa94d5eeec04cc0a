// What a backtest and a robot are set up with, checked the same way for both: the market of a
// data source, the strategy and instrument of that market, and the strategy's parameters (spec §5
// sizes snapped to the instrument's step with a notice). Both areas import this module; neither
// owns it.
import { AppError, DATA_SOURCES, translate, type Locale, type SizeNotice } from '@lq/contracts';
import { getInstrument, InstrumentError, isVenueName, minOrderQty, type Instrument, type VenueName } from '@lq/engine';
import {
  checkSizes,
  getStrategy,
  isStrategyType,
  qtyRulesFor,
  SIZE_FIELDS,
  StrategyParamError,
  SYMBOL_PATTERN,
  type StrategyDefinition,
  type UnitName,
} from '@lq/strategies';
import { invalid, RequestValidationError } from '../platform/http';

export type Market = 'crypto' | 'forex';

/** The venue whose order sizes apply to a data source or a trading account's exchange. */
export function venueOf(exchange: string): VenueName | undefined {
  return isVenueName(exchange) ? exchange : undefined;
}

/** An open data source's market; DATA_SOURCE_UNKNOWN / MARKET_NOT_OPEN otherwise. */
export function marketOf(dataSource: string): Market {
  const source = DATA_SOURCES.find((s) => s.type === dataSource);
  if (!source) throw new AppError('DATA_SOURCE_UNKNOWN', {}, 'dataSource');
  if (!source.isOpen) throw new AppError('MARKET_NOT_OPEN', {}, 'dataSource');
  return source.market;
}

export function strategyFor(type: string, market: Market): StrategyDefinition {
  if (!isStrategyType(type)) throw invalid(['strategy'], 'validation.unknownStrategy');
  const definition = getStrategy(type);
  if (!definition.markets.includes(market)) {
    throw new AppError('STRATEGY_NOT_FOR_MARKET', { strategy: type, market }, 'strategy');
  }
  return definition;
}

/** The symbol's instrument on `venue` (its order sizes), refused with the field named when unknown. */
export function instrumentFor(symbolText: string, market: Market, venue?: VenueName): Instrument {
  const symbol = symbolText.trim().toUpperCase();
  if (!SYMBOL_PATTERN.test(symbol)) throw new AppError('INVALID_SYMBOL', {}, 'symbol');
  let instrument: Instrument;
  try {
    instrument = getInstrument(symbol, venue);
  } catch (e) {
    if (e instanceof InstrumentError && e.code === 'invalidSymbolFormat') throw new AppError('INVALID_SYMBOL', {}, 'symbol');
    throw new AppError('SYMBOL_NOT_SUPPORTED', { symbol }, 'symbol');
  }
  if (instrument.market !== market) throw new AppError('SYMBOL_NOT_SUPPORTED', { symbol }, 'symbol');
  return instrument;
}

export interface StrategySetup {
  market: Market;
  definition: StrategyDefinition;
  instrument: Instrument;
}

/**
 * Market, strategy and instrument of a create request, each refused with its field named. Sizes
 * follow `venue` (a robot's trading account), by default the data source's own venue.
 */
export function strategySetupOf(input: { dataSource: string; strategy: string; symbol: string }, venue = venueOf(input.dataSource)): StrategySetup {
  const market = marketOf(input.dataSource);
  const definition = strategyFor(input.strategy, market);
  const instrument = instrumentFor(input.symbol, market, venue);
  return { market, definition, instrument };
}

/** `params.market` / `params.symbol`, when given, must be the request's own. */
export function checkParamsMatch(raw: Record<string, unknown>, market: Market, instrument: Instrument): void {
  for (const [name, want] of [
    ['market', market],
    ['symbol', instrument.symbol],
  ] as const) {
    const got = raw[name];
    if (got !== undefined && (typeof got !== 'string' || got.trim().toUpperCase() !== want.toUpperCase())) {
      throw invalid(['params', name], 'validation.mismatch');
    }
  }
}

/** The strategy's schema applied to the raw params (errors under `params.…`). */
export function parseStrategyParams(
  definition: StrategyDefinition,
  raw: Record<string, unknown>,
  market: Market,
  instrument: Instrument,
): Record<string, unknown> {
  const parsed = definition.schema.safeParse({ ...raw, market, symbol: instrument.symbol });
  if (!parsed.success) {
    throw new RequestValidationError(parsed.error.issues.map((i) => ({ ...i, path: ['params', ...i.path] })));
  }
  return { ...(parsed.data as Record<string, unknown>) };
}

/**
 * Spec §5 sizes and the strategy's own checks on validated params (backtests and robots): below the
 * minimum or above the maximum the venue takes is an error, off-step sizes are snapped in place
 * with a notice. With a `price` (robots: the latest), the minimum includes the venue's minimum
 * order value (Binance's MIN_NOTIONAL), so a robot never meets it on its first order.
 */
export function checkStrategyParams(
  params: Record<string, unknown>,
  instrument: Instrument,
  definition: StrategyDefinition,
  locale: Locale,
  price?: number,
): SizeNotice[] {
  // The minimum order value is one more minimum: the shared size check applies it with the step.
  const sizes = price === undefined ? instrument : { ...instrument, minQty: minOrderQty(instrument, price) };
  const unit = (params.unit as UnitName | undefined) ?? 'ZHANG';
  // Limits in the unit the user types (contracts, coins or lots), as the messages name them.
  const typed = (qty: number) => qtyRulesFor({ ...sizes, minQty: qty }, unit).minQty;
  const notices: SizeNotice[] = [];
  for (const n of checkSizes(params, sizes)) {
    if (n.error) {
      throw new AppError(
        'ORDER_SIZE_TOO_SMALL',
        { field: `params.${n.field}`, value: n.value, min: typed(sizes.minQty), symbol: instrument.symbol },
        `params.${n.field}`,
      );
    }
    params[n.field] = n.qty;
    notices.push({
      field: `params.${n.field}`,
      value: n.value,
      qty: n.qty,
      message: translate(locale, 'validation.qtyStepAdjusted', { field: `params.${n.field}`, qty: n.qty }),
    });
  }
  if (instrument.maxQty !== undefined) {
    const max = typed(instrument.maxQty);
    for (const field of SIZE_FIELDS) {
      const value = params[field];
      if (typeof value === 'number' && value > max) {
        throw new AppError('ORDER_SIZE_TOO_LARGE', { field: `params.${field}`, value, max, symbol: instrument.symbol }, `params.${field}`);
      }
    }
  }
  try {
    definition.create(params as never, instrument);
  } catch (e) {
    if (e instanceof StrategyParamError) throw invalid(['params', e.field], e.messageKey);
    throw e;
  }
  return notices;
}
