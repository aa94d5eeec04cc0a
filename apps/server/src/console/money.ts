// The console's money screens: withdrawals to review (with each user's limits as they stand and the
// approval waiting for a second operator), deposits as the chain watcher saw them, and the amounts
// that decide who reviews what. Filtered, sorted and paged on the server.
import {
  DEPOSIT_MIN,
  formatMoney,
  parseMoney,
  USER_LEVELS,
  type ConsoleDepositList,
  type ConsoleDepositState,
  type consoleDepositsQuery,
  type ConsoleMoneySettings,
  type ConsoleWithdrawalList,
  type consoleWithdrawalsQuery,
  type DepositNetwork,
  type UserLevel,
  type WithdrawState,
} from '@lq/contracts';
import type { z } from 'zod';
import { containsPattern, rowsOf, sql, type Database, type SQL } from '@lq/db';
import { autoApproveBelow, withdrawLimitsByLevel } from '../withdrawals';
import { soloDailyLimit, twoPersonAbove } from '../wallet';
import { pendingSettingsChange } from './setting-changes';

type Runner = Pick<Database, 'execute'>;
const MONEY_ORDER = (t: string): Record<'id' | '-id' | 'amount' | '-amount', SQL> => ({
  id: sql.raw(`${t}.id`),
  '-id': sql.raw(`${t}.id desc`),
  amount: sql.raw(`${t}.amount, ${t}.id`),
  '-amount': sql.raw(`${t}.amount desc, ${t}.id desc`),
});

interface WithdrawRow {
  id: string;
  network: DepositNetwork;
  address: string;
  amount: string;
  fee: string;
  status: WithdrawState;
  tx_hash: string | null;
  reason: string | null;
  created_at: string;
  updated_at: string;
  user_id: string;
  mail: string;
  user_level: UserLevel;
  reviewed_by: string | null;
  payout_check: string | null;
  used_day: string;
  used_month: string;
  approval_id: string | null;
  approval_by: string | null;
  approval_at: string | null;
}

type WithdrawQuery = z.output<typeof consoleWithdrawalsQuery>;

export async function withdrawalsForConsole(db: Database, q: WithdrawQuery): Promise<ConsoleWithdrawalList> {
  const parts: SQL[] = [];
  if (q.state === 'open') parts.push(sql`w.status in ('pendingReview', 'processing')`);
  else if (q.state !== 'all') parts.push(sql`w.status = ${q.state}`);
  // A number is a withdrawal's or a user's id; anything else a part of the e-mail, address or transaction.
  if (q.q && /^\d{1,18}$/.test(q.q)) parts.push(sql`(w.id = ${q.q}::bigint or w.user_id = ${q.q}::bigint)`);
  else if (q.q) parts.push(sql`(u.mail ilike ${containsPattern(q.q)} or w.address ilike ${containsPattern(q.q)} or w.tx_hash ilike ${containsPattern(q.q)})`);
  const where = parts.length > 0 ? sql.join(parts, sql` and `) : sql`true`;
  const rows = rowsOf<WithdrawRow>(
    await db.execute(sql`select w.id::text as id, w.network, w.address, w.amount::text as amount, w.fee::text as fee, w.status, w.tx_hash, w.reason,
        w.created_at::text as created_at, w.updated_at::text as updated_at, w.user_id::text as user_id, u.mail, u.user_level, w.reviewed_by, w.payout_check,
        used.day::text as used_day, used.month::text as used_month,
        a.id::text as approval_id, o.mail as approval_by, a.created_at::text as approval_at
      from withdrawals w
      join users u on u.id = w.user_id
      cross join lateral (select coalesce(sum(x.amount) filter (where x.created_at > now() - interval '24 hours'), 0) as day, coalesce(sum(x.amount), 0) as month
          from withdrawals x where x.user_id = w.user_id and x.status in ('pendingReview', 'processing', 'completed') and x.created_at > now() - interval '30 days') used
      left join operator_approvals a on a.kind = 'withdraw.approve' and a.object_id = w.id and a.status = 'pending'
      left join operators o on o.id = a.requested_by
      where ${where} order by ${MONEY_ORDER('w')[q.sort]} limit ${q.size} offset ${(q.page - 1) * q.size}`),
  );
  const [{ total }] = rowsOf<{ total: number }>(await db.execute(sql`select count(*)::int as total from withdrawals w join users u on u.id = w.user_id where ${where}`));
  const limits = await withdrawLimitsByLevel(db);
  const two = await twoPersonAbove(db);
  const window = (max: bigint, used: bigint) => ({ limit: formatMoney(max), used: formatMoney(used), left: formatMoney(max > used ? max - used : 0n) });
  return {
    total,
    list: rows.map((r) => {
      const level = USER_LEVELS.includes(r.user_level) ? r.user_level : 'none';
      const lim = limits[level];
      const day = BigInt(r.used_day);
      const month = BigInt(r.used_month);
      const amount = BigInt(r.amount);
      return {
        id: Number(r.id),
        network: r.network,
        address: r.address,
        amount: formatMoney(amount),
        fee: formatMoney(BigInt(r.fee)),
        total: formatMoney(amount + BigInt(r.fee)),
        state: r.status,
        txHash: r.tx_hash,
        reason: r.reason,
        createdAt: Date.parse(r.created_at),
        updatedAt: Date.parse(r.updated_at),
        userId: Number(r.user_id),
        mail: r.mail,
        level,
        reviewedBy: r.reviewed_by,
        payoutCheck: r.payout_check,
        limits: { day: window(lim.day, day), month: window(lim.month, month) },
        overLimit: day > lim.day || month > lim.month,
        needsSecond: amount > two,
        approval: r.approval_id === null ? null : { id: Number(r.approval_id), requestedBy: r.approval_by!, requestedAt: Date.parse(r.approval_at!) },
      };
    }),
  };
}

