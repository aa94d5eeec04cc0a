// Rebate settlement (business.md "Settlement, precisely"): the payments of a day — posted ledger
// entries of kind purchase (unlock, packs, renewals), in the platform timezone's calendar day — pay
// the payer's referrers into their rebate wallets, by the level each held when the payment was
// made (the last user_level_changes row at or before it; before the first change, that change's
// from-level; never changed, the level now), at the rates in force when it was made
// (rebate_rate_history; issue 53 item 7). The amounts are @lq/contracts `rebatesOf`.
// Batches of payments, each one transaction: the rebate_payments rows first (the claim: a payment
// already settled, or being settled by another run, is skipped), then one ledger entry per payment
// (key rebate:<payment entry>, lines from platform rebate expense to each earner's rebate wallet),
// then the rebates rows. Killed at any line, a batch is undone whole; run again, it pays nothing twice.
import { AppError, DEFAULT_REBATE_RATES, formatMoney, rebateRates, rebatesOf, type RebateItem, type RebateList, type RebateRates, type RebateShare, type RebateSums } from '@lq/contracts';
import { getSetting, rowsOf, setSetting, sql, type Database, type SQL } from '@lq/db';
import { CSV_BOM, csvLine } from '../platform/csv';
import { dayAfter, dayOf, dayStart, monthStartOf } from '../platform/windows';
import { postEntries, type EntryCommand } from '../wallet';

export const REBATE_RATES_KEY = 'rebate.rates';

/**
 * The level user `user` held at instant `at`: the last change at or before it; before the first
 * change, that change's from-level; never changed, `now` (the level today). Shared by rebate
 * settlement (at payment time) and dividends (at the month's end).
 */
export const levelAtSql = (user: SQL, at: SQL, now: SQL): SQL =>
  sql`coalesce((select c.to_level from user_level_changes c where c.user_id = ${user} and c.at <= ${at} order by c.id desc limit 1),
    (select c.from_level from user_level_changes c where c.user_id = ${user} and c.at > ${at} order by c.id limit 1),
    ${now})`;
/** The last day the daily job settled whole (YYYY-MM-DD): the next run starts the day after. */
export const REBATES_SETTLED_THROUGH_KEY = 'rebate.settledThrough';
export const REBATE_BATCH = 1_000;

export async function ratesOf(db: Database): Promise<RebateRates> {
  const stored = await getSetting<unknown>(db, REBATE_RATES_KEY);
  return stored === undefined ? DEFAULT_REBATE_RATES : rebateRates.parse(stored);
}

/**
 * Stores the rates unless their worst case pays more than `maxPayoutBp` of a payment: the walk up
 * pays the top rate in differentials at most, and each differential may carry the same-level share
 * of itself (issue 53 item 3: VIP1 at 100 % with a 100 % share paid 200 of 100).
 */
export async function setRates(db: Database, value: RebateRates, maxPayoutBp: number): Promise<void> {
  const rates = rebateRates.parse(value);
  assertRatesWithinCap(rates, maxPayoutBp);
  await setSetting(db, REBATE_RATES_KEY, rates);
  // Kept with the time it takes effect: payments made before are settled at the rates they were made under.
  await db.execute(sql`insert into rebate_rate_history (rates) values (${JSON.stringify(rates)}::jsonb)`);
}

/** The rates' history, oldest first (a handful of rows). */
export type RateHistory = ReadonlyArray<{ since: number; rates: RebateRates }>;
export async function rateHistoryOf(db: Pick<Database, 'execute'>): Promise<RateHistory> {
  const rows = rowsOf<{ since: string; rates: unknown }>(await db.execute(sql`select since::text as since, rates from rebate_rate_history order by since, id`));
  return rows.map((r) => ({ since: r.since === '-infinity' ? -Infinity : Date.parse(r.since), rates: rebateRates.parse(r.rates) }));
}

/** The rates in force at `at` (ms): the last change at or before it; before any, the defaults (issue 53 item 7). */
export function ratesAt(history: RateHistory, at: number): RebateRates {
  let rates: RebateRates = DEFAULT_REBATE_RATES;
  for (const h of history) {
    if (h.since > at) break;
    rates = h.rates;
  }
  return rates;
}

/** Refuses rates whose worst case pays more than `maxPayoutBp` of a payment (REBATE_RATES_OVER_CAP). */
export function assertRatesWithinCap(rates: RebateRates, maxPayoutBp: number): void {
  const worst = worstPayoutBp(rates);
  if (worst > maxPayoutBp) throw new AppError('REBATE_RATES_OVER_CAP', { worst: percentOf(worst), cap: percentOf(maxPayoutBp) }, 'rates');
}

