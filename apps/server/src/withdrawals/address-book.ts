// The withdrawal address book (docs/api.md "Withdrawal address book"): a withdrawal goes only to an
// address its owner added, and only WITHDRAW_NEW_ADDRESS_HOURS after it was added, so a thief who
// got in cannot add their address and withdraw at once; the owner is told and can remove it. The
// checks of where USDT may go (format, contracts, platform addresses) run when it is added.
import { rowsOf, sql, type Database } from '@lq/db';
import { AppError, WITHDRAW_ADDRESS_BOOK_MAX, type DepositNetwork, type WithdrawAddressAddBody, type WithdrawAddressItem, type WithdrawAddressList } from '@lq/contracts';
import { raiseSecurityNotice, untilText } from '../users';
import { bytesOf, isWithdrawAddress, type AddressGuard } from './addresses';

interface EntryRow {
  id: string | number;
  network: DepositNetwork;
  address: string;
  label: string;
  usable_from: string | Date;
  created_at: string | Date;
}

const ENTRY = sql.raw('id, network, address, label, usable_from, created_at');
const iso = (v: string | Date) => new Date(v).toISOString();
const toItem = (r: EntryRow): WithdrawAddressItem => ({ id: Number(r.id), network: r.network, address: r.address, label: r.label, usableFrom: iso(r.usable_from), createdAt: iso(r.created_at) });

/**
 * The security lock (a password, payment password or two-step change within SECURITY_LOCK_HOURS):
 * no withdrawal and no new address until it ends. `lock` takes the user's row lock as it reads, so
 * a change committing meanwhile is seen.
 */
export async function refuseWhileLocked(db: Database, userId: number, lock = sql``): Promise<void> {
  const [row] = rowsOf<{ until: string | Date | null }>(
    await db.execute(sql`select case when withdraw_locked_until > now() then withdraw_locked_until end as until from users where id = ${userId}${lock}`),
  );
  if (row?.until) throw new AppError('WITHDRAW_LOCKED', { until: untilText(new Date(row.until)) });
}

export async function addressesOf(db: Database, userId: number): Promise<WithdrawAddressList> {
  const rows = rowsOf<EntryRow>(await db.execute(sql`select ${ENTRY} from withdraw_addresses where user_id = ${userId} and removed_at is null order by id desc`));
  return { list: rows.map(toItem) };
}

/**
 * Adds an address, usable `waitHours` from now. `proveOwner` is the step-up, asked once the address
 * passed its checks (a typo costs no two-step code); what it answers uses the e-mail code up in the
 * insert's transaction (a refused address costs the user no new mail).
 */
export async function addAddress(
  db: Database,
  userId: number,
  body: WithdrawAddressAddBody,
  guard: AddressGuard,
  waitHours: number,
  proveOwner: () => Promise<(tx: Database) => Promise<void>>,
): Promise<WithdrawAddressItem> {
  const { network, address } = body;
  const label = (body.label ?? '').trim();
  await refuseWhileLocked(db, userId);
  if (!isWithdrawAddress(network, address)) throw new AppError('WITHDRAW_ADDRESS_INVALID', { network }, 'address');
  await guard.check(db, userId, network, address);
  const useProof = await proveOwner();
  const hex = bytesOf(network, address);
  return db.transaction(async (tx) => {
    // One addition of a user at a time (the book's size below), and the lock seen as of now.
    await refuseWhileLocked(tx, userId, sql` for no key update`);
    const [{ n }] = rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from withdraw_addresses where user_id = ${userId} and removed_at is null`));
    if (n >= WITHDRAW_ADDRESS_BOOK_MAX) throw new AppError('WITHDRAW_ADDRESS_BOOK_FULL', { max: WITHDRAW_ADDRESS_BOOK_MAX });
    const [row] = rowsOf<EntryRow>(
      await tx.execute(sql`insert into withdraw_addresses (user_id, network, address, address_hex, label, usable_from)
        values (${userId}, ${network}, ${address}, ${hex}, ${label}, now() + (${waitHours} * interval '1 hour'))
        on conflict (user_id, network, address_hex) where removed_at is null do nothing
        returning ${ENTRY}`),
    );
    if (!row) throw new AppError('WITHDRAW_ADDRESS_EXISTS', {}, 'address');
    await useProof(tx);
    const item = toItem(row);
    await raiseSecurityNotice(tx, userId, 'security.addressAdded', { address, network, until: untilText(new Date(item.usableFrom)) }, '/pages/withdraw/withdraw', String(item.id));
    return item;
  });
}

export async function removeAddress(db: Database, userId: number, id: number): Promise<void> {
  const done = rowsOf(await db.execute(sql`update withdraw_addresses set removed_at = now() where id = ${id} and user_id = ${userId} and removed_at is null returning id`));
  if (done.length === 0) throw new AppError('NOT_FOUND', {}, 'id');
}

/** A withdrawal's address must be a live entry of the user's book whose wait is over. */
export async function requireBooked(db: Database, userId: number, network: DepositNetwork, address: string, lock = sql``): Promise<void> {
  const [row] = rowsOf<{ usable_from: string | Date; usable: boolean }>(
    await db.execute(sql`select usable_from, usable_from <= now() as usable from withdraw_addresses
      where user_id = ${userId} and network = ${network} and address_hex = ${bytesOf(network, address)} and removed_at is null${lock}`),
  );
  if (!row) throw new AppError('WITHDRAW_ADDRESS_NOT_IN_BOOK', {}, 'address');
  if (!row.usable) throw new AppError('WITHDRAW_ADDRESS_NOT_YET', { until: untilText(new Date(row.usable_from)) }, 'address');
}
