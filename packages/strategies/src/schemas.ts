// Every strategy parameter schema, for the web forms, the API and the command line.
// Imports only zod (through the schema files): safe to bundle in the browser.
import { commonMessageKeys, strategyMessageKeys } from './common/schema';
import { blueBandsSchema } from './blue-bands/schema';
import { contrarianMartinSchema } from './contrarian-martin/schema';
import { gridSchema } from './grid/schema';
import { inversionRevertSchema } from './inversion-revert/schema';
import { marcoHuntSchema } from './marco-hunt/schema';
import { pegasusSchema } from './pegasus/schema';
import { purgeRevertSchema } from './purge-revert/schema';
import { singleSchema } from './single/schema';
import { daySingleSchema } from './day-single/schema';
import { monthSingleSchema } from './month-single/schema';
import { weekSingleSchema } from './week-single/schema';

export * from './common/schema';
export * from './single/schema';
export * from './windowed/schema';
export * from './day-single/schema';
export * from './week-single/schema';
export * from './month-single/schema';
export * from './grid/schema';
export * from './contrarian-martin/schema';
export * from './pegasus/schema';
export * from './marco-hunt/schema';
export * from './blue-bands/schema';
export * from './purge-revert/schema';
export * from './inversion-revert/schema';

export const STRATEGY_TYPES = [
  'single',
  'day-single',
  'week-single',
  'month-single',
  'grid',
  'contrarian-martin',
  'pegasus',
  'marco-hunt',
  'blue-bands',
  'purge-revert',
  'inversion-revert',
] as const;
export type StrategyType = (typeof STRATEGY_TYPES)[number];

/** The parameter schema of each strategy type. */
export const strategyParamSchemas = {
  single: singleSchema,
  'day-single': daySingleSchema,
  'week-single': weekSingleSchema,
  'month-single': monthSingleSchema,
  grid: gridSchema,
  'contrarian-martin': contrarianMartinSchema,
  pegasus: pegasusSchema,
  'marco-hunt': marcoHuntSchema,
  'blue-bands': blueBandsSchema,
  'purge-revert': purgeRevertSchema,
  'inversion-revert': inversionRevertSchema,
} as const satisfies Record<StrategyType, unknown>;

export function isStrategyType(value: string): value is StrategyType {
  return (STRATEGY_TYPES as readonly string[]).includes(value);
}

/** Every validation message key these schemas and `checkQty` can produce; the UI and server localize them. */
export const validationMessageKeys = [...commonMessageKeys, ...strategyMessageKeys] as const;
export type ValidationMessageKey = (typeof validationMessageKeys)[number];
