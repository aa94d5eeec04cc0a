// Benefits (spec §2 pages/equity/index, monthEquityPay, pages/pay/pay; §6 basic rights; §9;
// business.md "Benefits, seats and slots"): the one-time basic unlock and monthly packs of account
// seats and backtest slots per market, paid from the balance wallet. Prices are money (decimal
// strings, 6 places on the way out), kept in the database and set by the operator.
import { z } from 'zod';
import { ACCOUNT_MARKETS } from './account';
import { idempotencyKey, moneyAmount } from './wallet';

/** What can be bought: the basic unlock, and packs of account seats or backtest slots. */
export const BENEFIT_ITEMS = ['unlock', 'seat', 'slot'] as const;
export type BenefitItem = (typeof BENEFIT_ITEMS)[number];
export const PACK_KINDS = ['seat', 'slot'] as const;
export type PackKind = (typeof PACK_KINDS)[number];
export const BENEFIT_MARKETS = ACCOUNT_MARKETS;

/** Spec §9: basic unlock 100 Lightning; a seat (and a slot) about 10 Lightning per month. The catalogue's first prices. */
export const BENEFIT_PRICE_DEFAULTS: Record<BenefitItem, string> = { unlock: '100', seat: '10', slot: '10' };
export const PACK_MONTHS = { min: 1, max: 12 } as const;
export const PACK_QUANTITY = { min: 1, max: 1000 } as const;
/** A month of a pack is 30 days of 24 hours (business.md: "valid 30 days"), whatever the calendar. */
export const PACK_DAYS_PER_MONTH = 30;
/**
 * Renewals as the agreement says (issue 53 item 5): one period of PACK_DAYS_PER_MONTH days at the
 * price shown when auto-renew was switched on; a higher price reaches a renewal only when its owner
 * was told at least this many days before (notification pack.priceChange). A lower one at once.
 */
export const PRICE_CHANGE_NOTICE_DAYS = 7;
/** The unlock gives this many seats and slots on each market. */
export const UNLOCK_GIVES = { seat: 1, slot: 1 } as const;

/** The caller's payment password, as the wallet's other payments take it. */
const paidPwd = z.string().min(1).max(64);

export const equityCatalogue = z.object({
  /** Price per item (unlock) or per seat or slot per month (packs). */
  prices: z.object({ unlock: z.string(), seat: z.string(), slot: z.string() }),
  markets: z.array(z.enum(BENEFIT_MARKETS)),
  months: z.object({ min: z.number(), max: z.number() }),
  quantity: z.object({ min: z.number(), max: z.number() }),
  daysPerMonth: z.number(),
});
export type EquityCatalogue = z.infer<typeof equityCatalogue>;

/**
 * The amount the page showed (issue 53 item 6): a price changed since answers 409 PRICE_CHANGED
 * with both amounts and charges nothing. Left out (older clients): today's price is charged.
 */
const expectedAmount = moneyAmount.optional();

/** POST user/api/equity/unlock. */
export const equityUnlockBody = z.strictObject({ paidPwd, idempotencyKey, expectedAmount });
export type EquityUnlockBody = z.infer<typeof equityUnlockBody>;

/** POST user/api/equity/buy: `quantity` seats or slots of `market` for `months` months. */
export const equityBuyBody = z.strictObject({
  kind: z.enum(PACK_KINDS),
  market: z.enum(BENEFIT_MARKETS),
  quantity: z.number().int().min(PACK_QUANTITY.min).max(PACK_QUANTITY.max),
  months: z.number().int().min(PACK_MONTHS.min).max(PACK_MONTHS.max),
  autoRenew: z.boolean().default(false),
  paidPwd,
  idempotencyKey,
  expectedAmount,
});
export type EquityBuyBody = z.infer<typeof equityBuyBody>;

export const PURCHASE_STATES = ['active', 'expired'] as const;
export type PurchaseState = (typeof PURCHASE_STATES)[number];

