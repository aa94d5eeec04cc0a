// Operator commands of the robots area (wired into `npm run ops` by ops/).
import { OpsError, printTable, userIdByMail, type OpsCommandSet } from '../platform/ops';
import { seatsOwned } from '../benefits';
import { checkMt5Fills } from './fill-check';
import { decimalText } from './service';

export const ROBOT_OPS: OpsCommandSet = {
  usage: [
    `  seats <email> <forex|crypto|all> <n>        set the operator-granted extra account seats of a market (n, beside the unlock's 1 and packs)`,
    `  robot-events <robot id> [--json]            a robot's whole timeline, the runner's gate changes included (pause / continue / stop applied at a candle)`,
    `  fills:suspect [days] [--check]              live MT5 fills found made up in the last days (30), by user; --check runs the fill check first`,
  ].join('\n'),
  commands: {
    'fills:suspect': {
      args: -1,
      async run(db, args, out) {
        const check = args.includes('--check');
        const rest = args.filter((a) => a !== '--check');
        if (rest.length > 1 || (rest[0] !== undefined && !/^\d{1,4}$/.test(rest[0]))) throw new OpsError('fills:suspect takes [days] [--check] (days: a whole number, 30 when left out)', 2);
        if (check) {
          const r = await checkMt5Fills(db);
          out(`fill check: ${r.checked} checked, ${r.suspect} suspect, ${r.waiting} waiting for their minute's candle`);
        }
        const rows = await db.exec<{ filled_at: Date | string; mail: string; robot_id: string; symbol: string; action: string; qty: string; price: string; suspect: string }>(
          `select f.filled_at, u.mail, f.robot_id::text as robot_id, r.symbol, f.action, f.qty::text as qty, f.price::text as price, f.suspect
             from robot_fills f join robots r on r.id = f.robot_id join users u on u.id = r.user_id
            where f.suspect is not null and f.checked_at >= now() - make_interval(days => $1::int)
            order by u.mail, f.filled_at desc, f.id desc`,
          [Number(rest[0] ?? 30)],
        );
        if (rows.length === 0) {
          out(`no suspect fill in the last ${rest[0] ?? 30} days`);
          return;
        }
        printTable(
          [
            ['user', 'time', 'robot', 'symbol', 'action', 'qty', 'price', 'why'],
            ...rows.map((r) => [r.mail, new Date(r.filled_at).toISOString(), r.robot_id, r.symbol, r.action, decimalText(r.qty), decimalText(r.price), r.suspect]),
          ],
          out,
        );
      },
    },
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
