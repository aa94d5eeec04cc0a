// Wallet info, records, the rebate → balance transfer and operator adjustments, on the ledger.
import { getSetting, rowsOf, setSetting, SETTING_KEYS, sql, type Database } from '@lq/db';
import { AppError, formatMoney, parseMoney, TWO_PERSON_ABOVE_DEFAULT, SOLO_DAILY_LIMIT_DEFAULT, type Wallet, type WalletInfo, type WalletRecord, type WalletRecordType, type WalletRecords } from '@lq/contracts';
import { dayOf, dayStart } from '../platform/windows';
import { IdempotencyConflictError, InsufficientFundsError, postEntry, rebateToBalance, userBalances, type EntryResult } from './ledger';

type Runner = Pick<Database, 'execute'>;

/** Wallet figures; "today" (dividends) is the calendar day of `timeZone` (the platform's). */
export async function walletInfoOf(db: Database, userId: number, timeZone: string): Promise<WalletInfo> {
  const balances = await userBalances(db, userId);
  const today = dayStart(dayOf(new Date(), timeZone), timeZone).toISOString();
  const [sums] = rowsOf<Record<'total_deposit' | 'today_dividend' | 'total_dividend' | 'pending_transfer' | 'processed_transfer', string>>(
    await db.execute(sql`select
        coalesce(sum(l.amount) filter (where e.kind = 'deposit' and e.status = 'posted' and l.amount > 0), 0)::text as total_deposit,
        coalesce(sum(l.amount) filter (where e.kind = 'dividend' and e.status = 'posted' and l.amount > 0
                                         and e.created_at >= ${today}::timestamptz), 0)::text as today_dividend,
        coalesce(sum(l.amount) filter (where e.kind = 'dividend' and e.status = 'posted' and l.amount > 0), 0)::text as total_dividend,
        coalesce(-sum(l.amount) filter (where e.kind = 'withdrawal' and e.status = 'pending' and l.amount < 0), 0)::text as pending_transfer,
        coalesce(-sum(l.amount) filter (where e.kind = 'withdrawal' and e.status = 'posted' and l.amount < 0), 0)::text as processed_transfer
      from ledger_lines l
      join ledger_entries e on e.id = l.entry_id
     where l.user_id = ${userId}`),
  );
  const money = (v: string | undefined) => formatMoney(BigInt(v ?? '0'));
  return {
    balance: formatMoney(balances.balance.available + balances.rebate.available),
    balanceWallet: formatMoney(balances.balance.available),
    rebateWallet: formatMoney(balances.rebate.available),
    totalDeposit: money(sums?.total_deposit),
    todayDividend: money(sums?.today_dividend),
    totalDividend: money(sums?.total_dividend),
    pendingTransfer: money(sums?.pending_transfer),
    processedTransfer: money(sums?.processed_transfer),
  };
}

/** The lines of the user's wallets, newest first (one per wallet a movement touched). */
export async function walletRecordsOf(
  db: Runner,
  userId: number,
  query: { type?: WalletRecordType | undefined; page: number; size: number },
): Promise<WalletRecords> {
  const byType = query.type ? sql`and l.kind = ${query.type}` : sql``;
  // The page's ids first, from the (user_id, id) or (user_id, kind, id) index alone (a deep page
  // skips index entries, not joined rows), then the joins for those 20 lines only.
  const rows = rowsOf<{
    id: number | string;
    kind: WalletRecordType;
    wallet: Wallet;
    amount: string;
    balance_after: string | null;
    status: WalletRecord['status'];
    created_at: Date | string;
    memo: string | null;
    payment: string | null;
  }>(
    await db.execute(sql`select l.id, l.kind, a.kind as wallet, l.amount::text as amount, l.balance_after::text as balance_after,
                                e.status, e.created_at, e.memo, case when e.kind = 'rebate' then e.meta ->> 'payment' end as payment
                           from (select l.id from ledger_lines l
                                  where l.user_id = ${userId} ${byType}
                                  order by l.id desc
                                  limit ${query.size} offset ${(query.page - 1) * query.size}) page
                           join ledger_lines l on l.id = page.id
                           join ledger_accounts a on a.id = l.account_id
                           join ledger_entries e on e.id = l.entry_id
                          order by l.id desc`),
  );
  const [count] = rowsOf<{ n: number | string }>(await db.execute(sql`select count(*) as n from ledger_lines l where l.user_id = ${userId} ${byType}`));
  return {
    list: rows.map((r) => ({
      id: Number(r.id),
      type: r.kind,
      wallet: r.wallet,
      amount: formatMoney(BigInt(r.amount)),
      balanceAfter: r.balance_after === null ? null : formatMoney(BigInt(r.balance_after)),
      status: r.status,
      time: new Date(r.created_at).getTime(),
      memo: r.memo,
      paymentId: r.payment === null ? null : Number(r.payment),
    })),
    total: Number(count?.n ?? 0),
  };
}

