// Child process of the wallet kill test (kill.int.test.ts): opens the database, says "ready", then
// works until done — `transfers`: the fixed list of transfers (same keys every run), after saying
// how many were already posted; `export`: one export job. The test SIGKILLs it at random moments and starts it again.
import { openDatabase } from '@lq/db';
import { postEntry, rebateToBalance } from './ledger';
import { runExport } from './exports';

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
} else {
  process.stdout.write('ready\n');
  await runExport(database.db, env.KILL_DATA_DIR!, Number(env.KILL_EXPORT));
}
await database.close();
process.stdout.write('done\n');
