// Operator commands of the deposits area (wired into `npm run ops` by ops/).
import { sql, rowsOf } from '@lq/db';
import { formatMoney } from '@lq/contracts';
import type { OpsCommandSet } from '../platform/ops';

export const DEPOSIT_OPS: OpsCommandSet = {
  usage: `  deposit:status                              each network's watcher: next block, head, last scan, failures in a row and the last error; transfers by state`,
  commands: {
    'deposit:status': {
      args: 0,
      async run(db, _args, out) {
        const cursors = rowsOf<{ network: string; next_block: string; last_head: string | null; chain_id: string | null; scanned_at: Date | string | null; failures: number; last_error: string | null; last_error_at: Date | string | null }>(
          await db.db.execute(sql`select * from chain_cursors order by network`),
        );
        const states = rowsOf<{ network: string; status: string; n: string; amount: string }>(
          await db.db.execute(sql`select network, status, count(*)::text as n, sum(amount)::text as amount from chain_deposits group by network, status order by network, status`),
        );
        if (cursors.length === 0) out('no deposit watcher has run yet');
        const iso = (v: Date | string | null) => (v === null ? '-' : new Date(v).toISOString());
        for (const c of cursors) {
          out(`${c.network}: chain ${c.chain_id ?? '-'}, next block ${c.next_block}, head ${c.last_head ?? '-'}, last scan ${iso(c.scanned_at)}`);
          if (c.failures > 0) out(`  ${c.failures} failed scan(s) in a row, last at ${iso(c.last_error_at)}: ${c.last_error}`);
          for (const s of states.filter((x) => x.network === c.network)) out(`  ${s.status}: ${s.n} transfer(s), ${formatMoney(BigInt(s.amount))} USDT`);
        }
      },
    },
  },
};
