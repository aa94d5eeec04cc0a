// The ledger against a real database (PGlite here, PostgreSQL in CI): fast-check drives random
// interleavings of credits, transfers, holds, posts, voids and replays over several users and
// checks them against a model after every step; `verifyLedger` must stay clean throughout.
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@lq/db';
import { openTestDatabase } from '../../test/helpers';
import {
  EntryStateError,
  IdempotencyConflictError,
  InsufficientFundsError,
  postEntries,
  postEntry,
  postPending,
  rebateToBalance,
  userBalances,
  verifyLedger,
  voidPending,
  type EntryCommand,
  type UserWallet,
} from './ledger';
import { insertUser } from './test-helpers';

let database: DatabaseHandle;
let closeDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ database, close: closeDatabase } = await openTestDatabase('lq-ledger-'));
});

afterEach(async () => {
  expect(await verifyLedger(database.db)).toEqual([]);
});

afterAll(() => closeDatabase?.());

const newUser = () => insertUser(database, 'ledger');

const credit = (key: string, userId: number, wallet: UserWallet, amount: bigint): EntryCommand => ({
  key,
  kind: 'adjust',
  userId,
  lines: [
    { account: { platform: 'adjustments' }, amount: -amount },
    { account: { userId, wallet }, amount },
  ],
});
const transfer = rebateToBalance;
const hold = (key: string, userId: number, amount: bigint): EntryCommand => ({
  key,
  kind: 'withdrawal',
  userId,
  pending: true,
  lines: [
    { account: { userId, wallet: 'balance' }, amount: -amount },
    { account: { platform: 'withdrawal_holds' }, amount },
  ],
});