/** Rebate wallet → balance wallet. The key is the client's, scoped to the user. */
export async function transferRebate(db: Database, userId: number, amount: bigint, key: string): Promise<EntryResult> {
  try {
    return await postEntry(db, rebateToBalance(`transfer:${userId}:${key}`, userId, amount));
  } catch (e) {
    if (e instanceof InsufficientFundsError) throw new AppError('INSUFFICIENT_REBATE', { available: formatMoney(e.available) }, 'amount');
    if (e instanceof IdempotencyConflictError) throw new AppError('IDEMPOTENCY_KEY_REUSED', {}, 'idempotencyKey');
    throw e;
  }
}

/**
 * Who asks for an adjustment. Each has its own part of the ledger's keys (`adjust:<source>:<key>`),
 * so no source can write a key another uses (issue 53 item 9: the shell's `--key approval:7` wrote
 * the key of the console's approval 7).
 */
export type AdjustSource = 'shell' | 'console' | 'approval';

export interface Adjustment {
  userId: number;
  wallet: Wallet;
  /** + credit, − debit (never below zero). */
  amount: bigint;
  reason: string;
  source: AdjustSource;
  /** The source's key: the same adjustment asked twice moves the money once. */
  key: string;
}

const adjustmentKey = (source: AdjustSource, key: string) => `adjust:${source}:${key}`;

/** Whether an adjustment was posted under this source's key (its ledger entry exists). */
export async function adjustmentPosted(db: Pick<Database, 'execute'>, source: AdjustSource, key: string): Promise<boolean> {
  return rowsOf(await db.execute(sql`select 1 from ledger_entries where idempotency_key = ${adjustmentKey(source, key)}`)).length > 0;
}

/**
 * The entry a shell adjustment posted under `key` before keys had sources (`adjust:<key>`), if
 * any: the shell refuses that key again rather than post it a second time under the new one.
 * Every key is looked up, `approval:7` too (the old shell wrote `adjust:approval:7`): a key that
 * finds another source's entry is refused as well, which is safe.
 */
export async function unsourcedAdjustment(db: Pick<Database, 'execute'>, key: string): Promise<number | null> {
  const [row] = rowsOf<{ id: string }>(await db.execute(sql`select id::text as id from ledger_entries where idempotency_key = ${`adjust:${key}`}`));
  return row ? Number(row.id) : null;
}

/** An operator's credit or debit of a user wallet, against the platform's adjustments account. */
export function adjustWallet(db: Database, a: Adjustment): Promise<EntryResult> {
  return postEntry(db, {
    key: adjustmentKey(a.source, a.key),
    kind: 'adjust',
    userId: a.userId,
    memo: a.reason,
    lines: [
      { account: { platform: 'adjustments' }, amount: -a.amount },
      { account: { userId: a.userId, wallet: a.wallet }, amount: a.amount },
    ],
  });
}

/**
 * An amount setting (micro-Lightning), kept as `{amount: "<decimal>"}`: an object, not a bare JSON
 * string, since drizzle parses a jsonb string the driver already parsed again.
 */
export async function amountSetting(db: Database, key: string, fallback: bigint): Promise<bigint> {
  const value = await getSetting<{ amount?: unknown }>(db, key);
  return (typeof value?.amount === 'string' ? parseMoney(value.amount) : undefined) ?? fallback;
}

export async function setAmountSetting(db: Database, key: string, amount: bigint): Promise<void> {
  if (amount < 0n) throw new RangeError('the amount may not be negative');
  await setSetting(db, key, { amount: formatMoney(amount) });
}

/**
 * Two people for big money (business.md): a wallet adjustment or withdrawal approval above this
 * (micro-Lightning) takes effect only when a second operator approves it. Default 10,000.
 */
export const twoPersonAbove = (db: Database) => amountSetting(db, SETTING_KEYS.twoPersonAbove, parseMoney(TWO_PERSON_ABOVE_DEFAULT)!);
export const setTwoPersonAbove = (db: Database, amount: bigint) => setAmountSetting(db, SETTING_KEYS.twoPersonAbove, amount);

/** What one operator moves alone across all users in a platform day (micro-Lightning). Default 50,000. */
export const soloDailyLimit = (db: Database) => amountSetting(db, SETTING_KEYS.soloDailyLimit, parseMoney(SOLO_DAILY_LIMIT_DEFAULT)!);
export const setSoloDailyLimit = (db: Database, amount: bigint) => setAmountSetting(db, SETTING_KEYS.soloDailyLimit, amount);
