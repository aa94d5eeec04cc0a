// The operator console's API (`console/api/...`, issue 32): operators sign in with a password, then
// a second factor (TOTP, RFC 6238, or a one-time recovery code); every action is in the audit log.
import { z } from 'zod';
import { ACCOUNT_MARKETS } from './account';
import { BENEFIT_ITEMS } from './benefits';
import { rebateRates } from './rebates';
import { vipThresholds } from './vip';
import { NOTICE_BODY_MAX, NOTICE_CATEGORIES, NOTICE_STATES, noticeText } from './notice';
import { USER_LEVELS } from './constants';
import { DEPOSIT_NETWORKS } from './deposit';
import { MONEY_MAX_MICRO, parseMoney } from './money';
import { userMail } from './user';
import { idempotencyKey, moneyAmount, WALLETS } from './wallet';
import { limitWindow, WITHDRAW_STATES, withdrawItem } from './withdraw';

/** POST console/api/login */
export const consoleLoginBody = z.strictObject({
  userMail,
  password: z.string({ error: 'validation.invalidType' }).min(1, { error: 'validation.required' }).max(128, { error: 'validation.tooLong' }),
});
export type ConsoleLoginBody = z.input<typeof consoleLoginBody>;

export const consoleSession = z.object({
  token: z.string(),
  /** When the session ends (ms). */
  expiresAt: z.number(),
  /** Until when the last second factor allows console actions (ms); null: none yet. */
  secondFactorUntil: z.number().nullable(),
});
export type ConsoleSession = z.infer<typeof consoleSession>;

/** POST console/api/second-factor: the authenticator's 6 digits, or one recovery code. */
export const consoleSecondFactorBody = z
  .strictObject({
    code: z.string({ error: 'validation.invalidType' }).regex(/^\d{6}$/, { error: 'validation.invalidFormat' }).optional(),
    recoveryCode: z
      .string({ error: 'validation.invalidType' })
      .regex(/^[A-Za-z0-9]{4}-?[A-Za-z0-9]{4}-?[A-Za-z0-9]{4}$/, { error: 'validation.invalidFormat' })
      .optional(),
  })
  .refine((b) => (b.code === undefined) !== (b.recoveryCode === undefined), { error: 'validation.required', path: ['code'] });
export type ConsoleSecondFactorBody = z.input<typeof consoleSecondFactorBody>;

/** GET console/api/me */
export const consoleMe = z.object({
  id: z.number(),
  mail: z.string(),
  expiresAt: z.number(),
  secondFactorUntil: z.number().nullable(),
  /** Recovery codes not used yet. */
  recoveryCodesLeft: z.number(),
});
export type ConsoleMe = z.infer<typeof consoleMe>;

export const AUDIT_SOURCES = ['console', 'ops'] as const;
export const AUDIT_OUTCOMES = ['done', 'refused', 'failed'] as const;
export const AUDIT_PAGE_SIZE_MAX = 100;
const isoTime = z.iso.datetime({ offset: true, error: 'validation.invalidFormat' });

/** GET console/api/audit (and audit/export, without paging): filters, paging and sort, applied on the server. */
export const auditQuery = z.strictObject({
  actor: z.string().max(200).optional(),
  action: z.string().max(100).optional(),
  objectType: z.string().max(50).optional(),
  objectId: z.string().max(100).optional(),
  source: z.enum(AUDIT_SOURCES, { error: 'validation.invalidOption' }).optional(),
  outcome: z.enum(AUDIT_OUTCOMES, { error: 'validation.invalidOption' }).optional(),
  from: isoTime.optional(),
  to: isoTime.optional(),
  sort: z.enum(['at', '-at'], { error: 'validation.invalidOption' }).default('-at'),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(AUDIT_PAGE_SIZE_MAX).default(50),
});
export type AuditQuery = z.input<typeof auditQuery>;

export const auditItem = z.object({
  id: z.number(),
  at: z.number(),
  source: z.enum(AUDIT_SOURCES),
  actor: z.string(),
  action: z.string(),
  objectType: z.string().nullable(),
  objectId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  detail: z.unknown(),
  outcome: z.enum(AUDIT_OUTCOMES),
});
export type AuditItem = z.infer<typeof auditItem>;