interface DepositRow {
  id: string;
  network: DepositNetwork;
  tx_hash: string;
  log_index: number;
  from_address: string;
  user_id: string;
  mail: string;
  amount: string;
  status: 'pending' | 'confirmed' | 'credited' | 'dropped';
  block_number: string;
  last_head: string | null;
  seen_at: string;
  credited_at: string | null;
  entry_id: string | null;
}

const DEPOSIT_STATUS: Record<ConsoleDepositState, string> = { pending: 'pending', waiting: 'confirmed', credited: 'credited', dropped: 'dropped' };
const depositState = (status: DepositRow['status']): ConsoleDepositState => (status === 'confirmed' ? 'waiting' : status);

type DepositQuery = z.output<typeof consoleDepositsQuery>;

/** Chain deposits: pending with their confirmations, waiting (confirmed, below the minimum), credited, dropped by a reorganisation. */
export async function depositsForConsole(db: Runner, confirmations: Record<DepositNetwork, number>, q: DepositQuery): Promise<ConsoleDepositList> {
  const parts: SQL[] = [];
  if (q.state !== 'all') parts.push(sql`d.status = ${DEPOSIT_STATUS[q.state]}`);
  if (q.network) parts.push(sql`d.network = ${q.network}`);
  if (q.q && /^\d{1,18}$/.test(q.q)) parts.push(sql`(d.id = ${q.q}::bigint or d.user_id = ${q.q}::bigint)`);
  else if (q.q) parts.push(sql`(u.mail ilike ${containsPattern(q.q)} or d.tx_hash ilike ${containsPattern(q.q)} or d.from_address ilike ${containsPattern(q.q)})`);
  const where = parts.length > 0 ? sql.join(parts, sql` and `) : sql`true`;
  const rows = rowsOf<DepositRow>(
    await db.execute(sql`select d.id::text as id, d.network, d.tx_hash, d.log_index, d.from_address, d.user_id::text as user_id, u.mail, d.amount::text as amount,
        d.status, d.block_number::text as block_number, c.last_head::text as last_head, d.seen_at::text as seen_at, d.credited_at::text as credited_at, d.entry_id::text as entry_id
      from chain_deposits d join users u on u.id = d.user_id left join chain_cursors c on c.network = d.network
      where ${where} order by ${MONEY_ORDER('d')[q.sort]} limit ${q.size} offset ${(q.page - 1) * q.size}`),
  );
  const [{ total }] = rowsOf<{ total: number }>(await db.execute(sql`select count(*)::int as total from chain_deposits d join users u on u.id = d.user_id where ${where}`));
  return {
    total,
    minimum: formatMoney(parseMoney(String(DEPOSIT_MIN))!),
    list: rows.map((r) => {
      const needed = confirmations[r.network] ?? 0;
      const depth = r.last_head === null ? 0 : Number(r.last_head) - Number(r.block_number) + 1;
      return {
        id: Number(r.id),
        network: r.network,
        txHash: r.tx_hash,
        logIndex: r.log_index,
        fromAddress: r.from_address,
        userId: Number(r.user_id),
        mail: r.mail,
        amount: formatMoney(BigInt(r.amount)),
        state: depositState(r.status),
        confirmations: r.status === 'pending' || r.status === 'dropped' ? Math.max(0, Math.min(depth, needed)) : needed,
        confirmationsNeeded: needed,
        seenAt: Date.parse(r.seen_at),
        creditedAt: r.credited_at === null ? null : Date.parse(r.credited_at),
        entryId: r.entry_id === null ? null : Number(r.entry_id),
      };
    }),
  };
}

export async function moneySettingsOf(db: Database, operatorId: number): Promise<ConsoleMoneySettings> {
  const limits = await withdrawLimitsByLevel(db);
  return {
    autoApproveBelow: formatMoney(await autoApproveBelow(db)),
    twoPersonAbove: formatMoney(await twoPersonAbove(db)),
    soloDailyLimit: formatMoney(await soloDailyLimit(db)),
    limits: Object.fromEntries(USER_LEVELS.map((l) => [l, { day: formatMoney(limits[l].day), month: formatMoney(limits[l].month) }])) as ConsoleMoneySettings['limits'],
    pending: await pendingSettingsChange(db, operatorId, 'money'),
  };
}
