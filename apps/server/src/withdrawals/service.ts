// Withdrawal requests: checked (minimum, address of the network, payment password with its
// lockout), then amount + fee held by a pending ledger entry in the same transaction as the
// withdrawal's row, under the client's idempotency key (Stripe's rule: the same key and body
// answer the first result; another body under it is refused).
import { createHash } from 'node:crypto';
import { getSetting, setSetting, SETTING_KEYS, sql, type Database, rowsOf } from '@lq/db';
import { AppError, CONVERSION_FEE, CONVERSION_MIN, formatMoney, parseMoney, translate, USER_LEVELS, WITHDRAW_LIMIT_DEFAULTS, type Locale, type UserLevel, type WithdrawCreateBody, type WithdrawItem, type WithdrawLimits, type WithdrawList, type WithdrawState } from '@lq/contracts';
import { checkPayPassword, raiseSecurityNotice } from '../users';
import { refuseWhileLocked, requireBooked } from './address-book';
import { amountSetting, InsufficientFundsError, postEntry, setAmountSetting, voidPending } from '../wallet';
import { isWithdrawAddress, type AddressGuard } from './addresses';

export const WITHDRAW_MIN_MICRO = parseMoney(String(CONVERSION_MIN))!;
export const WITHDRAW_FEE_MICRO = parseMoney(String(CONVERSION_FEE))!;

interface Row {
  id: string | number;
  network: WithdrawItem['network'];
  address: string;
  amount: string;
  fee: string;
  status: WithdrawState;
  tx_hash: string | null;
  reason: string | null;
  request_hash: string;
  created_at: Date | string;
  updated_at: Date | string;
}
/** The columns of `Row`, of the table or of its alias `w.`. */
const columnsOf = (t = '') =>
  sql.raw(
    `${t}id, ${t}network, ${t}address, ${t}amount::text as amount, ${t}fee::text as fee, ${t}status, ${t}tx_hash, ${t}reason, ${t}request_hash, ${t}created_at, ${t}updated_at`,
  );
const COLUMNS = columnsOf();
/** A withdrawal as its user sees it; a payout that failed on chain is explained in the user's language. */
const toItem = (r: Row, locale?: Locale): WithdrawItem => ({
  id: Number(r.id),
  network: r.network,
  address: r.address,
  amount: formatMoney(BigInt(r.amount)),
  fee: formatMoney(BigInt(r.fee)),
  total: formatMoney(BigInt(r.amount) + BigInt(r.fee)),
  state: r.status,
  txHash: r.tx_hash,
  reason: r.status === 'failed' && locale ? translate(locale, 'withdraw.payoutFailed') : r.reason,
  createdAt: new Date(r.created_at).getTime(),
  updatedAt: new Date(r.updated_at).getTime(),
});

/**
 * `proveOwner` is the step-up (a fresh two-step code when two-step is on), asked after the payment
 * password. A request repeated under its idempotency key answers the first result before any check:
 * its two-step code was used up by the first, and the repeat moves no money.
 */
export async function createWithdrawal(
  db: Database,
  userId: number,
  body: WithdrawCreateBody,
  guard: AddressGuard,
  payPepper: Buffer,
  proveOwner: () => Promise<unknown> = () => Promise.resolve(),
): Promise<WithdrawItem> {
  const amount = parseMoney(body.amount)!; // the schema checked it
  const [earlier] = rowsOf<Row>(await db.execute(sql`select ${COLUMNS} from withdrawals where user_id = ${userId} and idempotency_key = ${body.idempotencyKey}`));
  if (earlier) {
    if (earlier.request_hash !== requestHashOf(body.network, body.address, amount)) throw new AppError('IDEMPOTENCY_KEY_REUSED', {}, 'idempotencyKey');
    return toItem(earlier);
  }
  // Said before the payment password is tried; holdWithdrawal checks it again under the row lock.
  await refuseWhileLocked(db, userId);
  if (amount < WITHDRAW_MIN_MICRO) throw new AppError('WITHDRAW_BELOW_MIN', { min: CONVERSION_MIN }, 'amount');
  if (!isWithdrawAddress(body.network, body.address)) throw new AppError('WITHDRAW_ADDRESS_INVALID', { network: body.network }, 'address');
  await requireBooked(db, userId, body.network, body.address);
  await guard.check(db, userId, body.network, body.address);
  await checkPayPassword(db, userId, body.paidPwd, payPepper);
  await proveOwner();
  return holdWithdrawal(db, userId, { network: body.network, address: body.address, amount, idempotencyKey: body.idempotencyKey });
}