export const auditList = z.object({ list: z.array(auditItem), total: z.number() });
export type AuditList = z.infer<typeof auditList>;

// ---------------------------------------------------------------- dashboard and users (slice 2)

/** GET console/api/dashboard: the business at a glance (amounts in Lightning, 6 decimals). */
export const consoleDashboard = z.object({
  users: z.object({ total: z.number(), today: z.number() }),
  deposits: z.object({ pending: z.number(), creditedToday: z.string() }),
  withdrawals: z.object({ waiting: z.number(), waitingAmount: z.string() }),
  robots: z.object({ running: z.number() }),
  jobs: z.object({ failedToday: z.number() }),
  revenue: z.object({ today: z.string() }),
  /** Live MT5 fills the fill check found made up in the last 30 days (issue 53 item 12), and the users they belong to. */
  fills: z.object({ suspect: z.number(), users: z.number() }),
  /** The platform's day the figures count from (ms) and its timezone. */
  dayStart: z.number(),
  timezone: z.string(),
});
export type ConsoleDashboard = z.infer<typeof consoleDashboard>;

export const CONSOLE_USER_SORTS = ['id', '-id', 'mail', '-mail', 'balance', '-balance'] as const;

/** GET console/api/users: search (e-mail or user code, contains), level, sort and page on the server. */
export const consoleUsersQuery = z.strictObject({
  q: z.string().trim().max(200).optional(),
  level: z.enum(USER_LEVELS, { error: 'validation.invalidOption' }).optional(),
  sort: z.enum(CONSOLE_USER_SORTS, { error: 'validation.invalidOption' }).default('-id'),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});
export type ConsoleUsersQuery = z.input<typeof consoleUsersQuery>;

export const consoleUserItem = z.object({
  id: z.number(),
  mail: z.string(),
  userCode: z.string(),
  level: z.enum(USER_LEVELS),
  country: z.string(),
  createdAt: z.number(),
  balance: z.string(),
  rebate: z.string(),
  robotsRunning: z.number(),
  /** When an operator froze the user (ms) and why; null: not frozen. */
  frozenAt: z.number().nullable(),
  frozenReason: z.string().nullable(),
});
export type ConsoleUserItem = z.infer<typeof consoleUserItem>;
export const consoleUserList = z.object({ list: z.array(consoleUserItem), total: z.number() });
export type ConsoleUserList = z.infer<typeof consoleUserList>;

const reason = z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(500);

/** POST console/api/users/level */
export const consoleLevelBody = z.strictObject({
  userId: z.number({ error: 'validation.invalidType' }).int().positive(),
  level: z.enum(USER_LEVELS, { error: 'validation.invalidOption' }),
  reason,
});
export type ConsoleLevelBody = z.input<typeof consoleLevelBody>;

/**
 * Level grants under two keys (issue 53 item 4): raising a user to VIP2 or above (higher rebate
 * rates, dividend shares) waits for a second operator; lowering, or up to VIP1, does not.
 */
export const LEVEL_GRANT_TWO_PERSON_FROM = 'VIP2' as const;
export const levelGrantNeedsSecond = (from: (typeof USER_LEVELS)[number], to: (typeof USER_LEVELS)[number]): boolean =>
  USER_LEVELS.indexOf(to) >= USER_LEVELS.indexOf(LEVEL_GRANT_TWO_PERSON_FROM) && USER_LEVELS.indexOf(to) > USER_LEVELS.indexOf(from);
/** What POST console/api/users/level did: set (approvalId null), or waiting for a second operator. */
export const consoleLevelResult = z.object({ userId: z.number(), from: z.enum(USER_LEVELS), to: z.enum(USER_LEVELS), approvalId: z.number().nullable() });
export type ConsoleLevelResult = z.infer<typeof consoleLevelResult>;

/** POST console/api/users/adjust: a credit or debit of a user wallet, with the reason the user's records show. */
/** What an adjustment did: posted (the entry), or waiting for a second operator (the approval; business.md "Two people for big money"). */
/** Why a move waits for a second operator: its own size, or what its operator moved alone already (issue 53 item 1). */
export const APPROVAL_WAITS_FOR = ['twoPersonAmount', 'soloSums'] as const;
export const consoleAdjustResult = z.object({
  entryId: z.number().nullable(),
  replayed: z.boolean(),
  available: z.string(),
  approvalId: z.number().nullable(),
  /** With an approvalId: why it waits. */
  waitsFor: z.enum(APPROVAL_WAITS_FOR).optional(),
});
export type ConsoleAdjustResult = z.infer<typeof consoleAdjustResult>;

