// Operator commands of the robots area (wired into `npm run ops` by ops/).
import { OpsError, userIdByMail, type OpsCommandSet } from '../platform/ops';

export const ROBOT_OPS: OpsCommandSet = {
  usage: `  seats <email> <forex|crypto|all> <n>        set the operator-granted extra account seats of a market (1 + n)`,
  commands: {
    seats: {
      args: 3,
      async run(db, [email, market, n], out) {
        if (market !== 'forex' && market !== 'crypto' && market !== 'all') {
          throw new OpsError(`market must be forex, crypto or all (got "${market}")`, 2);
        }
        if (!/^\d{1,4}$/.test(n)) throw new OpsError(`n must be a whole number 0–9999 (got "${n}")`, 2);
        const userId = await userIdByMail(db, email);
        const m = market === 'all' ? null : market;
        await db.exec(
          `delete from entitlement_grants where user_id = $1 and kind = 'seat' and origin = 'operator' and market is not distinct from $2`,
          [userId, m],
        );
        if (Number(n) > 0) {
          await db.exec(
            `insert into entitlement_grants (user_id, kind, market, quantity, origin, note) values ($1, 'seat', $2, $3, 'operator', 'npm run ops seats')`,
            [userId, m, Number(n)],
          );
        }
        const totals = await db.exec<{ market: string; n: number }>(
          `select k.market, (1 + coalesce(sum(g.quantity), 0))::int as n
             from (values ('forex'), ('crypto')) as k(market)
             left join entitlement_grants g on g.user_id = $1 and g.kind = 'seat'
              and (g.market is null or g.market = k.market) and (g.expires_at is null or g.expires_at > now())
            group by k.market order by k.market desc`,
          [userId],
        );
        out(`${email.trim().toLowerCase()}: ${n} extra seat(s) (${market}); seats in total: ${totals.map((t) => `${t.market} ${t.n}`).join(', ')}`);
      },
    },
  },
};