const requestHashOf = (network: string, address: string, amount: bigint) =>
  createHash('sha256').update(JSON.stringify([network, address, amount.toString()])).digest('hex');

/** The withdrawal's row and its hold, in one transaction (the request is checked already). */
export async function holdWithdrawal(
  db: Database,
  userId: number,
  body: { network: WithdrawCreateBody['network']; address: string; amount: bigint; idempotencyKey: string },
): Promise<WithdrawItem> {
  const { amount } = body;
  const requestHash = requestHashOf(body.network, body.address, amount);
  const fee = WITHDRAW_FEE_MICRO;
  try {
    return await db.transaction(async (tx) => {
      // First, the user's row: withdrawals of one user are decided one at a time (the limits below
      // count the ones before). NO KEY UPDATE leaves the foreign-key checks of ledger writes (KEY
      // SHARE) free, so no other money movement waits on it; taken before any account lock.
      await refuseWhileLocked(tx, userId, sql` for no key update`);
      // Again under a lock of the entry: an address removed while the payment password was checked takes nothing.
      await requireBooked(tx, userId, body.network, body.address, sql` for share`);
      const [inserted] = rowsOf<Row>(
        await tx.execute(sql`insert into withdrawals (user_id, idempotency_key, request_hash, network, address, amount, fee, status)
          values (${userId}, ${body.idempotencyKey}, ${requestHash}, ${body.network}, ${body.address}, ${amount.toString()}::bigint, ${fee.toString()}::bigint, 'pendingReview')
          on conflict (user_id, idempotency_key) do nothing returning ${COLUMNS}`),
      );
      if (!inserted) {
        const [existing] = rowsOf<Row>(await tx.execute(sql`select ${COLUMNS} from withdrawals where user_id = ${userId} and idempotency_key = ${body.idempotencyKey}`));
        if (existing.request_hash !== requestHash) throw new AppError('IDEMPOTENCY_KEY_REUSED', {}, 'idempotencyKey');
        return toItem(existing);
      }
      const id = Number(inserted.id);
      // The hold, in this transaction (a savepoint): no withdrawal without its hold, nor the reverse.
      const hold = await postEntry(tx, {
        key: `withdraw:${id}`,
        kind: 'withdrawal',
        userId,
        pending: true,
        memo: `USDT ${body.network} ${body.address}`,
        meta: { withdrawal: id, network: body.network, amount: formatMoney(amount), fee: formatMoney(fee) },
        lines: [
          { account: { userId, wallet: 'balance' }, amount: -(amount + fee) },
          { account: { platform: 'withdrawal_holds' }, amount: amount + fee },
        ],
      });
      // Below the operator's limit it needs no review: straight to processing (the payout) — unless
      // it takes the user past the 24-hour or 30-day limit of their level (under the user's row lock
      // taken above, so two requests at once cannot both slip under it).
      const limits = await limitsOf(tx, userId);
      const over = (w: WithdrawLimits['day']) => parseMoney(w.used)! > parseMoney(w.limit)!;
      const overLimit = over(limits.day) || over(limits.month);
      const auto = !overLimit && amount < (await autoApproveBelow(tx));
      const [held] = rowsOf<Row>(
        await tx.execute(sql`update withdrawals set hold_entry_id = ${hold.id}
            ${auto ? sql`, status = 'processing', reviewed_by = 'auto', reviewed_at = now()` : sql``}
          where id = ${id} returning ${COLUMNS}`),
      );
      await raiseSecurityNotice(tx, userId, 'security.withdrawRequested', { withdrawId: id, amount: amount.toString(), network: body.network, address: body.address }, `/pages/withdraw/withdrawDetail?id=${id}`, String(id));
      return toItem(held);
    });
  } catch (e) {
    if (e instanceof InsufficientFundsError) throw new AppError('INSUFFICIENT_BALANCE', { available: formatMoney(e.available) }, 'amount');
    throw e;
  }
}