export const consoleAdjustBody = z.strictObject({
  userId: z.number({ error: 'validation.invalidType' }).int().positive(),
  wallet: z.enum(WALLETS, { error: 'validation.invalidOption' }),
  direction: z.enum(['credit', 'debit'], { error: 'validation.invalidOption' }),
  amount: moneyAmount,
  reason,
  idempotencyKey,
});
export type ConsoleAdjustBody = z.input<typeof consoleAdjustBody>;

/** POST console/api/users/freeze: frozen, the user cannot sign in and their sessions end at once. */
export const consoleFreezeBody = z.strictObject({
  userId: z.number({ error: 'validation.invalidType' }).int().positive(),
  frozen: z.boolean(),
  reason,
});
export type ConsoleFreezeBody = z.input<typeof consoleFreezeBody>;

/** What an operator grants: account seats, backtest slots, or the basic rights (the unlock). */
export const GRANT_KINDS = ['seat', 'backtest_slot', 'unlock'] as const;
export type GrantKind = (typeof GRANT_KINDS)[number];
export const GRANT_QUANTITY_MAX = 100;
export const GRANT_DAYS_MAX = 3650;

/** POST console/api/users/grant: seats or slots of one market (or both: no market), for some days or for good. */
export const consoleGrantBody = z
  .strictObject({
    userId: z.number({ error: 'validation.invalidType' }).int().positive(),
    kind: z.enum(GRANT_KINDS),
    market: z.enum(ACCOUNT_MARKETS).optional(),
    quantity: z.number().int({ error: 'validation.integer' }).min(1).max(GRANT_QUANTITY_MAX).default(1),
    /** Days the grant lasts; none: it does not expire. */
    days: z.number().int({ error: 'validation.integer' }).min(1).max(GRANT_DAYS_MAX).optional(),
    reason,
  })
  .refine((b) => b.kind !== 'unlock' || (b.market === undefined && b.quantity === 1), { error: 'validation.unlockWhole', path: ['kind'] });
export type ConsoleGrantBody = z.input<typeof consoleGrantBody>;

export const consoleGrant = z.object({
  id: z.number(),
  kind: z.string(),
  market: z.enum(ACCOUNT_MARKETS).nullable(),
  quantity: z.number(),
  /** operator | purchase | basic */
  origin: z.string(),
  note: z.string().nullable(),
  createdAt: z.number(),
  expiresAt: z.number().nullable(),
});
export type ConsoleGrant = z.infer<typeof consoleGrant>;

/** GET console/api/users/detail: one user with what they own per market and the grants in force. */
export const consoleUserDetailQuery = z.strictObject({ userId: z.coerce.number().int().positive() });
/**
 * Why the fill check found a live MT5 fill made up: a demo account's, its order's fills beyond the
 * order sent (or no order of ours), its price outside its minute's candle, more than the account
 * could margin (or no equity reported), or no candle of its minute after a day.
 */
export const SUSPECT_FILL_REASONS = ['demoAccount', 'overOrder', 'outsideCandle', 'overMargin', 'noCandle'] as const;

/** A suspect fill as the console shows it (the user's newest 20). */
export const consoleSuspectFill = z.object({
  id: z.number(),
  robotId: z.number(),
  symbol: z.string(),
  action: z.string(),
  qty: z.string(),
  price: z.string(),
  filledAt: z.number(),
  reason: z.enum(SUSPECT_FILL_REASONS),
});
export type ConsoleSuspectFill = z.infer<typeof consoleSuspectFill>;

export const consoleUserDetail = z.object({
  user: consoleUserItem,
  unlocked: z.boolean(),
  owned: z.array(z.object({ market: z.enum(ACCOUNT_MARKETS), seats: z.number(), slots: z.number() })),
  grants: z.array(consoleGrant),
  /** Their fills left out of VIP volume and rankings, newest first. */
  suspectFills: z.array(consoleSuspectFill),
});
export type ConsoleUserDetail = z.infer<typeof consoleUserDetail>;

