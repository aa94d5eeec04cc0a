// Order sizes a venue takes, from the server's instrument facts (contracts market.ts): the data
// source's venue, or — for a robot — the venue of the chosen trading account. Pure.

export interface SizeRules {
  minQty: number;
  qtyStep: number;
  maxQty?: number;
  /** Smallest order value in the quote currency (0: none). */
  minNotional: number;
}

export interface SizeFacts {
  minQty?: number;
  qtyStep?: number;
  maxQty?: number;
  minNotional?: number;
  venue?: string;
  venueSizes?: { venue: string; minQty: number; qtyStep: number; maxQty?: number; minNotional: number }[];
}

const positive = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0;

/** The sizes of `venue` when the facts list it, else the facts' own (the data source's venue). */
export function sizeRulesOf(facts: SizeFacts | undefined, venue?: string): SizeRules | undefined {
  if (!facts) return undefined;
  const own = venue ? facts.venueSizes?.find((v) => v.venue === venue) : undefined;
  const src = own ?? facts;
  if (!positive(src.minQty) || !positive(src.qtyStep)) return undefined;
  return {
    minQty: src.minQty,
    qtyStep: src.qtyStep,
    ...(positive(src.maxQty) ? { maxQty: src.maxQty } : {}),
    minNotional: positive(src.minNotional) ? src.minNotional : 0,
  };
}