describe('ledger basics', () => {
  it('posts an entry, replays its key, refuses the key with another body', async () => {
    const u = await newUser();
    const first = await postEntry(database.db, credit('basic-1', u, 'rebate', 5_000_000n));
    expect(first).toMatchObject({ status: 'posted', replayed: false });
    const again = await postEntry(database.db, credit('basic-1', u, 'rebate', 5_000_000n));
    expect(again).toEqual({ ...first, replayed: true });
    await expect(postEntry(database.db, credit('basic-1', u, 'rebate', 6_000_000n))).rejects.toBeInstanceOf(IdempotencyConflictError);
    expect((await userBalances(database.db, u)).rebate.posted).toBe(5_000_000n);
    const [lines] = await database.exec<{ n: string }>(`select count(*)::text as n from ledger_lines l join ledger_entries e on e.id = l.entry_id where e.idempotency_key = 'basic-1'`);
    expect(lines.n).toBe('2');
  });

  it('refuses an overdraft and writes nothing; the same key succeeds once the money is there', async () => {
    const u = await newUser();
    await expect(postEntry(database.db, transfer('over-1', u, 1n))).rejects.toBeInstanceOf(InsufficientFundsError);
    const [none] = await database.exec<{ n: string }>(`select count(*)::text as n from ledger_entries where idempotency_key = 'over-1'`);
    expect(none.n).toBe('0');
    await postEntry(database.db, credit('over-credit', u, 'rebate', 1n));
    expect(await postEntry(database.db, transfer('over-1', u, 1n))).toMatchObject({ status: 'posted', replayed: false });
    const b = await userBalances(database.db, u);
    expect([b.rebate.posted, b.balance.posted]).toEqual([0n, 1n]);
  });

  it('a hold reserves the money until it is posted or voided, once', async () => {
    const u = await newUser();
    await postEntry(database.db, credit('hold-credit', u, 'balance', 13_000_000n));
    const h = await postEntry(database.db, hold('hold-1', u, 13_000_000n));
    expect(h.status).toBe('pending');
    expect((await userBalances(database.db, u)).balance).toMatchObject({ posted: 13_000_000n, pendingOut: 13_000_000n, available: 0n });
    await expect(postEntry(database.db, hold('hold-2', u, 1n))).rejects.toBeInstanceOf(InsufficientFundsError);
    expect(await voidPending(database.db, h.id, 'hold-1-void')).toMatchObject({ status: 'voided', replayed: false });
    expect(await voidPending(database.db, h.id, 'hold-1-void')).toMatchObject({ status: 'voided', replayed: true });
    await expect(postPending(database.db, h.id, 'hold-1-post')).rejects.toBeInstanceOf(EntryStateError);
    expect((await userBalances(database.db, u)).balance.available).toBe(13_000_000n);
    const h2 = await postEntry(database.db, hold('hold-3', u, 10_000_000n));
    await postPending(database.db, h2.id, 'hold-3-post');
    await expect(voidPending(database.db, h2.id, 'hold-3-post')).rejects.toBeInstanceOf(IdempotencyConflictError);
    expect((await userBalances(database.db, u)).balance).toMatchObject({ posted: 3_000_000n, pendingOut: 0n, available: 3_000_000n });
  });

  it('a post and a void racing for each hold resolve it once; one key resolves one hold', async () => {
    const u = await newUser();
    await postEntry(database.db, credit('race-credit', u, 'balance', 100_000_000n));
    const holds = await Promise.all(Array.from({ length: 10 }, (_, i) => postEntry(database.db, hold(`race-hold-${i}`, u, 1_000_000n + BigInt(i)))));
    const outcomes = await Promise.all(
      holds.flatMap((h) => [
        postPending(database.db, h.id, `race-${h.id}-post`).then((r) => r.status, (e: unknown) => e),
        voidPending(database.db, h.id, `race-${h.id}-void`).then((r) => r.status, (e: unknown) => e),
      ]),
    );
    let postedOut = 0n;
    holds.forEach((h, i) => {
      const [post, voided] = outcomes.slice(2 * i, 2 * i + 2);
      const won = [post, voided].filter((o) => o === 'posted' || o === 'voided');
      expect(won).toHaveLength(1);
      expect([post, voided].filter((o) => o instanceof EntryStateError)).toHaveLength(1);
      if (post === 'posted') postedOut += 1_000_000n + BigInt(i);
    });
    expect((await userBalances(database.db, u)).balance).toMatchObject({ posted: 100_000_000n - postedOut, pendingOut: 0n });

    const [a, b] = await Promise.all([postEntry(database.db, hold('race-key-a', u, 1n)), postEntry(database.db, hold('race-key-b', u, 2n))]);
    const sameKey = await Promise.all([a, b].map((h) => postPending(database.db, h.id, 'race-one-key').then((r) => r.status, (e: unknown) => e)));
    expect(sameKey.filter((o) => o === 'posted')).toHaveLength(1);
    expect(sameKey.filter((o) => o instanceof IdempotencyConflictError)).toHaveLength(1);
    await expect(postPending(database.db, 987_654_321, 'race-missing')).rejects.toMatchObject({ status: 'missing' });

    // Inside a caller's transaction a refusal is a savepoint's: the transaction goes on.
    const open = sameKey[0] === 'posted' ? b : a;
    await database.db.transaction(async (tx) => {
      await expect(postPending(tx, holds[0].id, 'race-again')).rejects.toBeInstanceOf(EntryStateError);
      expect(await voidPending(tx, open.id, 'race-last-void')).toMatchObject({ status: 'voided', replayed: false });
    });
    expect((await userBalances(database.db, u)).balance.pendingOut).toBe(0n);
  });

  it('a batch posts every entry in order with running balances, replays, and is refused whole when one line overdraws', async () => {
    const [a, b] = [await newUser(), await newUser()];
    await postEntry(database.db, credit('batch-fund', a, 'balance', 10n));
    const spend = (key: string, userId: number, amount: bigint): EntryCommand => ({
      key,
      kind: 'purchase',
      userId,
      lines: [
        { account: { userId, wallet: 'balance' }, amount: -amount },
        { account: { platform: 'revenue' }, amount },
      ],
    });
    // b's wallet does not exist yet: the batch creates it; a spends 4 then 6, exactly what it has.
    const batch = [spend('batch-1', a, 4n), credit('batch-2', b, 'balance', 3n), spend('batch-3', a, 6n), spend('batch-4', b, 3n)];
    const posted = await postEntries(database.db, batch);
    expect(posted.map((r) => r.replayed)).toEqual([false, false, false, false]);
    const after = await database.exec<{ key: string; balance_after: string }>(
      `select e.idempotency_key as key, l.balance_after::text as balance_after from ledger_lines l join ledger_entries e on e.id = l.entry_id
        where e.idempotency_key like 'batch-_' and l.user_id is not null order by l.id`,
    );
    expect(after).toEqual([
      { key: 'batch-1', balance_after: '6' },
      { key: 'batch-2', balance_after: '3' },
      { key: 'batch-3', balance_after: '0' },
      { key: 'batch-4', balance_after: '0' },
    ]);
    // The same batch again: replayed, nothing written; a key with another body: refused.
    expect((await postEntries(database.db, batch)).map((r) => [r.id, r.replayed])).toEqual(posted.map((r) => [r.id, true]));
    await expect(postEntries(database.db, [spend('batch-1', a, 5n)])).rejects.toBeInstanceOf(IdempotencyConflictError);
    // One overdraft anywhere refuses the whole batch, naming the wallet and what it had at that line.
    await postEntry(database.db, credit('batch-fund-2', a, 'balance', 5n));
    const refused = await postEntries(database.db, [spend('batch-5', a, 2n), spend('batch-6', a, 4n)]).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InsufficientFundsError);
    expect(refused).toMatchObject({ account: `user:${a}:balance`, available: 3n, needed: 4n });
    expect(await database.exec(`select 1 from ledger_entries where idempotency_key in ('batch-5', 'batch-6')`)).toEqual([]);
    expect((await userBalances(database.db, a)).balance.posted).toBe(5n);
    await expect(postEntries(database.db, [spend('batch-7', a, 1n), spend('batch-7', a, 1n)])).rejects.toThrow(/twice in one batch/);
  });

  it('the database itself refuses a user wallet below zero', async () => {
    const u = await newUser();
    await postEntry(database.db, credit('check-credit', u, 'balance', 1n));
    await expect(database.exec(`update ledger_accounts set posted = -1 where user_id = $1 and kind = 'balance'`, [u])).rejects.toThrow(/ledger_accounts_no_overdraft/);
  });

  it('verify names a tampered balance and an unbalanced entry', async () => {
    const u = await newUser();
    await postEntry(database.db, credit('tamper-credit', u, 'balance', 7n));
    await database.exec(`update ledger_accounts set posted = posted + 1 where user_id = $1 and kind = 'balance'`, [u]);
    const [line] = await database.exec<{ id: number | string }>(
      `select l.id from ledger_lines l join ledger_entries e on e.id = l.entry_id where e.idempotency_key = 'tamper-credit' and l.amount > 0`,
    );
    await database.exec(`update ledger_lines set amount = 6, balance_after = 6 where id = $1`, [line.id]);
    const problems = await verifyLedger(database.db);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^account user:${u}:balance: posted is 8, its lines say 6$`)),
        expect.stringMatching(/^entry \d+ \(tamper-credit\): 2 line\(s\) summing to -1, not zero$/),
      ]),
    );
    // Put it back so the suite's own verification stays meaningful.
    await database.exec(`update ledger_lines set amount = 7, balance_after = 7 where id = $1`, [line.id]);
    await database.exec(`update ledger_accounts set posted = 7 where user_id = $1 and kind = 'balance'`, [u]);
  });
});

type Step =
  | { op: 'credit'; user: number; wallet: UserWallet; amount: bigint }
  | { op: 'transfer'; user: number; amount: bigint }
  | { op: 'hold'; user: number; amount: bigint }
  | { op: 'post' | 'void'; pick: number }
  | { op: 'replay'; pick: number };

const amount = fc.bigInt({ min: 1n, max: 50_000_000n });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('credit' as const), user: fc.nat(2), wallet: fc.constantFrom<UserWallet>('balance', 'rebate'), amount }),
  fc.record({ op: fc.constant('transfer' as const), user: fc.nat(2), amount }),
  fc.record({ op: fc.constant('hold' as const), user: fc.nat(2), amount }),
  fc.record({ op: fc.constantFrom('post' as const, 'void' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('replay' as const), pick: fc.nat() }),
);

describe('ledger properties', () => {
  it('random interleavings keep every wallet ≥ 0, every entry balanced, every balance equal to its lines', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 24 }), async (steps) => {
        run++;
        const users = [await newUser(), await newUser(), await newUser()];
        // The model: posted and held per user wallet.
        const posted = new Map<string, bigint>();
        const held = new Map<string, bigint>();
        const get = (m: Map<string, bigint>, u: number, w: UserWallet) => m.get(`${u}:${w}`) ?? 0n;
        const add = (m: Map<string, bigint>, u: number, w: UserWallet, d: bigint) => m.set(`${u}:${w}`, get(m, u, w) + d);
        const done: { cmd: EntryCommand; id: number; status: string }[] = [];
        const holds: { id: number; user: number; amount: bigint; open: boolean }[] = [];
        let n = 0;
        for (const s of steps) {
          const key = `p${run}-${n++}-${Date.now()}`;
          if (s.op === 'credit' || s.op === 'transfer' || s.op === 'hold') {
            const u = users[s.user];
            const cmd = s.op === 'credit' ? credit(key, u, s.wallet, s.amount) : s.op === 'transfer' ? transfer(key, u, s.amount) : hold(key, u, s.amount);
            const from: UserWallet = s.op === 'transfer' ? 'rebate' : 'balance';
            const available = get(posted, u, from) - get(held, u, from);
            const refused = s.op !== 'credit' && available < s.amount;
            if (refused) {
              await expect(postEntry(database.db, cmd)).rejects.toBeInstanceOf(InsufficientFundsError);
              continue;
            }
            const r = await postEntry(database.db, cmd);
            done.push({ cmd, id: r.id, status: r.status });
            if (s.op === 'credit') add(posted, u, s.wallet, s.amount);
            else if (s.op === 'transfer') {
              add(posted, u, 'rebate', -s.amount);
              add(posted, u, 'balance', s.amount);
            } else {
              add(held, u, 'balance', s.amount);
              holds.push({ id: r.id, user: u, amount: s.amount, open: true });
            }
          } else if (s.op === 'post' || s.op === 'void') {
            if (holds.length === 0) continue;
            const h = holds[s.pick % holds.length];
            const act = s.op === 'post' ? postPending : voidPending;
            if (!h.open) {
              await expect(act(database.db, h.id, key)).rejects.toBeInstanceOf(EntryStateError);
              continue;
            }
            await act(database.db, h.id, key);
            h.open = false;
            add(held, h.user, 'balance', -h.amount);
            if (s.op === 'post') add(posted, h.user, 'balance', -h.amount);
          } else {
            if (done.length === 0) continue;
            const d = done[s.pick % done.length];
            const r = await postEntry(database.db, d.cmd);
            expect(r).toMatchObject({ id: d.id, replayed: true });
          }
          for (const u of users) {
            const b = await userBalances(database.db, u);
            for (const w of ['balance', 'rebate'] as const) {
              expect(b[w].posted).toBe(get(posted, u, w));
              expect(b[w].pendingOut).toBe(get(held, u, w));
              expect(b[w].available >= 0n).toBe(true);
            }
          }
        }
        expect(await verifyLedger(database.db)).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });
});