/** Basis points of a payment the rates can pay at most: the top rate plus the same-level share of it (exact: ceil). */
export function worstPayoutBp(rates: RebateRates): number {
  const top = Math.max(rates.none, rates.VIP1, rates.VIP2, rates.VIP3, rates.VIP4, rates.VIP5);
  return top + Math.ceil((top * rates.sameLevelShare) / 10_000);
}

const percentOf = (bp: number) => String(bp / 100);

/** Yesterday in `timeZone` (the instant before today 00:00 there: a 23- or 25-hour day is still one day). */
const yesterdayIn = (timeZone: string): string => dayOf(new Date(dayStart(dayOf(new Date(), timeZone), timeZone).getTime() - 1), timeZone);

export interface SettleRun {
  day: string;
  from: Date;
  to: Date;
  /** Payments settled by this run (those settled before are skipped). */
  payments: number;
  /** Rebate rows written, and their sum in micro-Lightning. */
  rebates: number;
  total: bigint;
}

interface Payment {
  id: string;
  payer: string;
  amount: string;
  at: string;
}

interface UplineRow {
  entry_id: string;
  depth: number;
  ancestor_id: string;
  level: string;
}

/** The ledger command paying one payment's rebates (one line per earner; the platform's rebate expense pays). */
function rebateEntry(p: Payment, shares: readonly RebateShare[]): EntryCommand {
  const byUser = new Map<number, bigint>();
  for (const s of shares) byUser.set(s.userId, (byUser.get(s.userId) ?? 0n) + s.amount);
  const total = shares.reduce((sum, s) => sum + s.amount, 0n);
  return {
    key: `rebate:${p.id}`,
    kind: 'rebate',
    memo: `payment #${p.id}`,
    meta: { payment: Number(p.id), amount: formatMoney(BigInt(p.amount)) },
    lines: [{ account: { platform: 'rebate_expense' }, amount: -total }, ...[...byUser].map(([userId, amount]) => ({ account: { userId, wallet: 'rebate' as const }, amount }))],
  };
}

