// Child process of the benefits kill test (kill.int.test.ts): opens the database, says "ready",
// then runs seat passes (renewals due, freezes, mails) until one finds nothing to do. The test
// SIGKILLs it at random moments and starts it again.
import { openDatabase } from '@lq/db';
import { enforceSeats } from '../robots';
import { notifyFailedRenewals } from './renewals';

const env = process.env;
// Started as the kill harness's standby: loaded, it waits for "go" before it takes the database.
if (env.KILL_STANDBY) for await (const _go of process.stdin) break;
const database = await openDatabase({ dataDir: env.KILL_DATA_DIR!, databaseUrl: env.KILL_DATABASE_URL || undefined, pgliteMode: 'exclusive' });
const [left] = await database.exec<{ n: number }>(`select count(*)::int as n from benefit_purchases p where p.auto_renew and p.expires_at <= now()
  and not exists (select 1 from benefit_renewals r where r.purchase_id = p.id and r.period = p.renewals + 1)`);
process.stdout.write(`due ${left.n}\nready\n`);
// No mail is sent here: what matters is that each owner is marked told once the pass is done.
// Small renewal batches: many transactions for the kills to land between and inside.
for (;;) {
  const pass = await enforceSeats(database.db, async () => {}, { renewBatch: 1 });
  const told = await notifyFailedRenewals(database.db, async () => {});
  if (pass.renewed + pass.renewFailed + pass.frozen + pass.told + told === 0) break;
}
await database.close();
process.stdout.write('done\n');
