// `npm run ops`: every area's operator commands, dispatched by the platform's runner. An area
// declares its commands in its own ops.ts and exports them from its index.ts.
import { BACKTEST_OPS } from '../backtests';
import { BENEFIT_OPS } from '../benefits';
import { CONSOLE_OPS } from '../console';
import { MARKET_OPS } from '../market';
import { NOTICE_OPS } from '../notices';
import { DRIFT_OPS } from '../drift';
import { dispatchOps, type OpsOut } from '../platform/ops';
import { REFERRAL_OPS } from '../referrals';
import { ROBOT_OPS } from '../robots';
import { USER_OPS } from '../users';
import { WALLET_OPS } from '../wallet';
import { DEPOSIT_OPS } from '../deposits';
import { WITHDRAW_OPS } from '../withdrawals';

export { OpsError } from '../platform/ops';

/** The command sets, in the order the usage text lists them. */
export const OPS_COMMAND_SETS = [USER_OPS, BACKTEST_OPS, ROBOT_OPS, MARKET_OPS, WALLET_OPS, DEPOSIT_OPS, WITHDRAW_OPS, BENEFIT_OPS, REFERRAL_OPS, NOTICE_OPS, CONSOLE_OPS, DRIFT_OPS];

/** Runs one operator command; returns the exit code. */
export function runOps(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  out?: OpsOut,
  err?: OpsOut,
): Promise<number> {
  return dispatchOps(OPS_COMMAND_SETS, argv, env, out, err);
}
