import { USER_LEVELS } from '@lq/contracts';
import { openDatabase, SETTING_KEYS, type DatabaseHandle } from '@lq/db';
import { loadConfig } from '../config';
import { MARKET_COMMANDS, MARKET_USAGE } from '../market/ops';

export class OpsError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export const USAGE = `usage: npm run ops -- <command>
  user:list                                   list users (newest first)
  user:set-level <email> <VIP1|VIP2|VIP3|none>  set a user's level
  mail:last <email>                           print the last mail sent to an address (codes included)
  backtest:maintenance [on|off]               show or switch the backtest maintenance mode
  backtest:slots <email> <n>                  set the operator-granted extra backtest slots (1 + n at once)
  seats <email> <forex|crypto|all> <n>        set the operator-granted extra account seats of a market (1 + n)
${MARKET_USAGE}
Works on the same DATA_DIR / DATABASE_URL as the server, also while it runs.`;

type Out = (line: string) => void;

interface Command {
  args: number;
  run(db: DatabaseHandle, args: string[], out: Out): Promise<void>;
}

const COMMANDS: Record<string, Command> = {
  ...MARKET_COMMANDS,
  'user:list': {
    args: 0,
    async run(db, _args, out) {
      const rows = await db.exec<Record<string, string>>(
        `select u.mail, u.user_code, u.user_level, coalesce(u.nickname, '') as nickname, coalesce(r.user_code, '') as referrer,
                to_char(u.created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as created
           from users u left join users r on r.id = u.referrer_id order by u.id desc limit 1000`,
      );
      if (rows.length === 0) return out('no users');
      const cols = ['mail', 'user_code', 'user_level', 'nickname', 'referrer', 'created'];
      const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
      const line = (values: string[]) =>
        values
          .map((v, i) => v.padEnd(width[i]))
          .join('  ')
          .trimEnd();
      out(line(cols));
      for (const r of rows) out(line(cols.map((c) => String(r[c]))));
    },
  },
  'user:set-level': {
    args: 2,
    async run(db, [email, level], out) {
      if (!(USER_LEVELS as readonly string[]).includes(level)) {
        throw new OpsError(`level must be one of ${USER_LEVELS.join(', ')} (got "${level}")`, 2);
      }
      const rows = await db.exec<{ mail: string }>(
        'update users set user_level = $2, updated_at = now() where mail = $1 returning mail',
        [email.trim().toLowerCase(), level],
      );
      if (rows.length === 0) throw new OpsError(`no user with e-mail ${email}`);
      out(`${rows[0].mail}: level ${level}`);
    },
  },
  'mail:last': {
    args: 1,
    async run(db, [email], out) {
      const rows = await db.exec<Record<string, string | null>>(
        `select "to", subject, text, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') as created,
                sent_at is not null as sent, error
           from mail_outbox where "to" = $1 order by id desc limit 1`,
        [email.trim().toLowerCase()],
      );
      const m = rows[0];
      if (!m) throw new OpsError(`no mail to ${email}`);
      out(`To: ${m.to}`);
      out(`Date: ${m.created} UTC${m.error ? `  (delivery failed: ${m.error})` : ''}`);
      out(`Subject: ${m.subject}`);
      out('');
      out(String(m.text));
    },
  },
  'backtest:slots': {
    args: 2,
    async run(db, [email, n], out) {
      if (!/^\d{1,4}$/.test(n)) throw new OpsError(`n must be a whole number 0–9999 (got "${n}")`, 2);
      const users = await db.exec<{ id: number }>('select id from users where mail = $1', [email.trim().toLowerCase()]);
      if (users.length === 0) throw new OpsError(`no user with e-mail ${email}`);
      const userId = users[0].id;
      await db.exec(`delete from entitlement_grants where user_id = $1 and kind = 'backtest_slot' and origin = 'operator'`, [userId]);
      if (Number(n) > 0) {
        await db.exec(
          `insert into entitlement_grants (user_id, kind, quantity, origin, note) values ($1, 'backtest_slot', $2, 'operator', 'npm run ops backtest:slots')`,
          [userId, Number(n)],
        );
      }
      const total = await db.exec<{ n: number }>(
        `select (1 + coalesce(sum(quantity), 0))::int as n from entitlement_grants
          where user_id = $1 and kind = 'backtest_slot' and (expires_at is null or expires_at > now())`,
        [userId],
      );
      out(`${email.trim().toLowerCase()}: ${n} extra backtest slot(s), ${total[0].n} in total`);
    },
  },
  seats: {
    args: 3,
    async run(db, [email, market, n], out) {
      if (market !== 'forex' && market !== 'crypto' && market !== 'all') {
        throw new OpsError(`market must be forex, crypto or all (got "${market}")`, 2);
      }
      if (!/^\d{1,4}$/.test(n)) throw new OpsError(`n must be a whole number 0–9999 (got "${n}")`, 2);
      const users = await db.exec<{ id: number }>('select id from users where mail = $1', [email.trim().toLowerCase()]);
      if (users.length === 0) throw new OpsError(`no user with e-mail ${email}`);
      const userId = users[0].id;
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
  'backtest:maintenance': {
    args: -1,
    async run(db, args, out) {
      if (args.length > 1 || (args[0] && args[0] !== 'on' && args[0] !== 'off')) {
        throw new OpsError('usage: backtest:maintenance [on|off]', 2);
      }
      if (args[0]) {
        await db.exec(
          `insert into app_settings (key, value) values ($1, $2::jsonb)
             on conflict (key) do update set value = excluded.value, updated_at = now()`,
          [SETTING_KEYS.backtestMaintenance, args[0] === 'on' ? 'true' : 'false'],
        );
      }
      const rows = await db.exec<{ value: unknown }>(
        'select value from app_settings where key = $1',
        [SETTING_KEYS.backtestMaintenance],
      );
      out(`backtest maintenance: ${rows[0]?.value === true ? 'on' : 'off'}`);
    },
  },
};

/** Runs one operator command; returns the exit code. */
export async function runOps(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  out: Out = (l) => console.log(l),
  err: Out = (l) => console.error(l),
): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    (name ? out : err)(USAGE);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    err(`unknown command "${name}"\n${USAGE}`);
    return 2;
  }
  if (command.args >= 0 && args.length !== command.args) {
    err(`${name} takes ${command.args} argument(s)\n${USAGE}`);
    return 2;
  }
  let db: DatabaseHandle | undefined;
  try {
    const config = loadConfig(env);
    db = await openDatabase({
      dataDir: config.dataDir,
      databaseUrl: config.DATABASE_URL,
      pgliteMode: 'auto',
    });
    await command.run(db, args, out);
    return 0;
  } catch (e) {
    err(`${name}: ${(e as Error).message}`);
    return e instanceof OpsError ? e.exitCode : 1;
  } finally {
    await db?.close();
  }
}