export async function withdrawalsOf(db: Database, userId: number, q: { page: number; size: number }, locale?: Locale): Promise<WithdrawList> {
  const rows = rowsOf<Row & { total: string | number }>(
    await db.execute(sql`select ${COLUMNS}, count(*) over () as total from withdrawals where user_id = ${userId}
      order by id desc limit ${q.size} offset ${(q.page - 1) * q.size}`),
  );
  let total = rows.length > 0 ? Number(rows[0].total) : 0;
  if (rows.length === 0 && q.page > 1) {
    const [c] = rowsOf<{ n: string }>(await db.execute(sql`select count(*)::text as n from withdrawals where user_id = ${userId}`));
    total = Number(c.n);
  }
  return { list: rows.map((r) => toItem(r, locale)), total };
}

export async function withdrawalOf(db: Database, userId: number, id: number, locale?: Locale): Promise<WithdrawItem> {
  const [row] = rowsOf<Row>(await db.execute(sql`select ${COLUMNS} from withdrawals where id = ${id} and user_id = ${userId}`));
  if (!row) throw new AppError('NOT_FOUND');
  return toItem(row, locale);
}

// ---------------------------------------------------------------- review (operator)

/** Withdrawals below this (micro-Lightning) skip review; 0 (the default): every one waits for an operator. */
/** Each level's limits: the operator's setting over the defaults, in micro-units. */
export async function withdrawLimitsByLevel(db: Database): Promise<Record<UserLevel, { day: bigint; month: bigint }>> {
  const set = (await getSetting<Partial<Record<UserLevel, { day?: unknown; month?: unknown }>>>(db, SETTING_KEYS.withdrawLimits)) ?? {};
  const micro = (v: unknown, fallback: string) => (typeof v === 'string' ? parseMoney(v) : undefined) ?? parseMoney(fallback)!;
  const out = {} as Record<UserLevel, { day: bigint; month: bigint }>;
  for (const level of USER_LEVELS) {
    const d = WITHDRAW_LIMIT_DEFAULTS[level];
    out[level] = { day: micro(set[level]?.day, d.day), month: micro(set[level]?.month, d.month) };
  }
  return out;
}

export async function setWithdrawLimit(db: Database, level: UserLevel, limit: { day?: bigint; month?: bigint }): Promise<void> {
  const set = (await getSetting<Partial<Record<UserLevel, { day?: string; month?: string }>>>(db, SETTING_KEYS.withdrawLimits)) ?? {};
  const now = await withdrawLimitsByLevel(db);
  set[level] = { day: formatMoney(limit.day ?? now[level].day), month: formatMoney(limit.month ?? now[level].month) };
  await setSetting(db, SETTING_KEYS.withdrawLimits, set);
}

/**
 * The user's limits and what withdrawals pending review, processing and completed used of them over
 * the rolling 24 hours and 30 days (amounts, fees aside); `left` stops at 0.
 */
export async function limitsOf(db: Database, userId: number): Promise<WithdrawLimits> {
  const [user] = rowsOf<{ level: UserLevel }>(await db.execute(sql`select user_level as level from users where id = ${userId}`));
  const level = USER_LEVELS.includes(user?.level) ? user.level : 'none';
  const limit = (await withdrawLimitsByLevel(db))[level];
  const [used] = rowsOf<{ day: string; month: string }>(
    await db.execute(sql`select coalesce(sum(amount) filter (where created_at > now() - interval '24 hours'), 0)::text as day,
        coalesce(sum(amount), 0)::text as month
      from withdrawals where user_id = ${userId} and status in ('pendingReview', 'processing', 'completed') and created_at > now() - interval '30 days'`),
  );
  const window = (max: bigint, spent: bigint) => ({ limit: formatMoney(max), used: formatMoney(spent), left: formatMoney(max > spent ? max - spent : 0n) });
  return { level, day: window(limit.day, BigInt(used.day)), month: window(limit.month, BigInt(used.month)) };
}

/** Withdrawals below it (micro-Lightning) skip the operator's review; 0 (the default): none do. */
export const autoApproveBelow = (db: Database) => amountSetting(db, SETTING_KEYS.withdrawAutoApproveBelow, 0n);
export const setAutoApproveBelow = (db: Database, limit: bigint) => setAmountSetting(db, SETTING_KEYS.withdrawAutoApproveBelow, limit);

/** A withdrawal as the operator sees it: the user's mail and the review beside the user's view. */
export interface WithdrawReviewItem extends WithdrawItem {
  userId: number;
  mail: string;
  reviewedBy: string | null;
  /** The last look at its payout on chain. */
  payoutCheck: string | null;
}

