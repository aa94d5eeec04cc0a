// Operator commands of the wallet area (wired into `npm run ops` by ops/).
import { formatMoney, parseMoney, WALLETS, type Wallet } from '@lq/contracts';
import { flags, OpsError, userIdByMail, type OpsCommandSet } from '../platform/ops';
import { IdempotencyConflictError, InsufficientFundsError, userBalances, verifyLedger } from './ledger';
import { adjustWallet, amountSetting, setTwoPersonAbove, twoPersonAbove, unsourcedAdjustment } from './service';
import { SETTING_KEYS } from '@lq/db';

export const WALLET_OPS: OpsCommandSet = {
  usage: `  wallet:adjust <email> <amount> --wallet <balance|rebate> --reason <text> --key <key>
                                              credit (or, negative, debit) a wallet; the key makes a retry safe
  wallet:two-person [<amount>]                show, or set, the amount above which an adjustment or a withdrawal approval needs a second operator (console)
  ledger:verify                               recompute every balance from the ledger lines; exit 1 naming each difference`,
  commands: {
    'wallet:adjust': {
      args: -1,
      async run(db, args, out, _config, audit) {
        const { positional, values } = flags(args, ['wallet', 'reason', 'key']);
        const [email, amountText] = positional;
        if (positional.length !== 2 || !email || !amountText) throw new OpsError('wallet:adjust <email> <amount> --wallet <balance|rebate> --reason <text> --key <key>', 2);
        const amount = parseMoney(amountText);
        if (amount === undefined || amount === 0n) throw new OpsError(`amount must be a non-zero number with at most 6 decimals (got "${amountText}")`, 2);
        const wallet = values.wallet as Wallet | undefined;
        if (!wallet || !(WALLETS as readonly string[]).includes(wallet)) throw new OpsError('--wallet must be balance or rebate', 2);
        const reason = values.reason?.trim();
        if (!reason) throw new OpsError('--reason is required: it is recorded with the movement and shown in the records', 2);
        const key = values.key?.trim();
        if (!key) throw new OpsError('--key is required (any text unique to this adjustment): typing the command twice then moves the money once', 2);
        const userId = await userIdByMail(db, email);
        audit?.object('user', userId);
        // The shell has no second factor and no second person: big money goes through the console.
        const limit = await twoPersonAbove(db.db);
        if ((amount < 0n ? -amount : amount) > limit) {
          throw new OpsError(`above ${formatMoney(limit)} an adjustment needs two operators: ask for it in the console (Users → Adjust wallet), where another operator approves it`);
        }
        const earlier = await unsourcedAdjustment(db.db, key);
        if (earlier !== null) throw new OpsError(`key ${key} was used before (entry ${earlier}): if that adjustment is the one you mean, it is done; else choose another key`);
        try {
          // The movement and its audit row in one transaction (issue 53 item 10): both or neither.
          const { entry, after } = await db.db.transaction(async (tx) => {
            const before = (await userBalances(tx, userId))[wallet];
            const entry = await adjustWallet(tx, { userId, wallet, amount, reason, source: 'shell', key });
            const after = (await userBalances(tx, userId))[wallet];
            audit?.change({ wallet, available: formatMoney(before.available) }, { wallet, available: formatMoney(after.available), entry: entry.id, replayed: entry.replayed });
            await audit?.commitWith(tx);
            return { entry, after };
          });
          const verb = amount > 0n ? 'credited' : 'debited';
          out(
            entry.replayed
              ? `already done: entry ${entry.id} (key ${key}); ${wallet} wallet ${formatMoney(after.available)}`
              : `${verb} ${formatMoney(amount < 0n ? -amount : amount)} ${amount > 0n ? 'to' : 'from'} ${email}'s ${wallet} wallet: entry ${entry.id}; now ${formatMoney(after.available)}`,
          );
        } catch (e) {
          if (e instanceof InsufficientFundsError) throw new OpsError(`the ${wallet} wallet holds ${formatMoney(e.available)}: a debit may not take it below zero`);
          if (e instanceof IdempotencyConflictError) throw new OpsError(`key ${key} was already used for another adjustment`);
          throw e;
        }
      },
    },
    'wallet:two-person': {
      args: -1,
      async run(db, args, out, _config, audit) {
        if (args.length > 1) throw new OpsError('wallet:two-person [<amount>]', 2);
        const before = await twoPersonAbove(db.db);
        if (args.length === 1) {
          const amount = parseMoney(args[0]);
          if (amount === undefined || amount < 0n) throw new OpsError(`the amount is ≥ 0 with at most 6 decimals (got "${args[0]}")`, 2);
          // Never below the withdrawals' automatic approval (withdrawals/service.ts autoApproveBelow, read
          // here by its key: the wallet does not depend on withdrawals), whose withdrawals nobody reviews.
          const autoBelow = await amountSetting(db.db, SETTING_KEYS.withdrawAutoApproveBelow, 0n);
          if (amount < autoBelow) throw new OpsError(`the amount may not be below the withdrawals' automatic approval (${formatMoney(autoBelow)}): lower that first (withdraw:limit)`, 2);
          await setTwoPersonAbove(db.db, amount);
          audit?.object('settings', 'money').change({ twoPersonAbove: formatMoney(before) }, { twoPersonAbove: formatMoney(amount) });
        }
        const now = await twoPersonAbove(db.db);
        out(`adjustments and withdrawal approvals above ${formatMoney(now)} need a second operator (in the console)`);
      },
    },
    'ledger:verify': {
      args: 0,
      async run(db, _args, out) {
        const problems = await verifyLedger(db.db);
        if (problems.length > 0) {
          for (const p of problems) out(p);
          throw new OpsError(`${problems.length} difference(s) in the ledger`);
        }
        const [counts] = await db.exec<{ entries: string; accounts: string }>(
          'select (select count(*) from ledger_entries)::text as entries, (select count(*) from ledger_accounts)::text as accounts',
        );
        out(`ledger clean: ${counts.entries} entries, ${counts.accounts} accounts; every entry sums to zero and every balance equals its lines`);
      },
    },
  },
};
