// Auto-renew (business.md "Benefits, seats and slots"): a pack with auto-renew on is renewed at its
// expiry from the balance wallet, once per period. Period n of a purchase is attempted exactly once
// (benefit_renewals, unique (purchase, period)): renewed — a ledger entry keyed
// `benefit-renew:<purchase>:<n>`, the pack extended by its months from its old end — or failed (too
// little balance): the pack expires and the user is mailed. Each renewal is one transaction: a
// kill at any line leaves it undone or done, and a second run finds it done.
import { formatMoney, PACK_DAYS_PER_MONTH, translate, type Locale } from '@lq/contracts';
import { rowsOf, sql, type Database } from '@lq/db';
import type { OutgoingMail } from '../platform/mail';
import { InsufficientFundsError, postEntry } from '../wallet';
import { pricesOf } from './service';

interface Due {
  id: string | number;
  user_id: string | number;
  item: 'seat' | 'slot';
  market: string;
  quantity: number;
  months: number;
  renewals: number;
  expires_at: Date | string;
}

export interface RenewResult {
  renewed: number;
  failed: number;
}

/** Renews one due pack (locked, checked again inside the transaction); undefined when it is not due any more. */
async function renewOne(db: Database, purchaseId: number): Promise<'renewed' | 'failed' | undefined> {
  return db.transaction(async (tx) => {
    const [p] = rowsOf<Due>(
      await tx.execute(sql`select id, user_id, item, market, quantity, months, renewals, expires_at from benefit_purchases
        where id = ${purchaseId} and auto_renew and item <> 'unlock' and expires_at <= now() for update`),
    );
    if (!p) return undefined;
    const period = p.renewals + 1;
    const [done] = rowsOf(await tx.execute(sql`select 1 from benefit_renewals where purchase_id = ${purchaseId} and period = ${period}`));
    if (done) return undefined;
    const prices = await pricesOf(tx);
    const amount = prices[p.item] * BigInt(p.quantity) * BigInt(p.months);
    const userId = Number(p.user_id);
    const start = new Date(p.expires_at);
    const end = sql`${start.toISOString()}::timestamptz + make_interval(days => ${p.months * PACK_DAYS_PER_MONTH})`;
    try {
      const entry = await postEntry(tx, {
        key: `benefit-renew:${purchaseId}:${period}`,
        kind: 'purchase',
        userId,
        memo: `renewal ${period}: ${p.quantity} ${p.item} ${p.market} × ${p.months} month(s)`,
        meta: { purchase: purchaseId, renewal: period, item: p.item, market: p.market, quantity: p.quantity, months: p.months, amount: formatMoney(amount) },
        lines: [
          { account: { userId, wallet: 'balance' }, amount: -amount },
          { account: { platform: 'revenue' }, amount },
        ],
      });
      await tx.execute(sql`insert into benefit_renewals (purchase_id, period, status, amount, entry_id, period_start, period_end)
        values (${purchaseId}, ${period}, 'renewed', ${amount.toString()}::bigint, ${entry.id}, ${start.toISOString()}::timestamptz, ${end})`);
      await tx.execute(sql`update benefit_purchases set renewals = ${period}, expires_at = ${end} where id = ${purchaseId}`);
      return 'renewed';
    } catch (e) {
      if (!(e instanceof InsufficientFundsError)) throw e;
      // Said once, kept: this period is not tried again, so the pack stays expired.
      await tx.execute(sql`insert into benefit_renewals (purchase_id, period, status, amount, reason, balance, period_start, period_end)
        values (${purchaseId}, ${period}, 'failed', ${amount.toString()}::bigint, 'insufficient balance', ${e.available.toString()}::bigint,
          ${start.toISOString()}::timestamptz, ${end})`);
      return 'failed';
    }
  });
}

/** Renews every pack due now, oldest expiry first, in batches of `batch`. */
export async function renewDue(db: Database, options: { batch?: number } = {}): Promise<RenewResult> {
  const batch = options.batch ?? 500;
  const result: RenewResult = { renewed: 0, failed: 0 };
  for (;;) {
    const due = rowsOf<{ id: string | number }>(
      await db.execute(sql`select p.id from benefit_purchases p
        where p.auto_renew and p.item <> 'unlock' and p.expires_at <= now()
          and not exists (select 1 from benefit_renewals r where r.purchase_id = p.id and r.period = p.renewals + 1)
        order by p.expires_at, p.id limit ${batch}`),
    );
    for (const { id } of due) {
      const outcome = await renewOne(db, Number(id));
      if (outcome) result[outcome]++;
    }
    if (due.length < batch) return result;
  }
}

/**
 * Mails the owner of each failed renewal not told yet, then marks it told: a kill between the two
 * mails it again (at least once, never lost).
 */
export async function notifyFailedRenewals(db: Database, send: (mail: OutgoingMail) => Promise<void>): Promise<number> {
  const rows = rowsOf<{ id: string | number; mail: string; locale: Locale; item: string; market: string; quantity: number; amount: string; balance: string | null; created_at: Date | string }>(
    await db.execute(sql`select r.id, u.mail, u.locale, p.item, p.market, p.quantity, r.amount::text as amount, r.balance::text as balance, r.created_at
      from benefit_renewals r join benefit_purchases p on p.id = r.purchase_id join users u on u.id = p.user_id
      where r.status = 'failed' and r.notified_at is null order by r.id limit 500`),
  );
  for (const r of rows) {
    const what = `${r.quantity} × ${translate(r.locale, `benefit.item.${r.item}`)}, ${translate(r.locale, `benefit.market.${r.market}`)}`;
    await send({
      to: r.mail,
      subject: translate(r.locale, 'mail.renewFailed.subject'),
      text: translate(r.locale, 'mail.renewFailed.body', {
        what,
        at: new Date(r.created_at).toISOString().replace('T', ' ').slice(0, 16) + ' UTC',
        available: formatMoney(BigInt(r.balance ?? '0')).replace(/\.?0+$/, ''),
        amount: formatMoney(BigInt(r.amount)).replace(/\.?0+$/, ''),
      }),
    });
    await db.execute(sql`update benefit_renewals set notified_at = now() where id = ${r.id}`);
  }
  return rows.length;
}
