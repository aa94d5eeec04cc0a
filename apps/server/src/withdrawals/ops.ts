// Operator commands of the withdrawals area (wired into `npm run ops` by ops/): the review queue,
// approve / reject, and the limit below which no review is needed.
import { AppError, errorMessageKey, formatMoney, parseMoney, translate, USER_LEVELS, WITHDRAW_STATES, type UserLevel, type WithdrawState } from '@lq/contracts';
import { flags, OpsError, printTable, type OpsCommandSet } from '../platform/ops';
import { twoPersonAbove } from '../wallet';
import { payoutChainsOf } from './chains';
import { recordManualPayout } from './payout';
import { approveWithdrawal, autoApproveBelow, rejectWithdrawal, setAutoApproveBelow, setWithdrawLimit, withdrawalsForReview, withdrawLimitsByLevel } from './service';

/** Service refusals in the operator's words (English). */
async function asOps<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof AppError) throw new OpsError(e.errorName === 'NOT_FOUND' ? 'no such withdrawal' : translate('en-US', errorMessageKey(e.errorName), e.params));
    throw e;
  }
}

function idOf(text: string | undefined): number {
  const id = Number(text);
  if (!text || !Number.isSafeInteger(id) || id <= 0) throw new OpsError(`a withdrawal id is a positive whole number (got "${text ?? ''}")`, 2);
  return id;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

export const WITHDRAW_OPS: OpsCommandSet = {
  usage: `  withdraw:list [--state <state|all>]         withdrawals waiting for review and being paid (or of one state), oldest first
  withdraw:approve <id>                       let a withdrawal waiting for review through to its payout
  withdraw:reject <id> --reason <text>        refuse it: the hold is released to the user's balance, who reads the reason
  withdraw:paid <id> <txhash>                 you paid an approved withdrawal yourself: its transaction is checked on chain
                                              (that amount to that address) and the withdrawal completes at its confirmations
  withdraw:limit [<amount>]                   show, or set, the amount below which withdrawals need no review (0: all do)
  withdraw:limits [<level> [--day <amount>] [--month <amount>]]
                                              show, or set, a user level's limits over a rolling 24 hours and 30 days:
                                              a withdrawal past either waits for review, whatever its amount`,
  commands: {
    'withdraw:list': {
      args: -1,
      async run(db, args, out) {
        const { positional, values } = flags(args, ['state']);
        if (positional.length > 0) throw new OpsError('withdraw:list [--state <state|all>]', 2);
        const state = values.state ?? 'open';
        let states: readonly WithdrawState[];
        if (state === 'open') states = ['pendingReview', 'processing'];
        else if (state === 'all') states = WITHDRAW_STATES;
        else if ((WITHDRAW_STATES as readonly string[]).includes(state)) states = [state as WithdrawState];
        else throw new OpsError(`--state is one of ${WITHDRAW_STATES.join(', ')} or all (got "${state}")`, 2);
        const rows = await withdrawalsForReview(db.db, { states, limit: 500 });
        if (rows.length === 0) {
          out(`no withdrawal ${state === 'open' ? 'waiting for review or being paid' : `in ${state}`}`);
          return;
        }
        printTable(
          [
            ['id', 'state', 'user', 'network', 'address', 'amount', 'fee', 'requested', 'review', 'tx', 'on chain'],
            ...rows.map((w) => [String(w.id), w.state, w.mail, w.network, w.address, w.amount, w.fee, iso(w.createdAt), w.reviewedBy ?? '-', w.txHash ?? '-', w.payoutCheck ?? '-']),
          ],
          out,
        );
        if (rows.length === 500) out('(the oldest 500; narrow with --state)');
      },
    },
    'withdraw:approve': {
      args: 1,
      async run(db, [idText], out, _config, audit) {
        audit?.object('withdrawal', idOf(idText)).change({ status: 'reviewing' }, { status: 'processing' });
        // The shell has no second factor and no second person: big money goes through the console.
        const [row] = await db.exec<{ amount: string }>('select amount::text as amount from withdrawals where id = $1', [idOf(idText)]);
        const limit = await twoPersonAbove(db.db);
        if (row && BigInt(row.amount) > limit) {
          throw new OpsError(`above ${formatMoney(limit)} a withdrawal needs two operators: approve it in the console (Withdrawals), where another operator confirms it`);
        }
        // Approved with its audit row in one transaction (issue 53 item 10).
        const w = await asOps(() =>
          db.db.transaction(async (tx) => {
            const done = await approveWithdrawal(tx, idOf(idText));
            await audit?.commitWith(tx);
            return done;
          }),
        );
        out(`withdrawal ${w.id} approved: ${w.amount} USDT to ${w.address} (${w.network}) is now processing`);
      },
    },
    'withdraw:reject': {
      args: -1,
      async run(db, args, out, _config, audit) {
        const { positional, values } = flags(args, ['reason']);
        if (positional.length !== 1) throw new OpsError('withdraw:reject <id> --reason <text>', 2);
        const reason = values.reason?.trim();
        if (!reason) throw new OpsError('--reason is required: the user reads it on the withdrawal', 2);
        audit?.object('withdrawal', idOf(positional[0])).change({ status: 'reviewing' }, { status: 'rejected', reason });
        const w = await asOps(() =>
          db.db.transaction(async (tx) => {
            const done = await rejectWithdrawal(tx, idOf(positional[0]), reason);
            await audit?.commitWith(tx);
            return done;
          }),
        );
        out(`withdrawal ${w.id} rejected: ${w.total} released to the user's balance wallet; reason: ${reason}`);
      },
    },
    'withdraw:paid': {
      args: 2,
      async run(db, [idText, hash], out, config, audit) {
        audit?.object('withdrawal', idOf(idText)).change({ status: 'processing' }, { status: 'completed', txHash: hash });
        const r = await asOps(() => recordManualPayout(db.db, payoutChainsOf(config), idOf(idText), hash, async (tx) => audit?.commitWith(tx)));
        out(
          r.state === 'completed'
            ? `withdrawal ${idText} completed: its transaction is confirmed (${r.detail})`
            : `withdrawal ${idText}: transaction recorded (${r.detail}); it completes at its confirmations (withdraw:list shows the last check)`,
        );
      },
    },
    'withdraw:limit': {
      args: -1,
      async run(db, args, out) {
        if (args.length > 1) throw new OpsError('withdraw:limit [<amount>]', 2);
        if (args.length === 1) {
          const limit = parseMoney(args[0]);
          if (limit === undefined || limit < 0n) throw new OpsError(`the limit is an amount ≥ 0 with at most 6 decimals (got "${args[0]}")`, 2);
          // Withdrawals below it are reviewed by nobody: never more than one operator may let through alone.
          const two = await twoPersonAbove(db.db);
          if (limit > two) throw new OpsError(`the limit may not be above the two-person amount (${formatMoney(two)})`, 2);
          await setAutoApproveBelow(db.db, limit);
        }
        const limit = await autoApproveBelow(db.db);
        out(limit === 0n ? 'every withdrawal waits for review (limit 0)' : `withdrawals below ${formatMoney(limit)} need no review; the rest wait for an operator`);
      },
    },
    'withdraw:limits': {
      args: -1,
      async run(db, args, out) {
        const usage = 'withdraw:limits [<level> [--day <amount>] [--month <amount>]]';
        if (args.length > 0) {
          const level = args[0] as UserLevel;
          if (!USER_LEVELS.includes(level)) throw new OpsError(`the level is one of ${USER_LEVELS.join(', ')} (got "${args[0]}")`, 2);
          const set: { day?: bigint; month?: bigint } = {};
          for (let i = 1; i < args.length; i += 2) {
            const key = args[i] === '--day' ? 'day' : args[i] === '--month' ? 'month' : undefined;
            const amount = args[i + 1] === undefined ? undefined : parseMoney(args[i + 1]);
            if (!key || amount === undefined || amount <= 0n) throw new OpsError(`${usage}: an amount above 0 with at most 6 decimals after --day or --month`, 2);
            set[key] = amount;
          }
          if (set.day === undefined && set.month === undefined) throw new OpsError(usage, 2);
          await setWithdrawLimit(db.db, level, set);
        }
        const limits = await withdrawLimitsByLevel(db.db);
        for (const level of USER_LEVELS) out(`${level.padEnd(5)} 24 hours ${formatMoney(limits[level].day).padStart(18)}   30 days ${formatMoney(limits[level].month).padStart(18)}`);
      },
    },
  },
};
