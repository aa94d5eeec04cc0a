// Auto-renew (business.md "Benefits, seats and slots"): a pack with auto-renew on is renewed at its
// expiry from the balance wallet, once per period. Period n of a purchase is attempted exactly once
// (benefit_renewals, unique (purchase, period)): renewed — a ledger entry keyed
// `benefit-renew:<purchase>:<n>`, the pack extended by one period (30 days) from its old end — or
// failed (too little balance): the pack expires and the user is mailed. Renewals are done in
// batches, each one transaction (renewBatch).
// As the auto-renewal agreement says (issue 53 item 5): one period at the price shown when
// auto-renew was switched on (kept on the pack); a higher price reaches a renewal only when its
// owner was told at least PRICE_CHANGE_NOTICE_DAYS before (noticePriceChanges: pack.priceChange),
// so they could switch auto-renew off; a lower price at once.
import { formatMoney, PACK_DAYS_PER_MONTH, PRICE_CHANGE_NOTICE_DAYS, translate, type Locale } from '@lq/contracts';
import { rowsOf, sql, type Database } from '@lq/db';
import type { OutgoingMail } from '../platform/mail';
import { accountCode, postEntries } from '../wallet';
import { firstRenewalFrom, pricesOf, renewUnitPrice } from './service';

interface Due {
  id: string | number;
  user_id: string | number;
  item: 'seat' | 'slot';
  market: string;
  quantity: number;
  months: number;
  renewals: number;
  expires_at: Date | string;
  renew_price: string | null;
  renew_price_next: string | null;
  renew_price_next_from: Date | string | null;
}

export interface RenewResult {
  renewed: number;
  failed: number;
}

/**
 * Renews up to `batch` due packs, oldest expiry first, in one transaction: the packs are locked
 * (skipping those another pass holds), then every payer's balance wallet and platform revenue in id
 * order, as every ledger writer takes them; each pack is paid in order from what its owner has left,
 * or fails. All the renewals are then one batch ledger post and two set writes: a kill at any line
 * leaves the batch undone or done, and a second pass finds it done. Answers the packs looked at.
 */
