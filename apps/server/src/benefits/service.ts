// Benefits (business.md "Benefits, seats and slots"): the catalogue and the purchases paid from the
// balance wallet. A purchase is its row and one posted ledger entry (balance → platform revenue) in
// one transaction, under the client's idempotency key (Stripe's rule: the same key and body answer
// the first purchase; another body under it is refused, and nothing is charged twice).
import { createHash } from 'node:crypto';
import {
  AppError,
  BENEFIT_ITEMS,
  BENEFIT_MARKETS,
  formatMoney,
  parseMoney,
  PACK_DAYS_PER_MONTH,
  PACK_MONTHS,
  PACK_QUANTITY,
  type BenefitItem,
  type EquityBuyBody,
  type EquityCatalogue,
  type EquityPurchase,
  type EquityPurchases,
  type EquityUnlockBody,
  type EquityAutoRenewBody,
} from '@lq/contracts';
import { isUniqueViolation, rowsOf, sql, type Database } from '@lq/db';
import { checkPayPassword } from '../users';
import { InsufficientFundsError, postEntry } from '../wallet';
import { acceptedSql, agreementRequired, requireAccepted } from './agreements';
import { isUnlocked, unlockedSql } from './entitlements';

type Runner = Pick<Database, 'execute'>;

/** The catalogue's prices in micro-Lightning. */
export async function pricesOf(db: Runner): Promise<Record<BenefitItem, bigint>> {
  const rows = rowsOf<{ item: BenefitItem; price: string }>(await db.execute(sql`select item, price::text as price from benefit_prices`));
  const prices = Object.fromEntries(rows.map((r) => [r.item, BigInt(r.price)])) as Partial<Record<BenefitItem, bigint>>;
  for (const item of BENEFIT_ITEMS) if (prices[item] === undefined) throw new Error(`benefit_prices has no price for ${item}`);
  return prices as Record<BenefitItem, bigint>;
}

export async function catalogueOf(db: Runner): Promise<EquityCatalogue> {
  const prices = await pricesOf(db);
  return {
    prices: { unlock: formatMoney(prices.unlock), seat: formatMoney(prices.seat), slot: formatMoney(prices.slot) },
    markets: [...BENEFIT_MARKETS],
    months: { ...PACK_MONTHS },
    quantity: { ...PACK_QUANTITY },
    daysPerMonth: PACK_DAYS_PER_MONTH,
  };
}

/** The operator's price change; answers the price before. */
export async function setPrice(db: Runner, item: BenefitItem, price: bigint, by: string): Promise<bigint> {
  if (price <= 0n) throw new Error('a price is more than zero');
  const [before] = rowsOf<{ price: string }>(await db.execute(sql`select price::text as price from benefit_prices where item = ${item}`));
  await db.execute(sql`insert into benefit_prices (item, price, updated_by, updated_at) values (${item}, ${price.toString()}::bigint, ${by}, now())
    on conflict (item) do update set price = excluded.price, updated_by = excluded.updated_by, updated_at = now()`);
  return BigInt(before?.price ?? '0');
}

interface Row {
  id: string | number;
  item: BenefitItem;
  market: EquityPurchase['market'];
  quantity: number;
  months: number | null;
  amount: string;
  auto_renew: boolean;
  request_hash: string;
  purchased_at: Date | string;
  expires_at: Date | string | null;
  renewals: number;
  renewal_failed_at?: Date | string | null;
  renew_price: string | null;
  renew_price_next: string | null;
  renew_price_next_from: Date | string | null;
}
const RENEW_COLUMNS = `renew_price::text as renew_price, renew_price_next::text as renew_price_next, renew_price_next_from`;
const COLUMNS = sql.raw(`id, item, market, quantity, months, amount::text as amount, auto_renew, request_hash, purchased_at, expires_at, renewals, ${RENEW_COLUMNS}`);
/** COLUMNS and when the last renewal failed (reads; a row just written has none). */
const READ_COLUMNS = sql.raw(
  `id, item, market, quantity, months, amount::text as amount, auto_renew, request_hash, purchased_at, expires_at, renewals, ${RENEW_COLUMNS},
   (select max(r.created_at) from benefit_renewals r where r.purchase_id = benefit_purchases.id and r.status = 'failed') as renewal_failed_at`,
);

