// Packs without auto-renew tell their owner 3 days before they expire (the notification centre):
// once per pack and expiry, not for auto-renewing packs (they renew, or tell that renewal failed)
// nor for packs further off or already expired.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredUserWithId, startTestApp, type TestApp } from '../../test/helpers';
import { noticeExpiringPacks } from './renewals';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const DAY = 86_400_000;

describe('packs expiring', () => {
  it('are told of once, 3 days ahead, without auto-renew only', async () => {
    const u = await registeredUserWithId(t);
    const pack = async (key: string, expiresInMs: number, autoRenew: boolean) => {
      const [p] = await t.database.exec<{ id: string }>(
        `insert into benefit_purchases (user_id, idempotency_key, request_hash, item, market, quantity, months, amount, auto_renew, expires_at)
         values ($1, $2, 'h', 'seat', 'crypto', 1, 1, 10000000, $3, $4) returning id::text as id`,
        [u.id, `${key}-${u.id}`, autoRenew, new Date(Date.now() + expiresInMs).toISOString()],
      );
      return Number(p.id);
    };
    const soon = await pack('soon', 2 * DAY, false);
    await pack('renews', 2 * DAY, true);
    await pack('later', 5 * DAY, false);
    await pack('gone', -DAY, false);

    expect(await noticeExpiringPacks(t.database.db)).toBe(1);
    expect(await noticeExpiringPacks(t.database.db)).toBe(0);
    const rows = await t.database.exec<{ kind: string; params: { purchaseId: number; expiresAt: number }; link: string }>(`select kind, params, link from notifications where user_id = $1`, [u.id]);
    expect(rows).toEqual([{ kind: 'pack.expiring', params: expect.objectContaining({ purchaseId: soon, item: 'seat', market: 'crypto' }), link: '/pages/equity/index' }]);
    // Bought again (a new expiry): told again.
    await t.database.exec(`update benefit_purchases set expires_at = expires_at + interval '1 day' where id = $1`, [soon]);
    expect(await noticeExpiringPacks(t.database.db)).toBe(1);
  });
});