// ---------------------------------------------------------------- money: withdrawals, deposits, two people (slice 3)

/** business.md: a wallet adjustment or a withdrawal approval above 10,000 (configurable) needs a second operator. */
export const TWO_PERSON_ABOVE_DEFAULT = '10000';
/**
 * What one operator may move alone across all users in a platform day (issue 53 item 1): an
 * adjustment or approval that would take their day's sum above it waits for a second operator, as
 * one that would take a user's 24 hours above the two-person amount does.
 */
export const SOLO_DAILY_LIMIT_DEFAULT = '50000';

const pageOf = (max: number, size: number) => ({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(max).default(size),
});
const positiveId = z.number({ error: 'validation.invalidType' }).int().positive();

/** An amount that may be 0 (limits, thresholds): at most 6 decimals, within the ledger's range. */
const moneyOrZero = z
  .string({ error: 'validation.required' })
  .trim()
  .refine((s) => parseMoney(s) !== undefined && parseMoney(s)! >= 0n, { error: 'validation.moneyFormat' })
  .refine((s) => (parseMoney(s) ?? 0n) <= MONEY_MAX_MICRO, { error: 'validation.moneyTooLarge' });

const levelLimit = z.strictObject({ day: moneyAmount, month: moneyAmount });

/**
 * Settings under two keys (issue 53 item 2): a change of a money setting waits for a second
 * operator. Groups: the amounts and withdrawal limits (settings/money), the prices, the rebate and
 * dividend rates; each has at most one change waiting.
 */
export const SETTINGS_GROUPS = ['money', 'prices', 'rebates'] as const;
export type SettingsGroup = (typeof SETTINGS_GROUPS)[number];
/** One value a change sets: its key (`twoPersonAbove`, `limits.VIP1.day`, `prices.slot`, `rates.VIP2`, `dividendRate`), money or basis points. */
export const consoleSettingChange = z.object({ key: z.string(), unit: z.enum(['money', 'bp']), before: z.string(), after: z.string() });
export type ConsoleSettingChange = z.infer<typeof consoleSettingChange>;
/** A change waiting for a second operator: who asked, when, and what it sets. */
export const consoleSettingsPending = z.object({ id: z.number(), requestedBy: z.string(), requestedAt: z.number(), mine: z.boolean(), reason: z.string(), changes: z.array(consoleSettingChange) });
export type ConsoleSettingsPending = z.infer<typeof consoleSettingsPending>;

/** GET console/api/settings/money: the amounts that decide who reviews what. */
export const consoleMoneySettings = z.object({
  /** Withdrawals below it need no review (0: all do). */
  autoApproveBelow: z.string(),
  /** A wallet adjustment or withdrawal approval above it needs a second operator, as do those one operator makes alone for one user within 24 hours once their sum passes it. */
  twoPersonAbove: z.string(),
  /** What one operator moves alone across all users in a platform day; past it, a second operator. */
  soloDailyLimit: z.string(),
  /** Per user level, over a rolling 24 hours and 30 days. */
  limits: z.record(z.enum(USER_LEVELS), z.object({ day: z.string(), month: z.string() })),
  /** A change of these waiting for a second operator (the values above are those in force). */
  pending: consoleSettingsPending.nullable(),
});
export type ConsoleMoneySettings = z.infer<typeof consoleMoneySettings>;

/** POST console/api/settings/money: all of it at once, as the form shows it; it takes effect when another operator approves it. */
export const consoleMoneySettingsBody = z
  .strictObject({
    autoApproveBelow: moneyOrZero,
    twoPersonAbove: moneyOrZero,
    /** Left out: unchanged. */
    soloDailyLimit: moneyOrZero.optional(),
    limits: z.strictObject(Object.fromEntries(USER_LEVELS.map((l) => [l, levelLimit])) as Record<(typeof USER_LEVELS)[number], typeof levelLimit>),
    reason,
  })
  // Withdrawals below the automatic amount are reviewed by nobody: never more than one operator may pass alone.
  .refine((b) => (parseMoney(b.autoApproveBelow) ?? 0n) <= (parseMoney(b.twoPersonAbove) ?? 0n), { error: 'validation.autoApproveAboveTwoPerson', path: ['autoApproveBelow'] });
export type ConsoleMoneySettingsBody = z.input<typeof consoleMoneySettingsBody>;

