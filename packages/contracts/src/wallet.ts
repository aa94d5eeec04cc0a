// Wallet payloads (spec §2 pages/wallet/wallet, §3 wallet fields). Amounts are decimal strings with
// up to 6 places on the way in and exactly 6 on the way out (money.ts); never JSON numbers.
import { z } from 'zod';
import { MONEY_MAX_MICRO, parseMoney } from './money';

/** A positive amount: a decimal string with at most 6 places ("12.5"). */
export const moneyAmount = z
  .string()
  .trim()
  .refine((s) => parseMoney(s) !== undefined, { error: 'validation.moneyFormat' })
  .refine((s) => (parseMoney(s) ?? 0n) > 0n, { error: 'validation.moneyPositive' })
  // Beyond a BIGINT of micro-units: refused here, not a 500 from the database.
  .refine((s) => (parseMoney(s) ?? 0n) <= MONEY_MAX_MICRO, { error: 'validation.moneyTooLarge' });

/** Chosen by the client, one per intended movement: a retry with the same key moves nothing twice. */
export const idempotencyKey = z
  .string()
  .trim()
  .min(8)
  .max(100)
  .regex(/^[A-Za-z0-9_.:-]+$/, { error: 'validation.idempotencyKeyFormat' });

export const WALLETS = ['balance', 'rebate'] as const;
export type Wallet = (typeof WALLETS)[number];

/** Kinds of movement: the records' `type` and its filter. */
export const WALLET_RECORD_TYPES = ['adjust', 'transfer', 'deposit', 'withdrawal', 'purchase', 'rebate', 'dividend'] as const;
export type WalletRecordType = (typeof WALLET_RECORD_TYPES)[number];

export const walletInfo = z.object({
  /** Both wallets together (what may be spent: held amounts excluded). */
  balance: z.string(),
  balanceWallet: z.string(),
  rebateWallet: z.string(),
  totalDeposit: z.string(),
  todayDividend: z.string(),
  totalDividend: z.string(),
  /** Withdrawals held and waiting, and those paid out. */
  pendingTransfer: z.string(),
  processedTransfer: z.string(),
});
export type WalletInfo = z.infer<typeof walletInfo>;

export const WALLET_RECORDS_PAGE_SIZE_DEFAULT = 20;
export const WALLET_RECORDS_PAGE_SIZE_MAX = 100;

export const walletRecordsQuery = z.strictObject({
  type: z.enum(WALLET_RECORD_TYPES).optional(),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(WALLET_RECORDS_PAGE_SIZE_MAX).default(WALLET_RECORDS_PAGE_SIZE_DEFAULT),
});
export type WalletRecordsQuery = z.input<typeof walletRecordsQuery>;

export const walletRecord = z.object({
  id: z.number(),
  type: z.enum(WALLET_RECORD_TYPES),
  wallet: z.enum(WALLETS),
  /** Signed: "-3.000000" left the wallet. */
  amount: z.string(),
  /** The wallet after this line; null while a hold is pending or once it was voided. */
  balanceAfter: z.string().nullable(),
  /** posted, pending (held) or voided (released). */
  status: z.enum(['posted', 'pending', 'voided']),
  time: z.number(),
  memo: z.string().nullable(),
  /** A rebate: the payment it came from (the payer's ledger entry); null otherwise. */
  paymentId: z.number().nullable(),
});
export type WalletRecord = z.infer<typeof walletRecord>;

export const walletRecords = z.object({ list: z.array(walletRecord), total: z.number() });
export type WalletRecords = z.infer<typeof walletRecords>;

/** Rebate wallet → balance wallet. */
export const walletTransferBody = z.strictObject({ amount: moneyAmount, idempotencyKey });
export type WalletTransferBody = z.infer<typeof walletTransferBody>;

export const walletTransferResult = z.object({ id: z.number(), amount: z.string(), wallet: walletInfo });
export type WalletTransferResult = z.infer<typeof walletTransferResult>;

// ---- exports (pages/wallet/export/export) ----

export const WALLET_EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type WalletExportFormat = (typeof WALLET_EXPORT_FORMATS)[number];
export const WALLET_EXPORT_STATUSES = ['exporting', 'exported', 'failed'] as const;
/** Export files are deleted this many days after they were requested. */
export const WALLET_EXPORT_KEEP_DAYS = 3;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'validation.invalidDate' }).refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), { error: 'validation.invalidDate' });

/** A CSV or XLSX file of the records, optionally of UTC days `from` to `to` (both included). */
export const walletExportBody = z
  .strictObject({ format: z.enum(WALLET_EXPORT_FORMATS), from: day.optional(), to: day.optional() })
  .refine((b) => !b.from || !b.to || b.from <= b.to, { error: 'validation.startAfterEnd', path: ['from'] });
export type WalletExportBody = z.infer<typeof walletExportBody>;

export const walletExportItem = z.object({
  id: z.number(),
  format: z.enum(WALLET_EXPORT_FORMATS),
  from: z.string().nullable(),
  to: z.string().nullable(),
  status: z.enum(WALLET_EXPORT_STATUSES),
  rows: z.number().nullable(),
  error: z.string().nullable(),
  createdAt: z.number(),
  finishedAt: z.number().nullable(),
  /** When the file is deleted. */
  expiresAt: z.number(),
});
export type WalletExportItem = z.infer<typeof walletExportItem>;
export const walletExportList = z.object({ list: z.array(walletExportItem) });
export type WalletExportList = z.infer<typeof walletExportList>;
export const walletExportCreated = z.object({ id: z.number() });
export const walletExportIdParams = z.strictObject({ id: z.coerce.number().int().positive() });
