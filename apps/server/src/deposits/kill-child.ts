// Child process of the deposit kill test (kill.int.test.ts): opens the database, says "ready",
// then scans the local chain in small steps (a few blocks a scan, so it spends its life inside
// scans and credits) until the cursor has passed every confirmed block. The test SIGKILLs it at
// random moments and starts it again.
import { openDatabase } from '@lq/db';
import { bscChain } from './bsc';
import { scanDeposits } from './watcher';

const env = process.env;
// Started as the kill harness's standby: loaded, it waits for "go" before it takes the database.
if (env.KILL_STANDBY) for await (const _go of process.stdin) break;
const database = await openDatabase({ dataDir: env.KILL_DATA_DIR!, databaseUrl: env.KILL_DATABASE_URL || undefined, pgliteMode: 'exclusive' });
const chain = bscChain({ url: env.KILL_CHAIN_URL!, token: env.KILL_TOKEN as `0x${string}` });
const confirmations = Number(env.KILL_CONFIRMATIONS);
process.stdout.write('ready\n');
for (;;) {
  const r = await scanDeposits(database.db, chain, { confirmations, maxBlocksPerScan: 2, blocksPerQuery: 1 });
  if (r.nextBlock > r.head - confirmations + 1 && r.credited === 0) break;
}
await database.close();
process.stdout.write('done\n');