/** open: waiting for review or being paid. */
export const CONSOLE_WITHDRAW_FILTERS = ['open', ...WITHDRAW_STATES, 'all'] as const;
export const CONSOLE_MONEY_SORTS = ['id', '-id', 'amount', '-amount'] as const;

/** GET console/api/withdrawals */
export const consoleWithdrawalsQuery = z.strictObject({
  state: z.enum(CONSOLE_WITHDRAW_FILTERS, { error: 'validation.invalidOption' }).default('open'),
  q: z.string().trim().max(200).optional(),
  sort: z.enum(CONSOLE_MONEY_SORTS, { error: 'validation.invalidOption' }).default('id'),
  ...pageOf(100, 20),
});
export type ConsoleWithdrawalsQuery = z.input<typeof consoleWithdrawalsQuery>;

export const consoleApprovalRef = z.object({ id: z.number(), requestedBy: z.string(), requestedAt: z.number() });

export const consoleWithdrawalItem = withdrawItem.extend({
  userId: z.number(),
  mail: z.string(),
  level: z.enum(USER_LEVELS),
  /** auto | operator | user (cancelled) | null: not reviewed yet. */
  reviewedBy: z.string().nullable(),
  /** The last look at its payout on chain. */
  payoutCheck: z.string().nullable(),
  /** The user's limits now, and whether this withdrawal is past either (it waits for review whatever its amount). */
  limits: z.object({ day: limitWindow, month: limitWindow }),
  overLimit: z.boolean(),
  /** Above the two-person amount: approving it takes a second operator. */
  needsSecond: z.boolean(),
  /** The first operator's approval waiting for the second one. */
  approval: consoleApprovalRef.nullable(),
});
export type ConsoleWithdrawalItem = z.infer<typeof consoleWithdrawalItem>;
export const consoleWithdrawalList = z.object({ list: z.array(consoleWithdrawalItem), total: z.number() });
export type ConsoleWithdrawalList = z.infer<typeof consoleWithdrawalList>;

/** POST console/api/withdrawals/approve */
export const consoleWithdrawIdBody = z.strictObject({ id: positiveId });
export type ConsoleWithdrawIdBody = z.input<typeof consoleWithdrawIdBody>;
/** What an approval did: processing (the payout may start), or still pending review with the approval waiting for a second operator. */
export const consoleWithdrawApproved = z.object({ id: z.number(), state: z.enum(WITHDRAW_STATES), approvalId: z.number().nullable(), waitsFor: z.enum(APPROVAL_WAITS_FOR).optional() });
export type ConsoleWithdrawApproved = z.infer<typeof consoleWithdrawApproved>;
/** POST console/api/withdrawals/reject: the reason is what the user reads. */
export const consoleWithdrawRejectBody = z.strictObject({ id: positiveId, reason });
export type ConsoleWithdrawRejectBody = z.input<typeof consoleWithdrawRejectBody>;
/** POST console/api/withdrawals/paid: the operator paid it; the transaction is checked on chain. */
export const consoleWithdrawPaidBody = z.strictObject({ id: positiveId, txHash: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(100) });
export type ConsoleWithdrawPaidBody = z.input<typeof consoleWithdrawPaidBody>;
export const consoleWithdrawPaid = z.object({ id: z.number(), state: z.enum(WITHDRAW_STATES), detail: z.string() });

/** pending: confirming; waiting: confirmed but below the minimum (credited once the address's total reaches it). */
export const CONSOLE_DEPOSIT_STATES = ['pending', 'waiting', 'credited', 'dropped'] as const;
export type ConsoleDepositState = (typeof CONSOLE_DEPOSIT_STATES)[number];

/** GET console/api/deposits */
export const consoleDepositsQuery = z.strictObject({
  state: z.enum([...CONSOLE_DEPOSIT_STATES, 'all'], { error: 'validation.invalidOption' }).default('all'),
  network: z.enum(DEPOSIT_NETWORKS, { error: 'validation.invalidOption' }).optional(),
  q: z.string().trim().max(200).optional(),
  sort: z.enum(CONSOLE_MONEY_SORTS, { error: 'validation.invalidOption' }).default('-id'),
  ...pageOf(100, 20),
});
export type ConsoleDepositsQuery = z.input<typeof consoleDepositsQuery>;

