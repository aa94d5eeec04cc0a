// The caller's USDT deposits for the recharge page: pending with their confirmations, waiting for
// the minimum, credited. A transfer a reorganisation removed (dropped) is not shown.
import { sql, type Database, rowsOf } from '@lq/db';
import { formatMoney, type DepositNetwork, type RechargeItem, type RechargeList } from '@lq/contracts';
import type { DepositSetup } from './addresses';

interface Row {
  id: string | number;
  network: DepositNetwork;
  tx_hash: string;
  amount: string;
  status: 'pending' | 'confirmed' | 'credited';
  block_number: string | number;
  last_head: string | number | null;
  seen_at: string | Date;
  credited_at: string | Date | null;
  total: string | number;
}

const ms = (v: string | Date) => new Date(v).getTime();

export async function depositsOf(db: Database, setup: DepositSetup, userId: number, q: { network?: DepositNetwork; page: number; size: number }): Promise<RechargeList> {
  const { size, page } = q;
  const rows = rowsOf<Row>(
    await db.execute(sql`select d.id, d.network, d.tx_hash, d.amount::text as amount, d.status, d.block_number, c.last_head, d.seen_at, d.credited_at,
          count(*) over () as total
        from chain_deposits d left join chain_cursors c on c.network = d.network
       where d.user_id = ${userId} and d.status <> 'dropped' ${q.network ? sql`and d.network = ${q.network}` : sql``}
       order by d.id desc limit ${size} offset ${(page - 1) * size}`),
  );
  const list = rows.map((r): RechargeItem => {
    const needed = setup.networks[r.network]?.confirmations ?? 0;
    const depth = r.last_head === null ? 0 : Number(r.last_head) - Number(r.block_number) + 1;
    return {
      id: Number(r.id),
      network: r.network,
      txHash: r.tx_hash,
      amount: formatMoney(BigInt(r.amount)),
      state: r.status === 'pending' ? 'pending' : r.status === 'confirmed' ? 'waiting' : 'credited',
      confirmations: r.status === 'pending' ? Math.max(0, Math.min(depth, needed)) : needed,
      confirmationsNeeded: needed,
      time: ms(r.seen_at),
      creditedAt: r.credited_at === null ? null : ms(r.credited_at),
    };
  });
  const total = rows.length > 0 ? Number(rows[0].total) : page === 1 ? 0 : await countOf(db, userId, q.network);
  return { list, total };
}

async function countOf(db: Database, userId: number, network: DepositNetwork | undefined): Promise<number> {
  const [row] = rowsOf<{ n: string | number }>(
    await db.execute(sql`select count(*) as n from chain_deposits where user_id = ${userId} and status <> 'dropped' ${network ? sql`and network = ${network}` : sql``}`),
  );
  return Number(row.n);
}
