// Shared by the withdrawals' database tests: a registered user with the payment password 123456
// and `balance` micro-Lightning in the balance wallet.
import { registerUser, type RegisteredUser, type TestApp } from '../../test/helpers';
import { hashSecret } from '../users';
import { adjustWallet } from '../wallet';

export const PAY_PASSWORD = '123456';

export async function payingUser(t: TestApp, balance: bigint): Promise<RegisteredUser & { id: number }> {
  const u = await registerUser(t);
  const [row] = await t.database.exec<{ id: number | string }>('select id from users where mail = $1', [u.mail]);
  const id = Number(row.id);
  await t.database.exec('update users set pay_pwd_hash = $2 where id = $1', [id, await hashSecret(PAY_PASSWORD)]);
  if (balance > 0n) await adjustWallet(t.database.db, { userId: id, wallet: 'balance', amount: balance, reason: 'test funds', key: `wd-test-fund-${id}` });
  return { ...u, id };
}
