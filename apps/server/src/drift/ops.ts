// Operator commands of the drift monitor (wired into `npm run ops` by ops/).
import { OpsError, type OpsCommandSet } from '../platform/ops';
import { ShadowMonitor } from './service';

export const DRIFT_OPS: OpsCommandSet = {
  usage: `  drift:check <robot id>                      bring a robot's shadow backtest up to the robot's last candle: candles stepped, fills, equity`,
  commands: {
    'drift:check': {
      args: 1,
      async run(db, [idText], out) {
        const id = Number(idText);
        if (!Number.isSafeInteger(id) || id <= 0) throw new OpsError(`a robot id is a positive whole number (got "${idText}")`, 2);
        const r = await new ShadowMonitor(db).check(id);
        if (!r) {
          out(`robot ${id}: no candle stepped yet (or no such robot): nothing to shadow`);
          return;
        }
        out(
          `robot ${id}: shadow at ${new Date(r.cursor).toISOString()}; ${r.stepped} candle(s) stepped, ${r.newFills} new fill(s), ${r.fills} in all; balance ${r.balance.toFixed(2)}, equity ${r.equity.toFixed(2)}`,
        );
      },
    },
  },
};