export const consoleDepositItem = z.object({
  id: z.number(),
  network: z.enum(DEPOSIT_NETWORKS),
  txHash: z.string(),
  logIndex: z.number(),
  fromAddress: z.string(),
  userId: z.number(),
  mail: z.string(),
  amount: z.string(),
  state: z.enum(CONSOLE_DEPOSIT_STATES),
  confirmations: z.number(),
  confirmationsNeeded: z.number(),
  seenAt: z.number(),
  creditedAt: z.number().nullable(),
  entryId: z.number().nullable(),
});
export type ConsoleDepositItem = z.infer<typeof consoleDepositItem>;
export const consoleDepositList = z.object({
  list: z.array(consoleDepositItem),
  total: z.number(),
  /** The smallest credit; transfers below it wait until their address's total reaches it. */
  minimum: z.string(),
});
export type ConsoleDepositList = z.infer<typeof consoleDepositList>;

export const APPROVAL_KINDS = ['wallet.adjust', 'withdraw.approve', 'settings.change', 'user.level'] as const;
export const APPROVAL_STATES = ['pending', 'approved', 'rejected', 'cancelled'] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

/** GET console/api/approvals */
export const consoleApprovalsQuery = z.strictObject({
  status: z.enum([...APPROVAL_STATES, 'all'], { error: 'validation.invalidOption' }).default('pending'),
  sort: z.enum(['id', '-id'], { error: 'validation.invalidOption' }).default('-id'),
  ...pageOf(100, 20),
});
export type ConsoleApprovalsQuery = z.input<typeof consoleApprovalsQuery>;

export const consoleApprovalItem = z.object({
  id: z.number(),
  kind: z.enum(APPROVAL_KINDS),
  /** What moves; null for a settings change or a level grant. */
  amount: z.string().nullable(),
  reason: z.string(),
  status: z.enum(APPROVAL_STATES),
  requestedBy: z.string(),
  requestedAt: z.number(),
  /** Asked for by the operator reading it: someone else approves it. */
  mine: z.boolean(),
  decidedBy: z.string().nullable(),
  decidedAt: z.number().nullable(),
  decisionNote: z.string().nullable(),
  /** Whose money; null for a settings change. */
  user: z.object({ id: z.number(), mail: z.string() }).nullable(),
  /** A settings change: the group and each value it sets, before (when asked) and after. */
  settings: z.object({ group: z.enum(SETTINGS_GROUPS), changes: z.array(consoleSettingChange) }).nullable(),
  /** A level grant: the level when it was asked and the one granted. */
  level: z.object({ from: z.enum(USER_LEVELS), to: z.enum(USER_LEVELS) }).nullable(),
  /** An adjustment: the wallet and whether it credits or debits. */
  adjust: z.object({ wallet: z.enum(WALLETS), direction: z.enum(['credit', 'debit']) }).nullable(),
  /** A withdrawal: where it goes and the state it is in now. */
  withdrawal: z.object({ id: z.number(), network: z.enum(DEPOSIT_NETWORKS), address: z.string(), state: z.enum(WITHDRAW_STATES) }).nullable(),
});
export type ConsoleApprovalItem = z.infer<typeof consoleApprovalItem>;
export const consoleApprovalList = z.object({ list: z.array(consoleApprovalItem), total: z.number() });
export type ConsoleApprovalList = z.infer<typeof consoleApprovalList>;

/** POST console/api/approvals/approve */
export const consoleApprovalIdBody = z.strictObject({ id: positiveId });
export type ConsoleApprovalIdBody = z.input<typeof consoleApprovalIdBody>;
/** POST console/api/approvals/reject: the asking operator may withdraw their own; the reason is kept. */
export const consoleApprovalRejectBody = z.strictObject({ id: positiveId, reason });
export type ConsoleApprovalRejectBody = z.input<typeof consoleApprovalRejectBody>;
export const consoleApprovalDecision = z.object({ id: z.number(), status: z.enum(APPROVAL_STATES), result: z.unknown() });
export type ConsoleApprovalDecision = z.infer<typeof consoleApprovalDecision>;

// ---------------------------------------------------------------- business settings (slice 4)