/** Settles one batch of the day's unsettled payments after `after` (created_at, id); answers the last one seen, or null when none was left. */
async function settleBatch(
  db: Database,
  from: Date,
  to: Date,
  after: { at: string; id: string } | null,
  history: RateHistory,
  size: number,
): Promise<{ last: { at: string; id: string } | null; payments: number; rebates: number; total: bigint }> {
  return db.transaction(async (tx) => {
    const cursor = after ? sql`and (e.created_at, e.id) > (${after.at}::timestamptz, ${after.id}::bigint)` : sql``;
    const candidates = rowsOf<Payment>(
      await tx.execute(sql`select e.id::text as id, e.user_id::text as payer, e.created_at::text as at,
          (select (-l.amount)::text from ledger_lines l where l.entry_id = e.id and l.user_id = e.user_id and l.amount < 0 limit 1) as amount
        from ledger_entries e
       where e.kind = 'purchase' and e.status = 'posted' and e.user_id is not null
         and e.created_at >= ${from.toISOString()}::timestamptz and e.created_at < ${to.toISOString()}::timestamptz ${cursor}
         and not exists (select 1 from rebate_payments s where s.entry_id = e.id)
       order by e.created_at, e.id limit ${size}`),
    );
    if (candidates.length === 0) return { last: null, payments: 0, rebates: 0, total: 0n };
    const last = { at: candidates[candidates.length - 1].at, id: candidates[candidates.length - 1].id };
    const payments = candidates.filter((p) => p.amount !== null);

    // Every payer's upline with the level each held at the payment's time: one statement.
    const upline = rowsOf<UplineRow>(
      await tx.execute(sql`select p.id::text as entry_id, t.depth, t.ancestor_id::text as ancestor_id,
          ${levelAtSql(sql`t.ancestor_id`, sql`p.at`, sql`u.user_level`)} as level
        from jsonb_to_recordset(${JSON.stringify(payments.map((p) => ({ id: p.id, payer: p.payer, at: p.at })))}::jsonb) as p(id bigint, payer bigint, at timestamptz)
        join user_tree t on t.descendant_id = p.payer
        join users u on u.id = t.ancestor_id
       order by p.id, t.depth`),
    );
    const uplineOf = new Map<string, Array<{ userId: number; level: string }>>();
    for (const r of upline) {
      const list = uplineOf.get(r.entry_id) ?? [];
      list[r.depth - 1] = { userId: Number(r.ancestor_id), level: r.level };
      uplineOf.set(r.entry_id, list);
    }
    // Each payment at the rates in force when it was made, not today's.
    const shares = new Map(payments.map((p) => [p.id, rebatesOf(BigInt(p.amount), uplineOf.get(p.id) ?? [], ratesAt(history, Date.parse(p.at)))]));
    const totalOf = (id: string) => (shares.get(id) ?? []).reduce((sum, s) => sum + s.amount, 0n);

    // The claim: payments another run settled meanwhile come back as conflicts and are left alone.
    const claimed = new Set(
      rowsOf<{ entry_id: string }>(
        await tx.execute(sql`insert into rebate_payments (entry_id, payer_id, amount, paid_at, rebate_total)
          select p.entry_id, p.payer_id, p.amount, p.paid_at, p.rebate_total
            from jsonb_to_recordset(${JSON.stringify(payments.map((p) => ({ entry_id: p.id, payer_id: p.payer, amount: p.amount, paid_at: p.at, rebate_total: totalOf(p.id).toString() })))}::jsonb)
              as p(entry_id bigint, payer_id bigint, amount bigint, paid_at timestamptz, rebate_total bigint)
          on conflict (entry_id) do nothing returning entry_id::text as entry_id`),
      ).map((r) => r.entry_id),
    );
    const paying = payments.filter((p) => claimed.has(p.id) && totalOf(p.id) > 0n);
    await postEntries(tx, paying.map((p) => rebateEntry(p, shares.get(p.id)!)));
    const rows = paying.flatMap((p) =>
      shares.get(p.id)!.map((s) => ({
        payment_entry_id: p.id,
        user_id: s.userId,
        payer_id: p.payer,
        depth: s.depth,
        level: s.level,
        kind: s.kind,
        rate: s.rate,
        payment_amount: p.amount,
        amount: s.amount.toString(),
        paid_at: p.at,
      })),
    );
    if (rows.length > 0) {
      await tx.execute(sql`insert into rebates (payment_entry_id, user_id, payer_id, depth, level, kind, rate, payment_amount, amount, paid_at)
        select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          as r(payment_entry_id bigint, user_id bigint, payer_id bigint, depth integer, level text, kind text, rate integer, payment_amount bigint, amount bigint, paid_at timestamptz)`);
    }
    return { last, payments: claimed.size, rebates: rows.length, total: rows.reduce((sum, r) => sum + BigInt(r.amount), 0n) };
  });
}

/**
 * Settles the payments made on `day` (YYYY-MM-DD in `timeZone`; default yesterday) that are not
 * settled yet. Safe to run again, at the same time as another run, or after a kill.
 */
export async function settleRebates(db: Database, timeZone: string, day?: string, options: { batch?: number } = {}): Promise<SettleRun> {
  const settled = day ?? yesterdayIn(timeZone);
  const from = dayStart(settled, timeZone);
  const to = dayStart(dayAfter(settled), timeZone);
  const history = await rateHistoryOf(db);
  const run: SettleRun = { day: settled, from, to, payments: 0, rebates: 0, total: 0n };
  let after: { at: string; id: string } | null = null;
  for (;;) {
    const batch = await settleBatch(db, from, to, after, history, options.batch ?? REBATE_BATCH);
    if (!batch.last) return run;
    after = batch.last;
    run.payments += batch.payments;
    run.rebates += batch.rebates;
    run.total += batch.total;
  }
}

/**
 * The daily job's pass: every day from the one after the last settled whole (or yesterday, the
 * first time) through yesterday, then that day recorded — a server down for days catches up.
 */
export async function settleDueRebates(db: Database, timeZone: string): Promise<SettleRun[]> {
  const yesterday = yesterdayIn(timeZone);
  const through = await getSetting<string>(db, REBATES_SETTLED_THROUGH_KEY);
  const runs: SettleRun[] = [];
  for (let day = through ? dayAfter(through) : yesterday; day <= yesterday; day = dayAfter(day)) {
    runs.push(await settleRebates(db, timeZone, day));
    await setSetting(db, REBATES_SETTLED_THROUGH_KEY, day);
  }
  return runs;
}

// ---------------------------------------------------------------- what a user reads

type Runner = Pick<Database, 'execute'>;

