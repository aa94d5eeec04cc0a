// Shared by the runner tests: a user with a trading account (credentials sealed as the accounts
// API seals them) and robots on it, synthetic candles that make a grid trade, and invariants
// between the database and the fake exchange.
import { getInstrument, type Candles } from '@lq/engine';
import type { DatabaseHandle } from '@lq/db';
import { getStrategy } from '@lq/strategies';
import type { FakeVenueServer } from '@lq/venues/fake';
import { SecretBox } from '../src/trading-accounts';
import type { Config } from '../src/platform/config';

export const T0 = Date.UTC(2024, 0, 2);

/** 1m candles oscillating ±`amp` around `mid` with a `periodMin` period (a grid's friend), prices to `decimals`. */
export function waveCandles(n: number, mid = 60_000, amp = 0.02, periodMin = 90, from = T0, decimals = 1): Candles {
  const price = (i: number) => mid * (1 + amp * Math.sin((2 * Math.PI * i) / periodMin));
  const col = (f: (i: number) => number) => Float64Array.from({ length: n }, (_, i) => f(i));
  const r = (x: number) => Math.round(x * 10 ** decimals) / 10 ** decimals;
  return {
    length: n,
    intervalMs: 60_000,
    time: col((i) => from + i * 60_000),
    open: col((i) => r(price(i))),
    high: col((i) => r(Math.max(price(i), price(i + 1)) * 1.0005)),
    low: col((i) => r(Math.min(price(i), price(i + 1)) * 0.9995)),
    close: col((i) => r(price(i + 1))),
    volume: col(() => 5),
  };
}

let seq = 0;

/** A user (or the given one) and a binance (or okx) account with sealed fake-exchange credentials. */
export async function seedAccount(
  database: DatabaseHandle,
  config: Config,
  exchange: 'binance' | 'okx' = 'binance',
  keys: { apiKey: string; secret: string; passphrase?: string } = { apiKey: 'fake-key', secret: 'fake-secret', passphrase: 'fake-pass' },
  userId?: number,
): Promise<{ userId: number; accountId: number }> {
  const n = ++seq;
  const [u] =
    userId !== undefined
      ? [{ id: userId }]
      : await database.exec<{ id: number }>(
          `insert into users (mail, password_hash, user_code, country) values ($1, 'x', $2, 'TH') returning id::int as id`,
          [`runner.${process.pid}.${Date.now()}.${n}@example.com`, `R${process.pid}${n}${Date.now() % 100000}`],
        );
  const [a] = await database.exec<{ id: number }>(
    `insert into trading_accounts (user_id, market, exchange, account_name, key_last4) values ($1, 'crypto', $2, 'fake', $3) returning id::int as id`,
    [u.id, exchange, keys.apiKey.slice(-4)],
  );
  const box = SecretBox.fromConfig(config);
  const sealed = box.seal({ userId: u.id, accountId: a.id }, { apiKey: keys.apiKey, secretKey: keys.secret, passphrase: exchange === 'okx' ? (keys.passphrase ?? null) : null });
  await database.exec(`update trading_accounts set wrapped_key = $2, api_key_enc = $3, secret_key_enc = $4, passphrase_enc = $5 where id = $1`, [
    a.id,
    Buffer.from(sealed.wrappedKey) as never,
    sealed.fields.apiKey ? (Buffer.from(sealed.fields.apiKey) as never) : null,
    sealed.fields.secretKey ? (Buffer.from(sealed.fields.secretKey) as never) : null,
    sealed.fields.passphrase ? (Buffer.from(sealed.fields.passphrase) as never) : null,
  ]);
  return { userId: u.id, accountId: a.id };
}

/** Grid parameters (validated by the strategy's schema, as the robot API stores them). */
export function gridParams(over: Record<string, unknown> = {}): Record<string, unknown> {
  const inst = getInstrument('BTCUSDT');
  const def = getStrategy('grid');
  const raw = { ...def.defaults(inst, { capital: 5_000, price: 60_000 }), interval: '1m', gridNumber: 6, gap: 0.5, lotsPerGrid: 0.3, leverage: 10, ...over };
  return def.schema.parse(raw);
}