/** GET console/api/settings/business: prices, VIP thresholds, rebate and dividend rates (basis points), the backtest maintenance switch. */
export const consoleBusinessSettings = z.object({
  prices: z.record(z.enum(BENEFIT_ITEMS), z.string()),
  vip: vipThresholds,
  rebates: rebateRates,
  /** Of a month's revenue shared among VIP5+ (basis points). */
  dividendRate: z.number(),
  /** On: nobody starts a backtest (B0300). */
  maintenance: z.boolean(),
  /** Changes of the prices or the rates waiting for a second operator (the values above are those in force). */
  pending: z.object({ prices: consoleSettingsPending.nullable(), rebates: consoleSettingsPending.nullable() }),
});
export type ConsoleBusinessSettings = z.infer<typeof consoleBusinessSettings>;

/** POST console/api/settings/prices: the unlock, and a seat or slot per month (Lightning); purchases pay them once another operator approved the change. */
export const consolePricesBody = z.strictObject({
  prices: z.strictObject({ unlock: moneyAmount, seat: moneyAmount, slot: moneyAmount }),
  reason,
});
export type ConsolePricesBody = z.input<typeof consolePricesBody>;

/** POST console/api/settings/vip: each tier's rule; the next computation applies them. */
export const consoleVipBody = z.strictObject({ thresholds: vipThresholds, reason });
export type ConsoleVipBody = z.input<typeof consoleVipBody>;

/** POST console/api/settings/rebates: rebate rates per level and the same-level share, and the dividend share (basis points, 0–10,000); in force once another operator approved the change. */
export const consoleRebatesBody = z.strictObject({
  rates: rebateRates,
  dividendRate: z.number({ error: 'validation.invalidType' }).int({ error: 'validation.integer' }).min(0).max(10_000),
  reason,
});
export type ConsoleRebatesBody = z.input<typeof consoleRebatesBody>;

/** POST console/api/settings/maintenance */
export const consoleMaintenanceBody = z.strictObject({ on: z.boolean({ error: 'validation.invalidType' }), reason });
export type ConsoleMaintenanceBody = z.input<typeof consoleMaintenanceBody>;

// ---------------------------------------------------------------- notices editor (slice 4)

export const consoleNoticeItem = z.object({
  id: z.number(),
  category: z.enum(NOTICE_CATEGORIES),
  state: z.enum(NOTICE_STATES),
  pinned: z.boolean(),
  /** When it shows (ms); null: a draft. */
  publishAt: z.number().nullable(),
  locales: z.array(z.string()),
  /** The English title, else the first locale's. */
  title: z.string(),
  /** Users who opened it. */
  reads: z.number(),
});
export type ConsoleNoticeItem = z.infer<typeof consoleNoticeItem>;
/** GET console/api/notices: filtered, sorted and paged on the server. */
export const consoleNoticesQuery = z.strictObject({
  state: z.enum(NOTICE_STATES, { error: 'validation.invalidOption' }).optional(),
  category: z.enum(NOTICE_CATEGORIES, { error: 'validation.invalidOption' }).optional(),
  q: z.string().trim().max(200).optional(),
  sort: z.enum(['id', '-id'], { error: 'validation.invalidOption' }).default('-id'),
  ...pageOf(100, 20),
});
export type ConsoleNoticesQuery = z.input<typeof consoleNoticesQuery>;
export const consoleNoticeList = z.object({ list: z.array(consoleNoticeItem), total: z.number() });
export type ConsoleNoticeList = z.infer<typeof consoleNoticeList>;

/** GET console/api/notices/detail */
export const consoleNoticeDetailQuery = z.strictObject({ id: z.coerce.number().int().positive() });
export const consoleNoticeDetail = consoleNoticeItem.omit({ locales: true, title: true, reads: true }).extend({ texts: z.array(noticeText) });
export type ConsoleNoticeDetail = z.infer<typeof consoleNoticeDetail>;

/** POST console/api/notices/save: a new notice (no id) or the texts of one (the locales sent are the notice's locales). */
export const consoleNoticeSaveBody = z.strictObject({
  id: positiveId.optional(),
  category: z.enum(NOTICE_CATEGORIES, { error: 'validation.invalidOption' }),
  pinned: z.boolean(),
  texts: z
    .array(noticeText)
    .min(1, { error: 'validation.required' })
    .max(7)
    .refine((texts) => new Set(texts.map((x) => x.locale)).size === texts.length, { error: 'validation.invalid' }),
});
export type ConsoleNoticeSaveBody = z.input<typeof consoleNoticeSaveBody>;