/**
 * What a pack's renewal at `at` pays per seat or slot (issue 53 item 5): the price agreed when
 * auto-renew was switched on; a higher one it was told of, from the first renewal at least 7 days
 * after the telling; today's price if lower than either. Renewals (renewals.ts) charge it.
 */
export function renewUnitPrice(p: { renewPrice: bigint | null; next: bigint | null; nextFrom: number | null }, at: number, current: bigint): bigint {
  const agreed = p.next !== null && p.nextFrom !== null && at >= p.nextFrom ? p.next : (p.renewPrice ?? current);
  return current < agreed ? current : agreed;
}

const big = (v: string | null) => (v === null ? null : BigInt(v));
const ms = (v: Date | string | null) => (v === null ? null : new Date(v).getTime());

export const toPurchase = (r: Row, now = Date.now(), prices?: Record<BenefitItem, bigint>): EquityPurchase => {
  const expiresAt = r.expires_at === null ? null : new Date(r.expires_at).getTime();
  const active = expiresAt === null || expiresAt > now;
  const agreed = { renewPrice: big(r.renew_price), next: big(r.renew_price_next), nextFrom: ms(r.renew_price_next_from) };
  const renewal =
    r.auto_renew && r.item !== 'unlock' && expiresAt !== null && active
      ? {
          at: expiresAt,
          amount: formatMoney(renewUnitPrice(agreed, expiresAt, prices?.[r.item] ?? agreed.renewPrice ?? 0n) * BigInt(r.quantity)),
          priceChange: agreed.next !== null && agreed.nextFrom !== null ? { amount: formatMoney(agreed.next * BigInt(r.quantity)), from: firstRenewalFrom(expiresAt, agreed.nextFrom) } : null,
        }
      : null;
  return {
    id: Number(r.id),
    item: r.item,
    market: r.market,
    quantity: r.quantity,
    months: r.months,
    amount: formatMoney(BigInt(r.amount)),
    autoRenew: r.auto_renew,
    state: active ? 'active' : 'expired',
    purchasedAt: new Date(r.purchased_at).getTime(),
    expiresAt,
    renewals: r.renewals,
    renewalFailedAt: r.renewal_failed_at ? new Date(r.renewal_failed_at).getTime() : null,
    renewal,
  };
};

/** The first renewal (every PACK_DAYS_PER_MONTH days from `expiresAt`) at or after `from`. */
export function firstRenewalFrom(expiresAt: number, from: number): number {
  const period = PACK_DAYS_PER_MONTH * 86_400_000;
  return expiresAt >= from ? expiresAt : expiresAt + Math.ceil((from - expiresAt) / period) * period;
}

/** What one purchase is, as its key is bound to it (the payment password is not part of it). */
interface Order {
  item: BenefitItem;
  market: EquityPurchase['market'];
  quantity: number;
  months: number | null;
  autoRenew: boolean;
  /** The amount the page showed (micro), if sent: another price now charges nothing. Not part of the key's hash. */
  expected?: bigint;
}

const hashOf = (o: Order) => createHash('sha256').update(JSON.stringify([o.item, o.market, o.quantity, o.months, o.autoRenew])).digest('hex');

/**
 * Charges the balance wallet for `order` and records it, in one transaction: the row (under the
 * user's key), then its ledger entry keyed benefit:<id> (no purchase without its payment, nor the
 * reverse). A replayed key answers the first purchase and charges nothing.
 */