export async function seedRobot(
  database: DatabaseHandle,
  owner: { userId: number; accountId: number },
  o: { mode?: 'live' | 'paper'; strategy?: string; params?: Record<string, unknown>; symbol?: string } = {},
): Promise<number> {
  const params = o.params ?? gridParams();
  const [r] = await database.exec<{ id: number }>(
    `insert into robots (user_id, account_id, market, mode, strategy, symbol, interval, params, capital, leverage, status)
     values ($1, $2, 'crypto', $3, $4, $5, $6, $7::jsonb, $8, $9, 'running') returning id::int as id`,
    [owner.userId, owner.accountId, o.mode ?? 'live', o.strategy ?? 'grid', o.symbol ?? 'BTCUSDT', typeof params.interval === 'string' ? params.interval : '1m', JSON.stringify(params), String(params.capital), Number(params.leverage)],
  );
  return r.id;
}

export async function robotRow(database: DatabaseHandle, id: number) {
  const [r] = await database.exec<{ status: string; pause_reason: string | null; stop_reason: string | null; income: string; live: Record<string, unknown> | null; last_candle_at: string | null; lease_owner: string | null }>(
    `select status, pause_reason, stop_reason, income, live, last_candle_at, lease_owner from robots where id = $1`,
    [id],
  );
  return r;
}

/**
 * The invariants after any sequence of faults and crashes:
 * - every client order id reached the venue at most once as an order (no duplicate per intent);
 * - every order at the venue with our prefix is journalled;
 * - per intent, what we booked equals what the venue filled; the ledger's position is the venue's.
 */
export async function checkAgainstVenue(database: DatabaseHandle, fake: FakeVenueServer, robotId: number, symbol = 'BTCUSDT') {
  const orders = fake.book.orders.filter((o) => o.symbol === symbol);
  const perId = new Map<string, number>();
  for (const o of orders) perId.set(o.clientOrderId, (perId.get(o.clientOrderId) ?? 0) + 1);
  const duplicates = [...perId.entries()].filter(([, n]) => n > 1);
  const intents = await database.exec<{ client_order_id: string; state: string }>(`select client_order_id, state from robot_intents where robot_id = $1`, [robotId]);
  const known = new Set(intents.map((i) => i.client_order_id));
  const unjournalled = orders.filter((o) => o.clientOrderId.startsWith('lq') && !known.has(o.clientOrderId)).map((o) => o.clientOrderId);
  const booked = await database.exec<{ client_order_id: string; qty: string; action: string; position_side: string }>(
    `select client_order_id, qty, action, position_side from robot_fills where robot_id = $1`,
    [robotId],
  );
  const bookedBy = new Map<string, number>();
  let ledger = 0;
  for (const f of booked) {
    bookedBy.set(f.client_order_id, (bookedBy.get(f.client_order_id) ?? 0) + Number(f.qty));
    const sign = (f.action === 'open') === (f.position_side === 'long') ? 1 : -1;
    ledger += sign * Number(f.qty);
  }
  const cs = getInstrument(symbol).contractSize;
  const mismatched: string[] = [];
  for (const o of orders) {
    const b = (bookedBy.get(o.clientOrderId) ?? 0) * cs;
    if (Math.abs(b - o.executedQty) > 1e-9) mismatched.push(`${o.clientOrderId}: booked ${b} venue ${o.executedQty}`);
  }
  const venuePosition = fake.book.positions.get(symbol)?.amt ?? 0;
  return {
    duplicates,
    unjournalled,
    mismatched,
    ledgerCoins: Math.round(ledger * cs * 1e9) / 1e9 + 0,
    venueCoins: Math.round(venuePosition * 1e9) / 1e9 + 0,
    openOrders: fake.book.openOrders(symbol).length,
    orders: orders.length,
    fills: booked.length,
  };
}

/**
 * The venue's fills of the last minute are booked at the robot's next step: step minutes until a
 * step leaves nothing unbooked (at most `max`), then return the comparison.
 */
export async function settled(
  database: DatabaseHandle,
  fake: FakeVenueServer,
  robotId: number,
  step: () => Promise<void>,
  max = 10,
): Promise<Awaited<ReturnType<typeof checkAgainstVenue>>> {
  let s = await checkAgainstVenue(database, fake, robotId);
  for (let i = 0; i < max && (s.mismatched.length > 0 || Math.abs(s.ledgerCoins - s.venueCoins) > 1e-9); i++) {
    await step();
    s = await checkAgainstVenue(database, fake, robotId);
  }
  return s;
}
