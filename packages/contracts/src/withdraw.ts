// Withdrawals ("conversion", spec §2 pages/withdraw/withdraw, withdrawRecord, withdrawDetail, §5
// minimum 10 and fee 3; business.md "Wallet"): Lightning out as USDT to an address on BEP20 or
// TRC20. The amount is what arrives; amount + fee are held until the payout is done or refused.
import { z } from 'zod';
import { DEPOSIT_NETWORKS } from './deposit';
import { idempotencyKey, moneyAmount } from './wallet';
import { stepUpFields, twoFactorCode, webauthnResponse } from './user';
import { USER_LEVELS, type UserLevel } from './constants';

export const WITHDRAW_STATES = ['pendingReview', 'processing', 'completed', 'rejected', 'failed', 'cancelled'] as const;
export type WithdrawState = (typeof WITHDRAW_STATES)[number];

export const withdrawCreateBody = z.strictObject({
  network: z.enum(DEPOSIT_NETWORKS),
  address: z.string().trim().min(1).max(100),
  amount: moneyAmount,
  paidPwd: z.string().min(1).max(64),
  /** Two-step on: a fresh code from the authenticator app (or a recovery code), or a passkey. */
  twoFactorCode: twoFactorCode.optional(),
  passkey: webauthnResponse.optional(),
  idempotencyKey,
});
export type WithdrawCreateBody = z.infer<typeof withdrawCreateBody>;
/** The request as the client sends it (before defaults). */
export type WithdrawCreateRequest = z.input<typeof withdrawCreateBody>;

// ---- the address book (issue 52 item 4): withdrawals go only to addresses the user added ----

/** At most this many addresses in one user's book. */
export const WITHDRAW_ADDRESS_BOOK_MAX = 50;
export const WITHDRAW_ADDRESS_LABEL_MAX = 32;

export const withdrawAddressAddBody = z.strictObject({
  network: z.enum(DEPOSIT_NETWORKS),
  address: z.string().trim().min(1).max(100),
  label: z.string().trim().max(WITHDRAW_ADDRESS_LABEL_MAX).default(''),
  /** The step-up: `twoFactorCode` (two-step on) or a WITHDRAW_ADDRESS e-mail `code`. */
  ...stepUpFields,
});
export type WithdrawAddressAddBody = z.input<typeof withdrawAddressAddBody>;

export const withdrawAddressItem = z.object({
  id: z.number(),
  network: z.enum(DEPOSIT_NETWORKS),
  address: z.string(),
  label: z.string(),
  /** ISO 8601: withdrawals to it are accepted from then on (WITHDRAW_NEW_ADDRESS_HOURS after it was added). */
  usableFrom: z.string(),
  createdAt: z.string(),
});
export type WithdrawAddressItem = z.infer<typeof withdrawAddressItem>;
export const withdrawAddressList = z.object({ list: z.array(withdrawAddressItem) });
export type WithdrawAddressList = z.infer<typeof withdrawAddressList>;
export const withdrawAddressRemoveBody = z.strictObject({ id: z.number().int().positive() });

export const withdrawItem = z.object({
  id: z.number(),
  network: z.enum(DEPOSIT_NETWORKS),
  address: z.string(),
  /** What arrives at the address. */
  amount: z.string(),
  fee: z.string(),
  /** amount + fee: what leaves the balance wallet. */
  total: z.string(),
  state: z.enum(WITHDRAW_STATES),
  txHash: z.string().nullable(),
  /** Why it was rejected or failed. */
  reason: z.string().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type WithdrawItem = z.infer<typeof withdrawItem>;

export const withdrawListQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});
export const withdrawList = z.object({ list: z.array(withdrawItem), total: z.number() });
export type WithdrawList = z.infer<typeof withdrawList>;
export const withdrawIdParams = z.strictObject({ id: z.coerce.number().int().positive() });
/** POST user/api/withdraw/cancel: the owner takes back a withdrawal an operator has not approved yet. */
export const withdrawCancelBody = z.strictObject({ id: z.number().int().positive() });

// ---- limits (business.md "Withdrawal limits", Peatio's limit_24_hour / limit_1_month) ----

/** Per user level: what may be withdrawn over a rolling 24 hours and 30 days without a review (USDT). */
export const WITHDRAW_LIMIT_DEFAULTS: Record<UserLevel, { day: string; month: string }> = {
  none: { day: '2000', month: '20000' },
  VIP1: { day: '10000', month: '100000' },
  VIP2: { day: '50000', month: '500000' },
  VIP3: { day: '200000', month: '2000000' },
  // business.md: "VIP3 and above".
  VIP4: { day: '200000', month: '2000000' },
  VIP5: { day: '200000', month: '2000000' },
};

export const limitWindow = z.object({ limit: z.string(), used: z.string(), left: z.string() });
/** The caller's limits: what withdrawals pending review, processing and completed used of each window, and what is left. */
export const withdrawLimits = z.object({ level: z.enum(USER_LEVELS), day: limitWindow, month: limitWindow });
export type WithdrawLimits = z.infer<typeof withdrawLimits>;