async function purchase(db: Database, userId: number, key: string, order: Order): Promise<EquityPurchase> {
  const requestHash = hashOf(order);
  const replay = async (tx: Runner): Promise<EquityPurchase | undefined> => {
    const [existing] = rowsOf<Row>(await tx.execute(sql`select ${COLUMNS} from benefit_purchases where user_id = ${userId} and idempotency_key = ${key}`));
    if (!existing) return undefined;
    if (existing.request_hash !== requestHash) throw new AppError('IDEMPOTENCY_KEY_REUSED', {}, 'idempotencyKey');
    return toPurchase(existing);
  };
  try {
    return await db.transaction(async (tx) => {
      const expiry = order.months === null ? sql`null` : sql`now() + make_interval(days => ${order.months * PACK_DAYS_PER_MONTH})`;
      // Priced in the insert itself (the catalogue's price now × quantity × months): one round trip.
      const [inserted] = rowsOf<Row>(
        await tx.execute(sql`insert into benefit_purchases (user_id, idempotency_key, request_hash, item, market, quantity, months, amount, auto_renew, expires_at, renew_price)
          select ${userId}, ${key}, ${requestHash}, ${order.item}, ${order.market}, ${order.quantity}, ${order.months},
                 p.price * ${order.quantity} * ${order.months ?? 1}, ${order.autoRenew}, ${expiry}, case when ${order.item} = 'unlock' then null else p.price end
            from benefit_prices p where p.item = ${order.item}
          on conflict (user_id, idempotency_key) do nothing returning ${COLUMNS}`),
      );
      if (!inserted) {
        const replayed = await replay(tx);
        if (!replayed) throw new Error(`benefit_prices has no price for ${order.item}`);
        return replayed;
      }
      const id = Number(inserted.id);
      const amount = BigInt(inserted.amount);
      // Priced other than the page showed: refused, the row undone with the transaction.
      if (order.expected !== undefined && amount !== order.expected) {
        throw new AppError('PRICE_CHANGED', { expected: formatMoney(order.expected), price: formatMoney(amount) }, 'expectedAmount');
      }
      // Last, and without a savepoint: platform revenue stays locked only until the commit, and a
      // refusal (too little balance) leaves this transaction, undoing the row. The entry is the
      // one keyed benefit:<id>.
      await postEntry(tx, {
        key: `benefit:${id}`,
        kind: 'purchase',
        userId,
        memo: order.item === 'unlock' ? 'basic rights' : `${order.quantity} ${order.item} ${order.market} × ${order.months} month(s)`,
        meta: { purchase: id, item: order.item, market: order.market, quantity: order.quantity, months: order.months, amount: formatMoney(amount) },
        lines: [
          { account: { userId, wallet: 'balance' }, amount: -amount },
          { account: { platform: 'revenue' }, amount },
        ],
      }, { savepoint: false });
      return toPurchase(inserted);
    });
  } catch (e) {
    if (e instanceof InsufficientFundsError) {
      throw new AppError('INSUFFICIENT_BALANCE', { available: formatMoney(e.available), needed: formatMoney(e.needed) }, 'amount');
    }
    // The unlock is bought once: a second one under another key (or two at once) is refused.
    if (isUniqueViolation(e, 'benefit_purchases_one_unlock')) throw new AppError('BENEFIT_ALREADY_UNLOCKED');
    throw e;
  }
}

const expectedOf = (body: { expectedAmount?: string | undefined }) => (body.expectedAmount === undefined ? undefined : parseMoney(body.expectedAmount));

/** BENEFIT_NOT_UNLOCKED naming the unlock's price (robots and backtests raise it too). */
export async function notUnlocked(db: Runner): Promise<AppError> {
  const prices = await pricesOf(db);
  return new AppError('BENEFIT_NOT_UNLOCKED', { price: formatMoney(prices.unlock).replace(/\.?0+$/, '') });
}

