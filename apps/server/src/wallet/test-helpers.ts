// Shared by the wallet's database tests and its bench: a bare user row (the ledger needs only its id).
import type { DatabaseHandle } from '@lq/db';

let seq = 0;

export async function insertUser(db: DatabaseHandle, tag: string): Promise<number> {
  const n = ++seq;
  const stamp = `${Date.now().toString(36)}${process.pid.toString(36)}${n}`;
  const [row] = await db.exec<{ id: number | string }>(
    `insert into users (mail, password_hash, user_code, country) values ($1, 'x', $2, 'SG') returning id`,
    [`${tag}.${stamp}@example.com`, `${tag.slice(0, 2).toUpperCase()}${stamp}`.slice(0, 24)],
  );
  return Number(row.id);
}