export const equityPurchase = z.object({
  id: z.number(),
  item: z.enum(BENEFIT_ITEMS),
  /** Null for the unlock (it counts on every market). */
  market: z.enum(BENEFIT_MARKETS).nullable(),
  quantity: z.number(),
  /** Null for the unlock. */
  months: z.number().nullable(),
  /** What was paid. */
  amount: z.string(),
  autoRenew: z.boolean(),
  state: z.enum(PURCHASE_STATES),
  purchasedAt: z.number(),
  /** Null: never (the unlock). */
  expiresAt: z.number().nullable(),
  /** Periods added by auto-renew so far. */
  renewals: z.number(),
  /** The last auto-renewal that failed (the pack then expires), or null. */
  renewalFailedAt: z.number().nullable(),
  /**
   * The next auto-renewal (null: auto-renew off, or the pack expired): when, what it pays for one
   * period, and a higher price the owner was told of with the first renewal it reaches.
   */
  renewal: z
    .object({ at: z.number(), amount: z.string(), priceChange: z.object({ amount: z.string(), from: z.number() }).nullable() })
    .nullable(),
});
export type EquityPurchase = z.infer<typeof equityPurchase>;

export const equityPurchasesQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});
export const equityPurchases = z.object({ list: z.array(equityPurchase), total: z.number() });
export type EquityPurchases = z.infer<typeof equityPurchases>;

/** Seats (or backtest slots) of one market: what the user owns, what is in use, and the next expiry. */
const rightCount = z.object({
  /** The unlock's 1 + live packs + operator grants. */
  owned: z.number(),
  /** Seats: accounts holding a running, paused or stopping robot; slots: backtests running. */
  used: z.number(),
  free: z.number(),
  /** When the soonest live pack (or expiring grant) of this market ends, and how many it takes with it; null: none expires. */
  nextExpiry: z.number().nullable(),
  expiringQuantity: z.number(),
});
export const equityRights = z.object({
  /** The basic rights: bought, or granted by an operator. */
  unlocked: z.boolean(),
  markets: z.array(z.object({ market: z.enum(BENEFIT_MARKETS), seats: rightCount, slots: rightCount })),
});
export type EquityRights = z.infer<typeof equityRights>;

// ---- agreements and auto-renew (spec §2 pages/agreement/monthEquity, autoSubscribe) ----

export const AGREEMENTS = ['monthEquity', 'autoSubscribe'] as const;
export type Agreement = (typeof AGREEMENTS)[number];
/**
 * The version of each agreement's text in force: accepting records it, and a new version must be
 * accepted again (bump it whenever the web's `legal` texts of that agreement change).
 */
export const AGREEMENT_VERSIONS: Record<Agreement, string> = { monthEquity: '2026-11-27', autoSubscribe: '2026-11-27' };

const acceptance = z.object({ version: z.string(), accepted: z.boolean(), acceptedAt: z.number().nullable() });
/** GET user/api/equity/agreements: whether the caller accepted the version in force, and when. */
export const equityAgreements = z.object({ monthEquity: acceptance, autoSubscribe: acceptance });
export type EquityAgreements = z.infer<typeof equityAgreements>;

/** POST user/api/equity/agreements/accept: the version the caller read. */
export const equityAgreementAcceptBody = z.strictObject({ agreement: z.enum(AGREEMENTS), version: z.string().trim().min(1).max(32) });
export type EquityAgreementAcceptBody = z.infer<typeof equityAgreementAcceptBody>;

/** POST user/api/equity/auto-renew: switch auto-renew of one of the caller's active packs; on asks for the payment password, as a purchase does. */
export const equityAutoRenewBody = z
  .strictObject({ id: z.number().int().positive(), autoRenew: z.boolean(), paidPwd: paidPwd.optional() })
  .refine((b) => !b.autoRenew || b.paidPwd !== undefined, { error: 'validation.required', path: ['paidPwd'] });
export type EquityAutoRenewBody = z.infer<typeof equityAutoRenewBody>;
