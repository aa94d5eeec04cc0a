// Deposits (spec §2 pages/recharge/recharge, §5 deposit minimum; business.md "Wallet"): USDT sent on
// BEP20 (BNB Smart Chain) or TRC20 (Tron) to the user's own deposit address.
import { z } from 'zod';
import { parseMoney } from './money';
import { idempotencyKey, moneyAmount } from './wallet';

export const DEPOSIT_NETWORKS = ['BEP20', 'TRC20'] as const;
export type DepositNetwork = (typeof DEPOSIT_NETWORKS)[number];

export const rechargeAddressQuery = z.strictObject({ network: z.enum(DEPOSIT_NETWORKS) });
export type RechargeAddressQuery = z.infer<typeof rechargeAddressQuery>;

export const rechargeAddress = z.object({
  network: z.enum(DEPOSIT_NETWORKS),
  /** BEP20: an EVM checksum address (0x…); TRC20: a Tron base58check address (T…). */
  address: z.string(),
  /** The token accepted on that address. */
  token: z.literal('USDT'),
  /** Smallest amount credited (smaller transfers wait until their total reaches it), 6 decimals. */
  minimum: z.string(),
  /** Blocks on top of a transfer's block before it is credited. */
  confirmations: z.number(),
});
export type RechargeAddress = z.infer<typeof rechargeAddress>;

export const DEPOSIT_STATES = ['pending', 'waiting', 'credited'] as const;
export type DepositState = (typeof DEPOSIT_STATES)[number];

export const rechargeListQuery = z.strictObject({
  network: z.enum(DEPOSIT_NETWORKS).optional(),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});
export type RechargeListQuery = z.input<typeof rechargeListQuery>;

export const rechargeItem = z.object({
  id: z.number(),
  network: z.enum(DEPOSIT_NETWORKS),
  txHash: z.string(),
  /** What is (or will be) credited: the transfer rounded down to 6 decimals. */
  amount: z.string(),
  /**
   * pending: on chain, confirmations still coming; waiting: confirmed but below the minimum, credited
   * once the address's waiting transfers reach it; credited: in the balance wallet.
   */
  state: z.enum(DEPOSIT_STATES),
  confirmations: z.number(),
  confirmationsNeeded: z.number(),
  /** When the transfer was first seen and when it was credited (ms). */
  time: z.number(),
  creditedAt: z.number().nullable(),
});
export type RechargeItem = z.infer<typeof rechargeItem>;

export const rechargeList = z.object({ list: z.array(rechargeItem), total: z.number() });
export type RechargeList = z.infer<typeof rechargeList>;

// ---- card checkout (pages/buyusd/buyusd, pages/webview/webview) ----

/** Limits of one card checkout, USDT (the operator may change them: CARD_DEPOSIT_MIN / _MAX). */
export const CARD_DEPOSIT_MIN_DEFAULT = 10;
export const CARD_DEPOSIT_MAX_DEFAULT = 5000;

/** A card is charged in cents: a checkout amount is a whole number of cents (10.12, not 10.123). */
export const cardCheckoutBody = z.strictObject({
  amount: moneyAmount.refine((s) => (parseMoney(s) ?? 0n) % 10_000n === 0n, { error: 'validation.moneyCents' }),
  idempotencyKey,
});
export type CardCheckoutBody = z.infer<typeof cardCheckoutBody>;

export const CARD_CHECKOUT_STATES = ['open', 'paid', 'expired', 'failed'] as const;
export type CardCheckoutState = (typeof CARD_CHECKOUT_STATES)[number];

export const cardCheckout = z.object({
  id: z.number(),
  amount: z.string(),
  state: z.enum(CARD_CHECKOUT_STATES),
  /** The provider's hosted page (opened in pages/webview/webview). */
  checkoutUrl: z.string(),
  createdAt: z.number(),
  paidAt: z.number().nullable(),
});
export type CardCheckout = z.infer<typeof cardCheckout>;

export const cardCheckoutIdParams = z.strictObject({ id: z.coerce.number().int().positive() });

export const cardLimits = z.object({ open: z.boolean(), min: z.string(), max: z.string(), provider: z.string().nullable() });
export type CardLimits = z.infer<typeof cardLimits>;

/** What a webhook delivery did: a replayed event answers `duplicate` and changes nothing. */
export const cardWebhookResult = z.object({ outcome: z.enum(['credited', 'expired', 'ignored', 'duplicate']) });