/** The basic rights: once per user; the payment password first (with the wallet's lockout). */
export async function unlock(db: Database, userId: number, body: EquityUnlockBody, payPepper: Buffer): Promise<EquityPurchase> {
  const order: Order = { item: 'unlock', market: null, quantity: 1, months: null, autoRenew: false, expected: expectedOf(body) };
  // A replay of the unlock that was bought answers it; any other second unlock is refused before
  // the password is asked for.
  const [mine] = rowsOf<Row>(await db.execute(sql`select ${COLUMNS} from benefit_purchases where user_id = ${userId} and item = 'unlock'`));
  if (mine) {
    const [keyed] = rowsOf<{ id: string }>(await db.execute(sql`select id::text as id from benefit_purchases where user_id = ${userId} and idempotency_key = ${body.idempotencyKey}`));
    if (keyed?.id === String(mine.id)) return toPurchase(mine);
  }
  // Bought under another key, or granted by an operator: nothing to buy.
  if (mine || (await isUnlocked(db, userId))) throw new AppError('BENEFIT_ALREADY_UNLOCKED');
  await checkPayPassword(db, userId, body.paidPwd, payPepper);
  return purchase(db, userId, body.idempotencyKey, order);
}

/** A pack of seats or slots; the unlock comes first, then the agreements (auto-renew's too when asked). */
export async function buy(db: Database, userId: number, body: EquityBuyBody, payPepper: Buffer): Promise<EquityPurchase> {
  const [gate] = rowsOf<{ unlocked: boolean; month: boolean; auto: boolean }>(
    await db.execute(sql`select ${unlockedSql(sql`${userId}::bigint`)} as unlocked,
      ${acceptedSql(userId, 'monthEquity')} as month, ${acceptedSql(userId, 'autoSubscribe')} as auto`),
  );
  if (!gate?.unlocked) throw await notUnlocked(db);
  if (!gate.month) throw agreementRequired('monthEquity');
  if (body.autoRenew && !gate.auto) throw agreementRequired('autoSubscribe');
  await checkPayPassword(db, userId, body.paidPwd, payPepper);
  return purchase(db, userId, body.idempotencyKey, { item: body.kind, market: body.market, quantity: body.quantity, months: body.months, autoRenew: body.autoRenew, expected: expectedOf(body) });
}

export async function purchasesOf(db: Runner, userId: number, q: { page: number; size: number }): Promise<EquityPurchases> {
  const rows = rowsOf<Row>(
    await db.execute(sql`select ${READ_COLUMNS} from benefit_purchases where user_id = ${userId}
      order by id desc limit ${q.size} offset ${(q.page - 1) * q.size}`),
  );
  const [count] = rowsOf<{ n: number | string }>(await db.execute(sql`select count(*)::int as n from benefit_purchases where user_id = ${userId}`));
  const now = Date.now();
  const prices = await pricesOf(db);
  return { list: rows.map((r) => toPurchase(r, now, prices)), total: Number(count?.n ?? 0) };
}

/**
 * Auto-renew on or off for one of the caller's packs that is still active. On: after the
 * auto-subscribe agreement and the payment password (it commits future payments, as a purchase
 * does), at today's price, which renewals keep (issue 53 item 5).
 */
export async function setAutoRenew(db: Database, userId: number, body: EquityAutoRenewBody, payPepper: Buffer): Promise<EquityPurchase> {
  const [row] = rowsOf<Row>(await db.execute(sql`select ${READ_COLUMNS} from benefit_purchases where id = ${body.id} and user_id = ${userId}`));
  if (!row) throw new AppError('NOT_FOUND', {}, 'id');
  if (row.item === 'unlock' || toPurchase(row).state !== 'active') throw new AppError('BENEFIT_STATE', {}, 'id');
  if (body.autoRenew) {
    await requireAccepted(db, userId, 'autoSubscribe');
    await checkPayPassword(db, userId, body.paidPwd ?? '', payPepper);
  }
  const [updated] = rowsOf<Row>(
    await db.execute(sql`update benefit_purchases set auto_renew = ${body.autoRenew},
        renew_price = case when ${body.autoRenew} then (select bp.price from benefit_prices bp where bp.item = benefit_purchases.item) else renew_price end,
        renew_price_next = case when ${body.autoRenew} then null else renew_price_next end,
        renew_price_next_from = case when ${body.autoRenew} then null else renew_price_next_from end
      where id = ${body.id} and user_id = ${userId} and expires_at > now() returning ${READ_COLUMNS}`),
  );
  if (!updated) throw new AppError('BENEFIT_STATE', {}, 'id');
  return toPurchase(updated, Date.now(), await pricesOf(db));
}