async function renewBatch(db: Database, batch: number, result: RenewResult): Promise<number> {
  return db.transaction(async (tx) => {
    const due = rowsOf<Due>(
      await tx.execute(sql`select p.id, p.user_id, p.item, p.market, p.quantity, p.months, p.renewals, p.expires_at,
          p.renew_price::text as renew_price, p.renew_price_next::text as renew_price_next, p.renew_price_next_from from benefit_purchases p
        where p.auto_renew and p.item <> 'unlock' and p.expires_at <= now()
          and not exists (select 1 from benefit_renewals r where r.purchase_id = p.id and r.period = p.renewals + 1)
        order by p.expires_at, p.id limit ${batch} for update of p skip locked`),
    );
    if (due.length === 0) return 0;
    const prices = await pricesOf(tx);
    const payers = [...new Set(due.map((p) => Number(p.user_id)))];
    const codes = [...payers.map((u) => accountCode({ userId: u, wallet: 'balance' })), accountCode({ platform: 'revenue' })];
    const available = new Map(
      rowsOf<{ code: string; available: string }>(
        await tx.execute(sql`select code, (posted - pending_out)::text as available from ledger_accounts
          where code = any(${`{${codes.join(',')}}`}::text[]) order by id for update`),
      ).map((r) => [r.code, BigInt(r.available)]),
    );

    const renewed: Array<{ p: Due; period: number; amount: bigint; unit: bigint }> = [];
    const failed: Array<{ p: Due; period: number; amount: bigint; balance: bigint }> = [];
    for (const p of due) {
      // One period at the agreed price (or a higher one told of in time, or a lower one now).
      const unit = renewUnitPrice(
        {
          renewPrice: p.renew_price === null ? null : BigInt(p.renew_price),
          next: p.renew_price_next === null ? null : BigInt(p.renew_price_next),
          nextFrom: p.renew_price_next_from === null ? null : new Date(p.renew_price_next_from).getTime(),
        },
        new Date(p.expires_at).getTime(),
        prices[p.item],
      );
      const amount = unit * BigInt(p.quantity);
      const code = accountCode({ userId: Number(p.user_id), wallet: 'balance' });
      const has = available.get(code) ?? 0n;
      if (has >= amount) {
        available.set(code, has - amount);
        renewed.push({ p, period: p.renewals + 1, amount, unit });
      } else {
        // Said once, kept: this period is not tried again, so the pack stays expired.
        failed.push({ p, period: p.renewals + 1, amount, balance: has });
      }
    }
    const entries = await postEntries(
      tx,
      renewed.map(({ p, period, amount }) => {
        const userId = Number(p.user_id);
        return {
          key: `benefit-renew:${p.id}:${period}`,
          kind: 'purchase',
          userId,
          memo: `renewal ${period}: ${p.quantity} ${p.item} ${p.market} × ${PACK_DAYS_PER_MONTH} days`,
          meta: { purchase: Number(p.id), renewal: period, item: p.item, market: p.market, quantity: p.quantity, days: PACK_DAYS_PER_MONTH, amount: formatMoney(amount) },
          lines: [
            { account: { userId, wallet: 'balance' as const }, amount: -amount },
            { account: { platform: 'revenue' as const }, amount },
          ],
        };
      }),
    );

    const all = [...renewed.map((r, i) => ({ ...r, status: 'renewed', entryId: entries[i].id, balance: null })), ...failed.map((f) => ({ ...f, status: 'failed', entryId: null }))];
    const list = (xs: readonly unknown[]) => JSON.stringify(xs);
    await tx.execute(sql`insert into benefit_renewals (purchase_id, period, status, amount, entry_id, reason, balance, period_start, period_end)
      select r.purchase_id, r.period, r.status, r.amount, r.entry_id, case when r.status = 'failed' then 'insufficient balance' end, r.balance,
             r.period_start, r.period_start + make_interval(days => ${PACK_DAYS_PER_MONTH})
        from jsonb_to_recordset(${list(
          all.map((r) => ({
            purchase_id: Number(r.p.id),
            period: r.period,
            status: r.status,
            amount: r.amount.toString(),
            entry_id: r.entryId,
            balance: r.balance === null ? null : r.balance.toString(),
            period_start: new Date(r.p.expires_at).toISOString(),
          })),
        )}::jsonb) as r(purchase_id bigint, period integer, status text, amount bigint, entry_id bigint, balance bigint, period_start timestamptz)`);
    if (renewed.length > 0) {
      // Extended by one period from the old end, not from now: a pass that runs late does not shorten
      // it. The price paid is the one kept for the next; a told price used up is cleared.
      await tx.execute(sql`update benefit_purchases p set renewals = r.period, expires_at = p.expires_at + make_interval(days => ${PACK_DAYS_PER_MONTH}),
          renew_price = r.unit,
          renew_price_next = case when p.renew_price_next_from <= p.expires_at then null else p.renew_price_next end,
          renew_price_next_from = case when p.renew_price_next_from <= p.expires_at then null else p.renew_price_next_from end
        from jsonb_to_recordset(${list(renewed.map((r) => ({ id: Number(r.p.id), period: r.period, unit: r.unit.toString() })))}::jsonb) as r(id bigint, period integer, unit bigint)
        where p.id = r.id`);
    }
    result.renewed += renewed.length;
    result.failed += failed.length;
    return due.length;
  });
}

/** Renews every pack due now, oldest expiry first, `batch` packs per transaction. */
export async function renewDue(db: Database, options: { batch?: number } = {}): Promise<RenewResult> {
  const batch = options.batch ?? 1000;
  const result: RenewResult = { renewed: 0, failed: 0 };
  while ((await renewBatch(db, batch, result)) === batch);
  return result;
}

