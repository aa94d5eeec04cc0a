// Child process of the payout kill test (kill.int.test.ts): opens the database, says "ready", then
// runs payout passes of the hot wallet against the local chain until no withdrawal is processing.
// The test SIGKILLs it at random moments and starts it again.
import { openDatabase } from '@lq/db';
import type { Hex } from 'viem';
import { chainOf } from '../deposits';
import { hotWalletOf } from './hot-wallet';
import { payoutPass } from './jobs';

const env = process.env;
// Started as the kill harness's standby: loaded, it waits for "go" before it takes the database.
if (env.KILL_STANDBY) for await (const _go of process.stdin) break;
const database = await openDatabase({ dataDir: env.KILL_DATA_DIR!, databaseUrl: env.KILL_DATABASE_URL || undefined, pgliteMode: 'exclusive' });
const token = env.KILL_TOKEN as Hex;
const confirmations = Number(env.KILL_CONFIRMATIONS);
const chains = { BEP20: { chain: chainOf('BEP20', { url: env.KILL_CHAIN_URL!, token, confirmations }), confirmations } };
const hot = hotWalletOf({ url: env.KILL_CHAIN_URL!, token, privateKey: env.KILL_HOT_KEY as Hex });
process.stdout.write('ready\n');
for (;;) {
  await payoutPass(database.db, chains, hot);
  const [left] = await database.exec<{ n: number }>(`select count(*)::int as n from withdrawals where status = 'processing'`);
  if (left.n === 0) break;
}
await database.close();
process.stdout.write('done\n');