export async function withdrawalsForReview(db: Database, q: { states: readonly WithdrawState[]; limit: number }): Promise<WithdrawReviewItem[]> {
  const rows = rowsOf<Row & { user_id: string | number; mail: string; reviewed_by: string | null; payout_check: string | null }>(
    await db.execute(sql`select ${columnsOf('w.')}, w.user_id, u.mail, w.reviewed_by, w.payout_check
        from withdrawals w join users u on u.id = w.user_id
       where w.status in (${sql.join(q.states.map((st) => sql`${st}`), sql`, `)})
       order by w.id limit ${q.limit}`),
  );
  return rows.map((r) => ({ ...toItem(r), userId: Number(r.user_id), mail: r.mail, reviewedBy: r.reviewed_by, payoutCheck: r.payout_check }));
}

/** pendingReview → processing: the payout may start. `reviewer`: the console operator's e-mail (the shell: 'operator'). */
export async function approveWithdrawal(db: Database, id: number, reviewer = 'operator'): Promise<WithdrawItem> {
  const [row] = rowsOf<Row>(
    await db.execute(sql`update withdrawals set status = 'processing', reviewed_by = ${reviewer}, reviewed_at = now(), updated_at = now()
        where id = ${id} and status = 'pendingReview' returning ${COLUMNS}`),
  );
  if (row) return toItem(row);
  throw await stateError(db, id, ['pendingReview']);
}

type HeldRow = Row & { hold_entry_id: string | number | null };

/**
 * Ends a withdrawal whose money has not left: locks its row, checks it may end (`allowed`; else
 * WITHDRAW_STATE with the state it is in), voids its hold and writes the final state, in one
 * transaction. Rejection and cancellation share the void key, so the row lock decides which of the
 * two happens, never both.
 */
async function releaseWithdrawal(
  db: Database,
  id: number,
  ownedBy: number | null,
  allowed: (row: HeldRow) => boolean,
  /** The final state's columns, after `set`. */
  final: ReturnType<typeof sql>,
): Promise<Row> {
  return db.transaction(async (tx) => {
    const owner = ownedBy === null ? sql`` : sql` and user_id = ${ownedBy}`;
    const [row] = rowsOf<HeldRow>(await tx.execute(sql`select ${COLUMNS}, hold_entry_id from withdrawals where id = ${id}${owner} for update`));
    if (!row) throw new AppError('NOT_FOUND');
    if (!allowed(row)) throw new AppError('WITHDRAW_STATE', { state: row.status }, 'id');
    if (row.hold_entry_id !== null) await voidPending(tx, Number(row.hold_entry_id), `withdraw:${id}:void`);
    const [done] = rowsOf<Row>(await tx.execute(sql`update withdrawals set ${final}, updated_at = now() where id = ${id} returning ${COLUMNS}`));
    return done;
  });
}

/**
 * pendingReview | processing (nothing sent yet) → rejected: the hold is voided in the same
 * transaction, so the user has the money back exactly when the withdrawal says rejected, and the
 * reason is what the user reads on the detail page.
 */
export async function rejectWithdrawal(db: Database, id: number, reason: string, reviewer = 'operator'): Promise<WithdrawItem> {
  const why = reason.trim();
  if (!why) throw new AppError('VALIDATION_FAILED', { field: 'reason' }, 'reason');
  const done = await releaseWithdrawal(
    db,
    id,
    null,
    (row) => row.status === 'pendingReview' || (row.status === 'processing' && row.tx_hash === null),
    sql`status = 'rejected', reason = ${why}, reviewed_by = coalesce(reviewed_by, ${reviewer}), reviewed_at = coalesce(reviewed_at, now())`,
  );
  return toItem(done);
}

/** pendingReview → cancelled, by its owner, until an operator approves it. Another user's withdrawal is not found. */
export async function cancelWithdrawal(db: Database, userId: number, id: number, locale?: Locale): Promise<WithdrawItem> {
  const done = await releaseWithdrawal(
    db,
    id,
    userId,
    (row) => row.status === 'pendingReview',
    sql`status = 'cancelled', reviewed_by = 'user', reviewed_at = now()`,
  );
  return toItem(done, locale);
}

async function stateError(db: Database, id: number, expected: readonly WithdrawState[]): Promise<AppError> {
  const [row] = rowsOf<{ status: WithdrawState }>(await db.execute(sql`select status from withdrawals where id = ${id}`));
  if (!row) return new AppError('NOT_FOUND');
  return new AppError('WITHDRAW_STATE', { state: row.status, expected: expected.join(', ') }, 'id');
}
