// Seat expiry with the robot runner on the fake Binance (real ccxt, real database): a user with the
// unlock and a 1-seat pack runs a paper robot on an older account and a live grid robot on a newer
// one; when the pack ends the seat pass freezes the newer account and the runner stops its robot,
// leaving the venue flat (orders cancelled, position closed), while the older one runs on. Its own
// app and fake exchange: nothing it leaves touches the other runner tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeBinance } from '@lq/venues/fake';
import { Runner } from '.';
import { enforceSeats } from '../robots';
import { verifyLedger } from '../wallet';
import { startTestApp, type TestApp } from '../../test/helpers';
import { T0, robotRow, seedAccount, seedRobot, settled, waveCandles } from './test-helpers';

const silent = { info() {}, warn() {}, error() {} };
let fake: FakeBinance;
let t: TestApp;

beforeAll(async () => {
  fake = new FakeBinance({ candles: { BTCUSDT: waveCandles(4000) } });
  const origin = await fake.listen();
  t = await startTestApp({
    env: { EXCHANGE_BINANCE_URL: origin, RUNNER_RESOLVE_WINDOW_MS: '300', RUNNER_VENUE_TIMEOUT_MS: '600', RUNNER_LEASE_MS: '60000', RUNNER_CCXT_THROTTLE: 'false' },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** A fresh fake account a little before a crest of the wave: a long grid then trades. */
function freshFake(balance = 10_000): void {
  fake.reset();
  fake.seed({ balance, timeMs: T0 + 18 * 60_000 });
}

async function minutes(runner: Runner, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    fake.advance(60_000);
    await runner.tick();
  }
}

describe('seat expiry and the runner', () => {
  it('a seat pack that expires freezes the newest account: its live robot stops and closes its position on the venue; the older one runs on', async () => {
    freshFake();
    // The unlock's seat and a 1-seat pack: a paper robot on the older account, a live one on the newer.
    const older = await seedAccount(t.database, t.config);
    const newer = await seedAccount(t.database, t.config, 'binance', undefined, older.userId);
    await t.database.exec(`update trading_accounts set created_at = now() - interval '1 hour' where id = $1`, [older.accountId]);
    await t.database.exec(`insert into entitlement_grants (user_id, kind, quantity, origin, note) values ($1, 'unlock', 1, 'operator', 'test')`, [older.userId]);
    const [pack] = await t.database.exec<{ id: number }>(
      `insert into benefit_purchases (user_id, idempotency_key, request_hash, item, market, quantity, months, amount, auto_renew, expires_at)
       values ($1, 'seat-pack', 'x', 'seat', 'crypto', 1, 1, 10000000, false, now() + interval '1 day') returning id::int as id`,
      [older.userId],
    );
    const paper = await seedRobot(t.database, older, { mode: 'paper' });
    const live = await seedRobot(t.database, newer);
    const runner = new Runner({ database: t.database, config: t.config, log: silent });
    await runner.tick();
    expect(runner.robotIds.sort()).toEqual([paper, live].sort());
    const sent: string[] = [];
    const send = (m: { to: string }) => {
      sent.push(m.to);
      return Promise.resolve();
    };
    // While the pack lasts, nothing freezes; the live robot trades.
    expect(await enforceSeats(t.database.db, send)).toMatchObject({ frozen: 0, stopped: 0 });
    await minutes(runner, 180);
    // On until the robot holds a position (the grid opens and closes as the wave moves).
    let before = await settled(t.database, fake, live, () => minutes(runner, 1));
    for (let i = 0; i < 180 && before.venueCoins === 0; i += 5) {
      await minutes(runner, 5);
      before = await settled(t.database, fake, live, () => minutes(runner, 1));
    }
    expect(before.fills).toBeGreaterThan(0);
    expect(before.venueCoins).not.toBe(0);
    expect(before.openOrders).toBeGreaterThan(0);

    // The pack's end passes: the newer account freezes, its robot stops, the venue is left flat.
    await t.database.exec(`update benefit_purchases set expires_at = now() - interval '1 second' where id = $1`, [pack.id]);
    expect(await enforceSeats(t.database.db, send)).toMatchObject({ frozen: 1, stopped: 1, told: 1 });
    expect(sent).toHaveLength(1);
    await runner.heartbeat();
    await minutes(runner, 3);
    const row = await robotRow(t.database, live);
    expect(row).toMatchObject({ status: 'stopped', stop_reason: 'seatExpired' });
    const after = await settled(t.database, fake, live, () => minutes(runner, 1));
    expect(after.openOrders).toBe(0);
    expect(after.venueCoins).toBe(0);
    expect(after.ledgerCoins).toBe(0);
    expect(after.mismatched).toEqual([]);
    const [account] = await t.database.exec<{ frozen: boolean; frozen_reason: string }>(`select frozen, frozen_reason from trading_accounts where id = $1`, [newer.accountId]);
    expect(account).toEqual({ frozen: true, frozen_reason: 'seatExpired' });
    expect((await robotRow(t.database, paper)).status).toBe('running');
    expect(await enforceSeats(t.database.db, send)).toMatchObject({ frozen: 0, stopped: 0, told: 0 });
    expect(await verifyLedger(t.database.db)).toEqual([]);
    await t.database.exec(`update robots set status = 'stopping' where id = $1`, [paper]);
    await runner.heartbeat();
    await minutes(runner, 2);
    // Its leases released: a runner left going would hold the next test's robot.
    await runner.stop();
  });

});