/**
 * Tells the owner of every auto-renewed pack whose price rose above the one agreed (and not told of
 * yet at that price) — `pack.priceChange`, always e-mailed — and keeps the new price with the first
 * renewal it may reach: at least PRICE_CHANGE_NOTICE_DAYS from now. A price back at or below the
 * agreed one drops a told rise. Run twice, told once. Answers how many were told.
 */
export async function noticePriceChanges(db: Database, now: Date = new Date()): Promise<number> {
  // The price kept and the owner told in one transaction: never a rise that was not told of.
  return db.transaction((tx) => noticePriceChangesIn(tx, now));
}

async function noticePriceChangesIn(db: Database, now: Date): Promise<number> {
  const at = now.toISOString();
  await db.execute(sql`update benefit_purchases p set renew_price_next = null, renew_price_next_from = null
    from benefit_prices bp where bp.item = p.item and p.renew_price_next is not null and bp.price <= p.renew_price`);
  const rows = rowsOf<{ id: string; user_id: string; item: string; market: string; quantity: number; renew_price: string; price: string; expires_at: Date | string; next_from: Date | string }>(
    await db.execute(sql`update benefit_purchases p set renew_price_next = bp.price,
        renew_price_next_from = ${at}::timestamptz + make_interval(days => ${PRICE_CHANGE_NOTICE_DAYS})
      from benefit_prices bp
      where bp.item = p.item and p.auto_renew and p.item <> 'unlock'
        -- Active, or due and not yet tried (a failed renewal ends the pack).
        and (p.expires_at > ${at}::timestamptz or not exists (select 1 from benefit_renewals r where r.purchase_id = p.id and r.period = p.renewals + 1))
        and bp.price > p.renew_price and p.renew_price_next is distinct from bp.price
      returning p.id::text as id, p.user_id::text as user_id, p.item, p.market, p.quantity, p.renew_price::text as renew_price, bp.price::text as price,
        p.expires_at, p.renew_price_next_from as next_from`),
  );
  for (const r of rows) {
    const from = firstRenewalFrom(new Date(r.expires_at).getTime(), new Date(r.next_from).getTime());
    await db.execute(sql`insert into notifications (user_id, kind, event_key, params, link)
      values (${r.user_id}, 'pack.priceChange', ${`price:${r.id}:${r.price}:${from}`},
        ${JSON.stringify({ purchaseId: Number(r.id), item: r.item, market: r.market, quantity: r.quantity, amount: (BigInt(r.price) * BigInt(r.quantity)).toString(), was: (BigInt(r.renew_price) * BigInt(r.quantity)).toString(), expiresAt: from })}::jsonb,
        '/pages/equity/index')
      on conflict (event_key) do nothing`);
  }
  return rows.length;
}

/** How long before a pack without auto-renew expires its owner is told (issue 31: 3 days). */
export const EXPIRY_NOTICE_DAYS = 3;

/**
 * Raises `pack.expiring` for every pack without auto-renew that expires within EXPIRY_NOTICE_DAYS
 * (the notification centre; once per pack and expiry: the key holds the expiry time, so a pack
 * bought again tells again). Answers how many were raised now.
 */
export async function noticeExpiringPacks(db: Database, now: Date = new Date()): Promise<number> {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`insert into notifications (user_id, kind, event_key, params, link)
      select p.user_id, 'pack.expiring', 'expiring:' || p.id || ':' || to_char(p.expires_at at time zone 'UTC', 'YYYYMMDDHH24MISSUS'),
             jsonb_build_object('purchaseId', p.id, 'item', p.item, 'market', p.market, 'quantity', p.quantity, 'expiresAt', (extract(epoch from p.expires_at) * 1000)::bigint),
             '/pages/equity/index'
        from benefit_purchases p
       where p.expires_at > ${now.toISOString()}::timestamptz and p.expires_at <= ${now.toISOString()}::timestamptz + make_interval(days => ${EXPIRY_NOTICE_DAYS})
         and not p.auto_renew
      on conflict (event_key) do nothing returning id::text as id`),
  );
  return rows.length;
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
