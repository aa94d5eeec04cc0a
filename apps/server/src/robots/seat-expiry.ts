// Seat expiry (business.md "Benefits, seats and slots"): when packs expire, a user may hold more
// seats (accounts running robots on a market) than they own. The accounts above the count freeze,
// most recently bound first; their robots stop and close their positions through the runner
// (status `stopping`, reason `seatExpired`), and the owner is mailed. Unfreezing: buy a seat, then
// release the account (trading-accounts/, `user/api/apikey/release`).
// Each (user, market) is settled in one transaction under the user's row lock (the lock robot
// creation takes): run twice, or killed at any line, it never leaves a frozen account with a robot
// still running, nor freezes more than the excess.
import { SEAT_EXPIRED, translate, type Locale } from '@lq/contracts';
import { rowsOf, sql, type Database } from '@lq/db';
import { renewDue, seatsOwned, seatsOwnedSql, type Market } from '../benefits';
import type { OutgoingMail } from '../platform/mail';
import { notifyRunner } from './service';


/** (user, market) pairs holding more seats with unfrozen accounts than they own. */
async function overSeated(db: Pick<Database, 'execute'>): Promise<Array<{ userId: number; market: Market }>> {
  const rows = rowsOf<{ user_id: string | number; market: Market }>(
    await db.execute(sql`select h.user_id, h.market from (
        select r.user_id, r.market, count(distinct r.account_id)::int as used
          from robots r join trading_accounts a on a.id = r.account_id
         where r.status in ('running', 'paused', 'stopping') and not a.frozen
         group by r.user_id, r.market
      ) h
      where h.used > ${seatsOwnedSql(sql`h.user_id`, sql`h.market`)}`),
  );
  return rows.map((r) => ({ userId: Number(r.user_id), market: r.market }));
}

/** Freezes the excess accounts of one (user, market), newest bound first; answers the robots stopped. */
async function settle(db: Database, userId: number, market: Market): Promise<{ accounts: number; robots: number[] }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select id from users where id = ${userId} for update`);
    const holders = rowsOf<{ id: string | number }>(
      await tx.execute(sql`select a.id from trading_accounts a
        where a.user_id = ${userId} and a.market = ${market} and not a.frozen
          and exists (select 1 from robots r where r.account_id = a.id and r.status in ('running', 'paused', 'stopping'))
        order by a.created_at desc, a.id desc`),
    );
    const excess = holders.length - (await seatsOwned(tx, userId, market));
    if (excess <= 0) return { accounts: 0, robots: [] };
    const freeze = holders.slice(0, excess).map((h) => Number(h.id));
    const stopped: number[] = [];
    for (const accountId of freeze) {
      await tx.execute(sql`update trading_accounts set frozen = true, frozen_reason = ${SEAT_EXPIRED}, frozen_at = now(), freeze_notified_at = null, unfrozen_at = null where id = ${accountId}`);
      const robots = rowsOf<{ id: string | number }>(
        await tx.execute(sql`update robots set status = 'stopping', stop_reason = ${SEAT_EXPIRED}, updated_at = now()
          where account_id = ${accountId} and status in ('running', 'paused') returning id`),
      );
      for (const r of robots) {
        await tx.execute(sql`insert into robot_events (robot_id, kind, message, detail) values (${r.id}, 'stopping', 'robot.stopping', ${JSON.stringify({ by: 'seat-expiry' })}::jsonb)`);
        stopped.push(Number(r.id));
      }
    }
    return { accounts: freeze.length, robots: stopped };
  });
}

/**
 * Mails the owner of each account frozen by seat expiry and not told yet, then marks it told (a
 * kill between the two mails again: at least once).
 */
export async function notifyFrozenAccounts(db: Database, send: (mail: OutgoingMail) => Promise<void>): Promise<number> {
  const rows = rowsOf<{ id: string | number; account_name: string; market: string; mail: string; locale: Locale }>(
    await db.execute(sql`select a.id, a.account_name, a.market, u.mail, u.locale from trading_accounts a join users u on u.id = a.user_id
      where a.frozen and a.frozen_reason = ${SEAT_EXPIRED} and a.freeze_notified_at is null order by a.id limit 500`),
  );
  for (const r of rows) {
    await send({
      to: r.mail,
      subject: translate(r.locale, 'mail.seatExpired.subject'),
      text: translate(r.locale, 'mail.seatExpired.body', { account: r.account_name, market: translate(r.locale, `benefit.market.${r.market}`) }),
    });
    await db.execute(sql`update trading_accounts set freeze_notified_at = now() where id = ${r.id}`);
  }
  return rows.length;
}

export interface SeatPass {
  renewed: number;
  renewFailed: number;
  frozen: number;
  stopped: number;
  told: number;
}

/**
 * One pass: renew what is due first (a pack renewed a minute late must not freeze anything), then
 * freeze the excess of every over-seated (user, market), then mail the owners.
 */
export async function enforceSeats(db: Database, send: (mail: OutgoingMail) => Promise<void>, options: { renewBatch?: number } = {}): Promise<SeatPass> {
  const renewed = await renewDue(db, { batch: options.renewBatch });
  const pass: SeatPass = { renewed: renewed.renewed, renewFailed: renewed.failed, frozen: 0, stopped: 0, told: 0 };
  for (const { userId, market } of await overSeated(db)) {
    const r = await settle(db, userId, market);
    pass.frozen += r.accounts;
    pass.stopped += r.robots.length;
    for (const id of r.robots) notifyRunner(id);
  }
  pass.told = await notifyFrozenAccounts(db, send);
  return pass;
}
