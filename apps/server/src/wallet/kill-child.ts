// Child process of the wallet kill test (kill.int.test.ts): opens the database, says "ready", then
// works until done — `transfers`: the fixed list of transfers (same keys every run), after saying
// how many were already posted; `adjust`: the shell's wallet:adjust over a fixed list of keys, each
// movement with its audit row (issue 53 item 10); `export`: one export job. The test SIGKILLs it at random moments and starts it again.
import { openDatabase } from '@lq/db';
import { postEntry, rebateToBalance } from './ledger';
import { runExport } from './exports';
import { dispatchOps } from '../platform/ops';
import { WALLET_OPS } from './ops';

const env = process.env;
// Started as the kill harness's standby: loaded, it waits for "go" before it takes the database.
if (env.KILL_STANDBY) for await (const _go of process.stdin) break;
const database = await openDatabase({ dataDir: env.KILL_DATA_DIR!, databaseUrl: env.KILL_DATABASE_URL || undefined, pgliteMode: 'exclusive' });
if (env.KILL_MODE === 'transfers') {
  const userId = Number(env.KILL_USER);
  // What was already posted when this run began: the test counts the kills that landed with work left.
  const [done] = await database.exec<{ n: number }>(`select count(*)::int as n from ledger_entries where kind = 'transfer' and user_id = $1`, [userId]);
  process.stdout.write(`posted ${done.n}\nready\n`);
  const count = Number(env.KILL_COUNT);
  for (let i = 0; i < count; i++) {
    const amount = BigInt((i % 7) + 1) * 1000n;
    await postEntry(database.db, rebateToBalance(`kill-${userId}-${i}`, userId, amount));
  }
} else if (env.KILL_MODE === 'adjust') {
  // The shell's wallet:adjust, the same keys every run (a replay answers "already done").
  const [done] = await database.exec<{ n: number }>(`select count(*)::int as n from ledger_entries where idempotency_key like 'adjust:shell:kill-adj-%'`);
  process.stdout.write(`posted ${done.n}\nready\n`);
  const count = Number(env.KILL_COUNT);
  const quiet = () => {};
  // KILL_SELF_AT=i: killed the moment command i says it moved the money, before the dispatcher
  // ends it — the one place a movement could be left without its audit row.
  const selfAt = env.KILL_SELF_AT === undefined ? -1 : Number(env.KILL_SELF_AT);
  const dieOnDone = (line: string) => {
    if (/credited|debited/.test(line)) process.kill(process.pid, 'SIGKILL');
  };
  for (let i = 0; i < count; i++) {
    const args = ['wallet:adjust', 'kill@example.com', '1', '--wallet', 'balance', '--reason', 'kill test', '--key', `kill-adj-${i}`];
    const code = await dispatchOps([WALLET_OPS], args, { ...env, LQ_OPERATOR: 'kill@ops.example' }, i === selfAt ? dieOnDone : quiet, quiet, database);
    if (code !== 0) throw new Error(`wallet:adjust ${i} exited ${code}`);
  }
} else {
  process.stdout.write('ready\n');
  await runExport(database.db, env.KILL_DATA_DIR!, Number(env.KILL_EXPORT));
}
await database.close();
process.stdout.write('done\n');
