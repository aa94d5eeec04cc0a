// Operator commands of the backtests area (wired into `npm run ops` by ops/).
import { OpsError, userIdByMail, type OpsCommandSet } from '../platform/ops';
import { slotsOwned } from '../benefits';
import { backtestMaintenanceOn, setBacktestMaintenance } from './service';

export const BACKTEST_OPS: OpsCommandSet = {
  usage: `  backtest:maintenance [on|off]               show or switch the backtest maintenance mode
  backtest:slots <email> <n>                  set the operator-granted extra backtest slots of each market (n, beside the unlock's 1 and packs)`,
  commands: {
    'backtest:slots': {
      args: 2,
      async run(db, [email, n], out) {
        if (!/^\d{1,4}$/.test(n)) throw new OpsError(`n must be a whole number 0–9999 (got "${n}")`, 2);
        const userId = await userIdByMail(db, email);
        await db.exec(`delete from entitlement_grants where user_id = $1 and kind = 'backtest_slot' and origin = 'operator'`, [userId]);
        if (Number(n) > 0) {
          await db.exec(
            `insert into entitlement_grants (user_id, kind, quantity, origin, note) values ($1, 'backtest_slot', $2, 'operator', 'npm run ops backtest:slots')`,
            [userId, Number(n)],
          );
        }
        const [forex, crypto] = await Promise.all([slotsOwned(db.db, userId, 'forex'), slotsOwned(db.db, userId, 'crypto')]);
        out(`${email.trim().toLowerCase()}: ${n} extra backtest slot(s) on each market; slots in total: forex ${forex}, crypto ${crypto}`);
      },
    },
    'backtest:maintenance': {
      args: -1,
      async run(db, args, out, _config, audit) {
        if (args.length > 1 || (args[0] && args[0] !== 'on' && args[0] !== 'off')) {
          throw new OpsError('usage: backtest:maintenance [on|off]', 2);
        }
        if (args[0]) {
          const before = await backtestMaintenanceOn(db.db);
          await setBacktestMaintenance(db.db, args[0] === 'on');
          audit?.object('settings', 'maintenance').change({ on: before }, { on: args[0] === 'on' });
        }
        out(`backtest maintenance: ${(await backtestMaintenanceOn(db.db)) ? 'on' : 'off'}`);
      },
    },
  },
};
