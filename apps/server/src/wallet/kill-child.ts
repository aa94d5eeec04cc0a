// Child process of the wallet kill test (kill.int.test.ts): opens the database, says "ready", then
// works until done — `transfers`: the fixed list of transfers (same keys every run); `export`: one
// export job. The test SIGKILLs it at random moments and starts it again.
import { openDatabase } from '@lq/db';
import { postEntry, rebateToBalance } from './ledger';
import { runExport } from './exports';

const env = process.env;
const database = await openDatabase({ dataDir: env.KILL_DATA_DIR!, databaseUrl: env.KILL_DATABASE_URL || undefined, pgliteMode: 'exclusive' });
process.stdout.write('ready\n');
if (env.KILL_MODE === 'transfers') {
  const userId = Number(env.KILL_USER);
  const count = Number(env.KILL_COUNT);
  for (let i = 0; i < count; i++) {
    const amount = BigInt((i % 7) + 1) * 1000n;
    await postEntry(database.db, rebateToBalance(`kill-${userId}-${i}`, userId, amount));
  }
} else {
  await runExport(database.db, env.KILL_DATA_DIR!, Number(env.KILL_EXPORT));
}
await database.close();
process.stdout.write('done\n');
