// Child process of the rebate kill test (kill.int.test.ts): opens the database, says how many
// payments of the day are unsettled and "ready", then settles the day in batches of one payment
// (many transactions for the kills to land between and inside) and says "done".
import { openDatabase } from '@lq/db';
import { settleRebates } from './rebates';

const env = process.env;
// Started as the kill harness's standby: loaded, it waits for "go" before it takes the database.
if (env.KILL_STANDBY) for await (const _go of process.stdin) break;
const database = await openDatabase({ dataDir: env.KILL_DATA_DIR!, databaseUrl: env.KILL_DATABASE_URL || undefined, pgliteMode: 'exclusive' });
const [left] = await database.exec<{ n: number }>(
  `select count(*)::int as n from ledger_entries e where e.kind = 'purchase' and not exists (select 1 from rebate_payments p where p.entry_id = e.id)`,
);
process.stdout.write(`due ${left.n}\nready\n`);
await settleRebates(database.db, env.KILL_TIMEZONE!, env.KILL_DAY, { batch: 1 });
await database.close();
process.stdout.write('done\n');