/** POST console/api/notices/preview: a body as users will see it (the same renderer). */
export const consoleNoticePreviewBody = z.strictObject({ body: z.string().max(NOTICE_BODY_MAX) });
export const consoleNoticePreview = z.object({ html: z.string() });

/** POST console/api/notices/publish: now, or at a time to come (scheduled). */
export const consoleNoticePublishBody = z.strictObject({ id: positiveId, at: isoTime.optional() });
export type ConsoleNoticePublishBody = z.input<typeof consoleNoticePublishBody>;
/** POST console/api/notices/unpublish | delete */
export const consoleNoticeIdBody = z.strictObject({ id: positiveId });

// ---------------------------------------------------------------- market data and jobs (slice 4)

export const MARKET_FETCH_SOURCES = ['binance', 'okx', 'dukascopy'] as const;
/** The timeframes the candle store keeps. */
export const MARKET_TIMEFRAMES = ['1m', '5m', '15m', '30m', '1h', '4h', '1d'] as const;
const day = z.string({ error: 'validation.required' }).regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'validation.invalidFormat' });

/** GET console/api/market: the candle series in the store and the newest import runs. */
export const consoleImportItem = z.object({
  id: z.number(),
  kind: z.string(),
  source: z.string(),
  symbol: z.string(),
  timeframe: z.string(),
  /** queued | running | done | failed */
  status: z.string(),
  progress: z.number(),
  rows: z.number(),
  fromMs: z.number().nullable(),
  toMs: z.number().nullable(),
  message: z.string().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type ConsoleImportItem = z.infer<typeof consoleImportItem>;
export const consoleSeriesItem = z.object({ source: z.string(), symbol: z.string(), timeframe: z.string(), firstTime: z.number(), lastTime: z.number(), count: z.number() });
export type ConsoleSeriesItem = z.infer<typeof consoleSeriesItem>;
export const consoleMarketData = z.object({ imports: z.array(consoleImportItem), series: z.array(consoleSeriesItem) });
export type ConsoleMarketData = z.infer<typeof consoleMarketData>;

/** POST console/api/market/fetch: fetch missing candles of a symbol over days (UTC), as a job. */
export const consoleMarketFetchBody = z
  .strictObject({
    source: z.enum(MARKET_FETCH_SOURCES, { error: 'validation.invalidOption' }),
    symbol: z
      .string({ error: 'validation.required' })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9]{3,20}$/, { error: 'validation.invalidFormat' }),
    timeframe: z.enum(MARKET_TIMEFRAMES, { error: 'validation.invalidOption' }).default('1m'),
    from: day,
    to: day.optional(),
  })
  .refine((b) => b.to === undefined || b.to > b.from, { error: 'validation.invalid', path: ['to'] });
export type ConsoleMarketFetchBody = z.input<typeof consoleMarketFetchBody>;

/** GET console/api/jobs/failed: jobs pg-boss gave up on (retries spent), newest first. */
export const consoleFailedJobsQuery = z.strictObject({
  queue: z.string().trim().max(100).optional(),
  ...pageOf(100, 20),
});
export type ConsoleFailedJobsQuery = z.input<typeof consoleFailedJobsQuery>;
export const consoleFailedJob = z.object({
  id: z.string(),
  queue: z.string(),
  /** The job's data, values of secret-looking keys hidden. */
  data: z.unknown(),
  /** Its last error. */
  error: z.string().nullable(),
  retryCount: z.number(),
  createdAt: z.number(),
  failedAt: z.number().nullable(),
});
export type ConsoleFailedJob = z.infer<typeof consoleFailedJob>;
export const consoleFailedJobList = z.object({ list: z.array(consoleFailedJob), total: z.number() });
export type ConsoleFailedJobList = z.infer<typeof consoleFailedJobList>;

/** POST console/api/jobs/retry */
export const consoleJobRetryBody = z.strictObject({
  queue: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(100),
  id: z.uuid({ error: 'validation.invalidFormat' }),
});
export type ConsoleJobRetryBody = z.input<typeof consoleJobRetryBody>;