/** Rebates credited to `userId` today and this month (in `timeZone`) and ever: from the rebates_user_idx index alone. */
export async function rebateSumsOf(db: Runner, userId: number, timeZone: string, now: Date = new Date()): Promise<RebateSums> {
  const today = dayStart(dayOf(now, timeZone), timeZone);
  const month = monthStartOf(now, timeZone);
  const [row] = rowsOf<{ today: string; month: string; total: string }>(
    await db.execute(sql`select coalesce(sum(amount) filter (where created_at >= ${today.toISOString()}::timestamptz), 0)::text as today,
        coalesce(sum(amount) filter (where created_at >= ${month.toISOString()}::timestamptz), 0)::text as month,
        coalesce(sum(amount), 0)::text as total
      from rebates where user_id = ${userId}`),
  );
  return { today: formatMoney(BigInt(row.today)), month: formatMoney(BigInt(row.month)), total: formatMoney(BigInt(row.total)), timeZone };
}

interface RebateRow {
  id: string;
  payment_entry_id: string;
  paid_at: Date | string;
  created_at: Date | string;
  nickname: string | null;
  user_code: string;
  depth: number;
  level: RebateItem['level'];
  kind: RebateItem['kind'];
  rate: number;
  payment_amount: string;
  amount: string;
}

const rebateColumns = sql`r.id::text as id, r.payment_entry_id::text as payment_entry_id, r.paid_at, r.created_at, u.nickname, u.user_code,
  r.depth, r.level, r.kind, r.rate, r.payment_amount::text as payment_amount, r.amount::text as amount`;

const toItem = (r: RebateRow): RebateItem => ({
  id: Number(r.id),
  paymentId: Number(r.payment_entry_id),
  paidAt: new Date(r.paid_at).getTime(),
  creditedAt: new Date(r.created_at).getTime(),
  payer: { nickname: r.nickname, userCode: r.user_code },
  depth: r.depth,
  level: r.level,
  kind: r.kind,
  rate: String(r.rate / 100),
  paymentAmount: formatMoney(BigInt(r.payment_amount)),
  amount: formatMoney(BigInt(r.amount)),
});

/** The caller's rebates, newest first, with the payment each came from. */
export async function rebateListOf(db: Runner, userId: number, q: { page: number; size: number }, timeZone: string): Promise<RebateList> {
  const rows = rowsOf<RebateRow>(
    await db.execute(sql`select ${rebateColumns}
      from (select id from rebates where user_id = ${userId} order by created_at desc, id desc limit ${q.size} offset ${(q.page - 1) * q.size}) page
      join rebates r on r.id = page.id join users u on u.id = r.payer_id
     order by r.created_at desc, r.id desc`),
  );
  const [{ total }] = rowsOf<{ total: number }>(await db.execute(sql`select count(*)::int as total from rebates where user_id = ${userId}`));
  return { list: rows.map(toItem), total, sums: await rebateSumsOf(db, userId, timeZone) };
}

const CSV_HEADER = ['credited_at', 'payment_id', 'paid_at', 'payer_code', 'payer_nickname', 'depth', 'level', 'kind', 'rate_percent', 'payment_amount', 'amount'];

/** The caller's whole rebate history as CSV lines (header first), oldest first, read in keyset pages. */
export async function* rebateCsvOf(db: Runner, userId: number): AsyncGenerator<string> {
  yield CSV_BOM + csvLine(CSV_HEADER);
  let after: { at: string; id: string } | null = null;
  for (;;) {
    // Keyset pages over rebates_user_idx (user, created_at, id); the cursor is the last row's.
    const cursor: SQL = after ? sql`and (r.created_at, r.id) > (${after.at}::timestamptz, ${after.id}::bigint)` : sql``;
    const rows = rowsOf<RebateRow & { at: string }>(
      await db.execute(sql`select ${rebateColumns}, r.created_at::text as at from rebates r join users u on u.id = r.payer_id
        where r.user_id = ${userId} ${cursor} order by r.created_at, r.id limit 5000`),
    );
    if (rows.length === 0) return;
    after = { at: rows[rows.length - 1].at, id: rows[rows.length - 1].id };
    yield rows
      .map((r) => {
        const i = toItem(r);
        return csvLine([new Date(i.creditedAt).toISOString(), String(i.paymentId), new Date(i.paidAt).toISOString(), i.payer.userCode, i.payer.nickname ?? '', String(i.depth), i.level, i.kind, i.rate, i.paymentAmount, i.amount]);
      })
      .join('');
  }
}
