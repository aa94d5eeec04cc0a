// Operator commands of the robots area (wired into `npm run ops` by ops/).
import { OpsError, printTable, userIdByMail, type OpsCommandSet } from '../platform/ops';
import { seatsOwned } from '../benefits';

export const ROBOT_OPS: OpsCommandSet = {
  usage: [
    `  seats <email> <forex|crypto|all> <n>        set the operator-granted extra account seats of a market (n, beside the unlock's 1 and packs)`,
    `  robot-events <robot id> [--json]            a robot's whole timeline, the runner's gate changes included (pause / continue / stop applied at a candle)`,
  ].join('\n'),
  commands: {
    'robot-events': {
      args: -1,
      async run(db, [id, flag, ...extra], out) {
        if (id === undefined || extra.length > 0 || (flag !== undefined && flag !== '--json')) throw new OpsError('robot-events takes <robot id> [--json]', 2);
        if (!/^\d{1,12}$/.test(id)) throw new OpsError(`robot id must be a number (got "${id}")`, 2);
        const rows = await db.exec<{ id: number; created_at: Date | string; kind: string; message: string | null; detail: unknown }>(
          `select id::int as id, created_at, kind, message, detail from robot_events where robot_id = $1 order by id`,
          [Number(id)],
        );
        if (flag === '--json') {
          out(JSON.stringify(rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }))));
          return;
        }
        if (rows.length === 0) throw new OpsError(`robot ${id} has no events (no such robot?)`, 1);
        printTable(
          [['id', 'time', 'kind', 'message', 'detail'], ...rows.map((r) => [String(r.id), new Date(r.created_at).toISOString(), r.kind, r.message ?? '', r.detail === null ? '' : JSON.stringify(r.detail)])],
          out,
        );
      },
    },
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
        const [forex, crypto] = await Promise.all([seatsOwned(db.db, userId, 'forex'), seatsOwned(db.db, userId, 'crypto')]);
        out(`${email.trim().toLowerCase()}: ${n} extra seat(s) (${market}); seats in total: forex ${forex}, crypto ${crypto}`);
      },
    },
  },
};
