// Two runners on one database never drive the same robot, a dead runner's robot is taken over
// after its lease expires (replayed from the database, reconciled with the venue), and faults at
// the venue (timeouts after acceptance, 429, 5xx, partial fills) end with no duplicate order per
// intent and the ledger equal to the venue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeBinance } from '@lq/venues/fake';
import { Runner } from '.';
import { startTestApp, type TestApp } from '../../test/helpers';
import { T0, robotRow, settled, seedAccount, seedRobot, waveCandles } from './test-helpers';

const silent = process.env.RUNNER_TEST_LOG ? { info: console.log, warn: console.log, error: console.log } : { info() {}, warn() {}, error() {} };
let fake: FakeBinance;
let t: TestApp;

beforeAll(async () => {
  fake = new FakeBinance({ candles: { BTCUSDT: waveCandles(6000) } });
  const origin = await fake.listen();
  t = await startTestApp({
    env: {
      EXCHANGE_BINANCE_URL: origin,
      RUNNER_RESOLVE_WINDOW_MS: '300',
      RUNNER_VENUE_TIMEOUT_MS: '400',
      RUNNER_LEASE_MS: '3000',
      RUNNER_CCXT_THROTTLE: 'false',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** Robots of earlier tests are left alone (they share the fake account). */
async function stopOthers(): Promise<void> {
  await t.database.exec(`update robots set status = 'stopped', lease_owner = null`);
}

function freshFake(balance = 10_000): void {
  const at = fake.timeMs;
  fake.reset();
  // On from where the clock was, a little before a crest of the wave: a long grid then trades.
  const k = Math.ceil((Math.max(at, fake.timeMs) + 10 * 60_000 - T0) / (90 * 60_000));
  fake.seed({ balance, timeMs: T0 + (k * 90 + 18) * 60_000 });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('runner leases and faults', () => {
  it('two runners: one drives, the other takes over only after the lease expired; the zombie cannot act', async () => {
    await stopOthers();
    freshFake();
    const owner = await seedAccount(t.database, t.config);
    const id = await seedRobot(t.database, owner);
    const a = new Runner({ database: t.database, config: t.config, log: silent });
    const b = new Runner({ database: t.database, config: t.config, log: silent });
    for (let i = 0; i < 60; i++) {
      fake.advance(60_000);
      await a.heartbeat();
      await a.tick();
      await b.tick();
    }
    expect(a.robotIds).toEqual([id]);
    expect(b.robotIds).toEqual([]);
    expect((await robotRow(t.database, id)).lease_owner).toBe(a.owner);
    const before = await settled(t.database, fake, id, async () => {
      fake.advance(60_000);
      await a.heartbeat();
      await a.tick();
    });
    expect(before.fills).toBeGreaterThan(2);

    // A stops heart-beating (dead or frozen). B takes over once the lease has expired.
    for (let k = 0; k < 100 && b.robotIds.length === 0; k++) {
      await sleep(100);
      await b.tick();
    }
    expect(b.robotIds).toEqual([id]);
    for (let i = 0; i < 90; i++) {
      fake.advance(60_000);
      await b.heartbeat();
      await b.tick();
    }
    expect((await robotRow(t.database, id)).lease_owner).toBe(b.owner);
    // The zombie wakes up: its writes are fenced by the lease, it drops the robot.
    fake.advance(60_000);
    await a.tick();
    await a.heartbeat();
    expect(a.robotIds).toEqual([]);
    const after = await settled(t.database, fake, id, async () => {
      fake.advance(60_000);
      await b.heartbeat();
      await b.tick();
    });
    expect(after.fills).toBeGreaterThan(before.fills);
    expect(after.duplicates).toEqual([]);
    expect(after.unjournalled).toEqual([]);
    expect(after.mismatched).toEqual([]);
    expect(after.ledgerCoins).toBeCloseTo(after.venueCoins, 9);
    const ev = await t.database.exec<{ kind: string }>(`select kind from robot_events where robot_id = $1 and kind = 'reconciled'`, [id]);
    expect(ev.length).toBe(2);
    await b.stop();
  });

  it('timeouts after acceptance, 429, 5xx and partial fills: no duplicate orders, ledger = venue', async () => {
    await stopOthers();
    freshFake();
    const P = '/fapi/v1/order';
    fake.addFault({ method: 'POST', path: P, skip: 2, times: 3, action: { type: 'accept_then_hang' } });
    fake.addFault({ method: 'POST', path: P, skip: 4, times: 2, action: { type: 'rate_limit', retryAfterS: 1 } });
    fake.addFault({ method: 'POST', path: P, skip: 6, times: 2, action: { type: 'http', status: 502, body: '<html>bad gateway</html>' } });
    fake.addFault({ method: 'POST', path: P, skip: 8, times: 1, action: { type: 'http', status: 503, venueCode: -1007, msg: 'Timeout waiting for response from backend server.' } });
    fake.addFault({ method: 'POST', path: P, skip: 10, times: 1, action: { type: 'partial', fillQty: 0.001, then: 'expire' } });
    fake.addFault({ method: 'POST', path: P, skip: 12, times: 1, action: { type: 'partial', fillQty: 0.001, then: 'rest' } });
    fake.addFault({ method: 'POST', path: P, skip: 14, times: 2, action: { type: 'accept_then_reset' } });
    fake.addFault({ method: 'GET', path: P, skip: 3, times: 3, action: { type: 'http', status: 500, venueCode: -1000 } });
    fake.addFault({ method: 'GET', path: '/fapi/v1/openOrders', skip: 5, times: 2, action: { type: 'hang' } });
    const owner = await seedAccount(t.database, t.config);
    const id = await seedRobot(t.database, owner);
    const r = new Runner({ database: t.database, config: t.config, log: silent });
    for (let i = 0; i < 240; i++) {
      fake.advance(60_000);
      await r.heartbeat();
      await r.tick();
    }
    if (process.env.RUNNER_TEST_LOG) {
      console.log(await robotRow(t.database, id), await t.database.exec(`select kind, message, detail from robot_events where robot_id = $1`, [id]));
      console.log(fake.journal.filter((j) => j.method !== 'GET').map((j) => `${j.method} ${j.path} ${j.status} ${j.fault ?? ''}`).join('\n'));
    }
    // Every rule fired.
    const faults = new Set(fake.journal.map((j) => j.fault).filter(Boolean));
    for (const f of ['accept_then_hang', 'rate_limit', 'http', 'partial', 'accept_then_reset', 'hang']) expect(faults).toContain(f);
    fake.clearFaults();
    const s = await settled(t.database, fake, id, async () => {
      fake.advance(60_000);
      await r.heartbeat();
      await r.tick();
    });
    expect(s.fills).toBeGreaterThan(6);
    expect(s.duplicates).toEqual([]);
    expect(s.unjournalled).toEqual([]);
    expect(s.mismatched).toEqual([]);
    expect(s.ledgerCoins).toBeCloseTo(s.venueCoins, 9);
    expect((await robotRow(t.database, id)).status).toBe('running');
    await r.stop();
  });
});
