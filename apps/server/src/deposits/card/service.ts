// Card checkouts on the ledger: a checkout is created at the provider under the client's
// idempotency key; the provider's completed webhook credits it once — the ledger entry's key is
// the provider's session, so a replayed or repeated event, or a crash between the credit and the
// event's record, never credits twice.
import { sql, type Database, rowsOf } from '@lq/db';
import { AppError, formatMoney, parseMoney, type CardCheckout, type CardCheckoutState } from '@lq/contracts';
import { postEntry } from '../../wallet';
import type { CardProvider, CardWebhookEvent } from './provider';

export interface CardLimitsMicro {
  min: bigint;
  max: bigint;
}

interface Row {
  id: string | number;
  user_id: string | number;
  amount: string;
  status: CardCheckoutState;
  provider: string;
  provider_session: string | null;
  checkout_url: string | null;
  created_at: Date | string;
  paid_at: Date | string | null;
}

const COLUMNS = sql`id, user_id, amount::text as amount, status, provider, provider_session, checkout_url, created_at, paid_at`;
const ms = (v: Date | string) => new Date(v).getTime();
const toCheckout = (r: Row): CardCheckout => ({
  id: Number(r.id),
  amount: formatMoney(BigInt(r.amount)),
  state: r.status,
  checkoutUrl: r.checkout_url ?? '',
  createdAt: ms(r.created_at),
  paidAt: r.paid_at === null ? null : ms(r.paid_at),
});

export async function createCheckout(
  db: Database,
  provider: CardProvider,
  limits: CardLimitsMicro,
  userId: number,
  amount: bigint,
  key: string,
  returnUrl: string,
): Promise<CardCheckout> {
  if (amount < limits.min || amount > limits.max) {
    throw new AppError('CARD_AMOUNT_OUT_OF_RANGE', { min: formatMoney(limits.min).replace(/\.?0+$/, ''), max: formatMoney(limits.max).replace(/\.?0+$/, '') }, 'amount');
  }
  await db.execute(sql`insert into card_checkouts (user_id, idempotency_key, provider, amount, status)
    values (${userId}, ${key}, ${provider.name}, ${amount.toString()}::bigint, 'open') on conflict (user_id, idempotency_key) do nothing`);
  const [row] = rowsOf<Row>(await db.execute(sql`select ${COLUMNS} from card_checkouts where user_id = ${userId} and idempotency_key = ${key}`));
  if (BigInt(row.amount) !== amount) throw new AppError('IDEMPOTENCY_KEY_REUSED', {}, 'idempotencyKey');
  if (row.provider_session !== null || row.status !== 'open') return toCheckout(row); // a retry: the same checkout
  let session;
  try {
    session = await provider.createSession({ reference: `lq-card-${row.id}`, amount: formatMoney(amount), returnUrl });
  } catch (err) {
    await db.execute(sql`update card_checkouts set status = 'failed', error = ${(err as Error).message.slice(0, 300)} where id = ${Number(row.id)}`);
    throw new AppError('PAYMENT_PROVIDER_ERROR');
  }
  const [updated] = rowsOf<Row>(
    await db.execute(sql`update card_checkouts set provider_session = ${session.session}, checkout_url = ${session.url}
      where id = ${Number(row.id)} and provider_session is null returning ${COLUMNS}`),
  );
  // Two concurrent retries both asked the provider: the first stored session stands.
  return toCheckout(updated ?? rowsOf<Row>(await db.execute(sql`select ${COLUMNS} from card_checkouts where id = ${Number(row.id)}`))[0]);
}

export async function checkoutOf(db: Database, userId: number, id: number): Promise<CardCheckout> {
  const [row] = rowsOf<Row>(await db.execute(sql`select ${COLUMNS} from card_checkouts where id = ${id} and user_id = ${userId}`));
  if (!row) throw new AppError('NOT_FOUND');
  return toCheckout(row);
}

/** Applies a verified webhook event; answers what it did (a replay: `duplicate`). */
export async function applyCardEvent(db: Database, providerName: string, event: CardWebhookEvent): Promise<'credited' | 'expired' | 'ignored' | 'duplicate'> {
  const [row] = rowsOf<Row>(
    await db.execute(sql`select ${COLUMNS} from card_checkouts where provider = ${providerName} and provider_session = ${event.data.session}`),
  );
  if (!row) throw new AppError('WEBHOOK_UNKNOWN_CHECKOUT');
  const [seen] = rowsOf<{ id: unknown }>(await db.execute(sql`select id from card_events where provider = ${providerName} and event_id = ${event.id}`));
  if (seen) return 'duplicate';
  const record = (outcome: string) =>
    db.execute(sql`insert into card_events (provider, event_id, type, checkout_id, outcome)
      values (${providerName}, ${event.id}, ${event.type}, ${Number(row.id)}, ${outcome}) on conflict (provider, event_id) do nothing`);

  let outcome: 'credited' | 'expired' | 'ignored';
  if (event.type === 'checkout.completed') {
    const paid = parseMoney(event.data.amount);
    if (paid === undefined || paid !== BigInt(row.amount) || event.data.currency !== 'USDT') {
      await record(`amount mismatch: ${event.data.amount} ${event.data.currency}`);
      throw new AppError('WEBHOOK_AMOUNT_MISMATCH', {}, 'data.amount');
    }
    const userId = Number(row.user_id);
    const entry = await postEntry(db, {
      key: `card:${providerName}:${event.data.session}`,
      kind: 'deposit',
      userId,
      memo: `Card ${providerName} ${event.data.session}`,
      meta: { provider: providerName, session: event.data.session, checkout: Number(row.id) },
      lines: [
        { account: { userId, wallet: 'balance' }, amount: paid },
        { account: { platform: 'deposit_clearing' }, amount: -paid },
      ],
    });
    await db.execute(sql`update card_checkouts set status = 'paid', entry_id = ${entry.id}, paid_at = coalesce(paid_at, now()) where id = ${Number(row.id)}`);
    outcome = 'credited';
  } else {
    const expired = rowsOf(await db.execute(sql`update card_checkouts set status = 'expired' where id = ${Number(row.id)} and status = 'open' returning id`));
    outcome = expired.length > 0 ? 'expired' : 'ignored';
  }
  await record(outcome);
  return outcome;
}
