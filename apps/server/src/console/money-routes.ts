// The console's money routes (issue 32, slice 3): withdrawals reviewed (approve, reject with the
// reason the user reads, the payout's transaction when an operator paid by hand), deposits, the
// amounts that decide who reviews what, and the approvals a second operator gives. Registered in the
// console's scope, behind its guard; every action writes its audit row, refusals included.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AppError,
  consoleApprovalDecision,
  consoleApprovalIdBody,
  consoleApprovalList,
  consoleApprovalRejectBody,
  consoleApprovalsQuery,
  consoleDepositList,
  consoleDepositsQuery,
  consoleMoneySettings,
  consoleMoneySettingsBody,
  consoleWithdrawalList,
  consoleWithdrawalsQuery,
  consoleWithdrawApproved,
  consoleWithdrawIdBody,
  consoleWithdrawPaid,
  consoleWithdrawPaidBody,
  consoleWithdrawRejectBody,
  envelopeOf,
  formatMoney,
  type WithdrawState,
} from '@lq/contracts';
import { rowsOf, sql } from '@lq/db';
import type { PlatformDeps } from '../platform/deps';
import { bearerAuth, errorResponses, ok } from '../platform/http';
import { approveWithdrawal, payoutChainsOf, recordManualPayout, rejectWithdrawal } from '../withdrawals';
import { InsufficientFundsError, soloDailyLimit, twoPersonAbove } from '../wallet';
import { approvalsOf, cancelWithdrawApprovals, decideApproval, lockOperatorMoves, recordSoloMove, requestWithdrawApproval, soloMoveAllowed, withdrawApprovalPending } from './approvals';
import { depositsForConsole, moneySettingsOf, withdrawalsForConsole } from './money';
import { askSettingsChange } from './settings-routes';
import type { ConsoleAudit } from './routes';

const tags = ['console'];

export function moneyRoutes(app: FastifyInstance, deps: PlatformDeps, audit: ConsoleAudit): void {
  const decisionContext = { rebatePayoutMaxBp: deps.config.REBATE_PAYOUT_MAX_BP };
  const r = app.withTypeProvider<ZodTypeProvider>();
  const chains = payoutChainsOf(deps.config);
  const confirmations = { BEP20: deps.config.BSC_CONFIRMATIONS, TRC20: deps.config.TRON_CONFIRMATIONS };

  /** Runs an action; a refusal is recorded too (who tried what), then answered. */
  async function audited<T>(req: FastifyRequest, action: string, object: { objectType: string; objectId: number }, detail: unknown, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      if (e instanceof AppError) await audit(req, action, { ...object, detail: { ...(detail as object), error: e.errorName }, outcome: 'refused' });
      throw e;
    }
  }

  const withdrawalState = async (id: number) => {
    const [w] = rowsOf<{ status: WithdrawState; amount: string; user_id: string }>(await deps.db.execute(sql`select status, amount::text as amount, user_id::text as user_id from withdrawals where id = ${id}`));
    if (!w) throw new AppError('NOT_FOUND', {}, 'id');
    return { state: w.status, amount: BigInt(w.amount), userId: Number(w.user_id) };
  };

  r.get(
    '/withdrawals',
    {
      schema: { tags, summary: 'Withdrawals by state (open: waiting for review or being paid), searched, sorted and paged, with each user’s limits and the approval waiting for a second operator', security: bearerAuth, querystring: consoleWithdrawalsQuery, response: { 200: envelopeOf(consoleWithdrawalList), ...errorResponses } },
    },
    async (req) => ok(req, await withdrawalsForConsole(deps.db, req.query)),
  );

  r.post(
    '/withdrawals/approve',
    {
      schema: { tags, summary: 'Lets a withdrawal waiting for review through to its payout; above the two-person amount the first operator’s approval waits for a second one', security: bearerAuth, body: consoleWithdrawIdBody, response: { 200: envelopeOf(consoleWithdrawApproved), ...errorResponses } },
    },
    async (req) => {
      const { id } = req.body;
      const object = { objectType: 'withdrawal', objectId: id };
      return audited(req, 'withdrawals.approve', object, {}, async () => {
        const w = await withdrawalState(id);
        if (w.state !== 'pendingReview') throw new AppError('WITHDRAW_STATE', { state: w.state }, 'id');
        const me = req.operator!.operatorId;
        const two = await twoPersonAbove(deps.db);
        const limits = { twoPersonAbove: two, soloDailyLimit: await soloDailyLimit(deps.db), timeZone: deps.config.PLATFORM_TIMEZONE };
        // Let through alone, counted among what this operator moved alone and audited, in one
        // transaction; null when it would take their sums past what one person may move (issue 53
        // item 1), or another operator asked for this one's approval first.
        const alone =
          w.amount > two || (await withdrawApprovalPending(deps.db, id))
            ? null
            : await deps.db.transaction(async (tx) => {
                await lockOperatorMoves(tx, me);
                if (!(await soloMoveAllowed(tx, { operatorId: me, userId: w.userId, amount: w.amount }, limits))) return null;
                const done = await approveWithdrawal(tx, id, req.operator!.mail);
                await recordSoloMove(tx, { operatorId: me, userId: w.userId, amount: w.amount, kind: 'withdraw.approve', key: `withdraw:${id}` });
                await audit(req, 'withdrawals.approve', { ...object, before: { status: 'pendingReview' }, after: { status: done.state }, db: tx });
                return done;
              });
        if (alone) return ok(req, { id, state: alone.state, approvalId: null });
        const approval = await requestWithdrawApproval(deps.db, me, { id, amount: w.amount }, `withdrawal ${id}: ${formatMoney(w.amount)}`);
        if (approval.requestedBy === me) {
          const waitsFor = w.amount > two ? ('twoPersonAmount' as const) : ('soloSums' as const);
          await audit(req, 'withdrawals.approve', { ...object, before: { status: 'pendingReview' }, after: { status: 'pendingReview', approval: approval.id, waiting: 'second operator', waitsFor } });
          return ok(req, { id, state: 'pendingReview' as const, approvalId: approval.id, waitsFor });
        }
        // Another operator asked first: this is the second approval.
        // Its audit row commits with the approval, or neither does.
        const decided = await decideApproval(deps.db, approval.id, req.operator!, { approve: true }, {
          ...decisionContext,
          audit: (tx, d) => audit(req, 'withdrawals.approve', { ...object, before: { status: 'pendingReview' }, after: { status: d.withdrawalGone ?? 'processing', approval: approval.id }, db: tx }),
        });
        if (decided.withdrawalGone) throw new AppError('WITHDRAW_STATE', { state: decided.withdrawalGone }, 'id');
        return ok(req, { id, state: 'processing' as const, approvalId: null });
      });
    },
  );

  r.post(
    '/withdrawals/reject',
    {
      schema: { tags, summary: 'Refuses a withdrawal not sent yet: the hold goes back to the user’s balance wallet, who reads the reason', security: bearerAuth, body: consoleWithdrawRejectBody, response: { 200: envelopeOf(consoleWithdrawApproved), ...errorResponses } },
    },
    async (req) => {
      const { id, reason } = req.body;
      const object = { objectType: 'withdrawal', objectId: id };
      return audited(req, 'withdrawals.reject', object, { reason }, async () => {
        const before = await withdrawalState(id);
        // The hold released, approvals waiting cancelled and the audit row: one transaction.
        const done = await deps.db.transaction(async (tx) => {
          const rejected = await rejectWithdrawal(tx, id, reason, req.operator!.mail);
          await cancelWithdrawApprovals(tx, id, req.operator!.operatorId, 'withdrawal rejected');
          await audit(req, 'withdrawals.reject', { ...object, before: { status: before.state }, after: { status: rejected.state, reason }, detail: { reason }, db: tx });
          return rejected;
        });
        return ok(req, { id, state: done.state, approvalId: null });
      });
    },
  );

  r.post(
    '/withdrawals/paid',
    {
      schema: { tags, summary: 'Records the transaction of a withdrawal an operator paid by hand: checked on chain (that amount to that address); completed at its confirmations', security: bearerAuth, body: consoleWithdrawPaidBody, response: { 200: envelopeOf(consoleWithdrawPaid), ...errorResponses } },
    },
    async (req) => {
      const { id, txHash } = req.body;
      const object = { objectType: 'withdrawal', objectId: id };
      return audited(req, 'withdrawals.paid', object, { txHash }, async () => {
        const before = await withdrawalState(id);
        // The audit row commits with the hash kept (and the withdrawal completed), or neither does.
        const done = await recordManualPayout(deps.db, chains, id, txHash, (tx, r) =>
          audit(req, 'withdrawals.paid', { ...object, before: { status: before.state }, after: { status: r.state, txHash }, detail: { check: r.detail }, db: tx }),
        );
        return ok(req, { id, state: done.state, detail: done.detail });
      });
    },
  );

  r.get(
    '/deposits',
    {
      schema: { tags, summary: 'Chain deposits: pending with their confirmations, waiting below the minimum, credited, dropped by a reorganisation; searched, sorted and paged', security: bearerAuth, querystring: consoleDepositsQuery, response: { 200: envelopeOf(consoleDepositList), ...errorResponses } },
    },
    async (req) => ok(req, await depositsForConsole(deps.db, confirmations, req.query)),
  );

  r.get(
    '/settings/money',
    {
      schema: { tags, summary: 'The amounts that decide who reviews what: automatic approval below, a second operator above, each level’s withdrawal limits', security: bearerAuth, response: { 200: envelopeOf(consoleMoneySettings), ...errorResponses } },
    },
    async (req) => ok(req, await moneySettingsOf(deps.db, req.operator!.operatorId)),
  );

  r.post(
    '/settings/money',
    {
      schema: { tags, summary: 'Asks to set those amounts, all at once, with the reason; they take effect when another operator approves (pending until then)', security: bearerAuth, body: consoleMoneySettingsBody, response: { 200: envelopeOf(consoleMoneySettings), ...errorResponses } },
    },
    async (req) => {
      await askSettingsChange(deps, audit, req, { group: 'money', body: req.body }, req.body.reason);
      return ok(req, await moneySettingsOf(deps.db, req.operator!.operatorId));
    },
  );

  r.get(
    '/approvals',
    {
      schema: { tags, summary: 'Big adjustments and withdrawals waiting for a second operator (or decided), newest first', security: bearerAuth, querystring: consoleApprovalsQuery, response: { 200: envelopeOf(consoleApprovalList), ...errorResponses } },
    },
    async (req) => ok(req, await approvalsOf(deps.db, req.operator!.operatorId, req.query)),
  );

  r.post(
    '/approvals/approve',
    {
      schema: { tags, summary: 'The second operator’s approval: the adjustment is posted, the withdrawal goes to its payout or the settings change takes effect; never the asking operator’s own', security: bearerAuth, body: consoleApprovalIdBody, response: { 200: envelopeOf(consoleApprovalDecision), ...errorResponses } },
    },
    async (req) => {
      const { id } = req.body;
      return audited(req, 'approvals.approve', { objectType: 'approval', objectId: id }, {}, async () => {
        try {
          // The audit row commits with what the approval did, or neither does.
          const d = await decideApproval(deps.db, id, req.operator!, { approve: true }, {
            ...decisionContext,
            audit: (tx, d) => audit(req, 'approvals.approve', { objectType: 'approval', objectId: id, before: { status: 'pending' }, after: { status: d.status, ...d.result }, detail: { kind: d.kind, object: d.objectId }, db: tx }),
          });
          if (d.withdrawalGone) throw new AppError('WITHDRAW_STATE', { state: d.withdrawalGone }, 'id');
          if (d.settingsChanged) throw new AppError('SETTINGS_CHANGED_SINCE', { id }, 'id');
          if (d.levelChanged) throw new AppError('LEVEL_CHANGED_SINCE', { id }, 'id');
          return ok(req, { id, status: d.status, result: d.result });
        } catch (e) {
          if (e instanceof InsufficientFundsError) throw new AppError('INSUFFICIENT_BALANCE', { available: formatMoney(e.available), needed: formatMoney(e.needed) }, 'id');
          throw e;
        }
      });
    },
  );

  r.post(
    '/approvals/reject',
    {
      schema: { tags, summary: 'Turns down an approval waiting (the asking operator may withdraw their own), with the reason', security: bearerAuth, body: consoleApprovalRejectBody, response: { 200: envelopeOf(consoleApprovalDecision), ...errorResponses } },
    },
    async (req) => {
      const { id, reason } = req.body;
      return audited(req, 'approvals.reject', { objectType: 'approval', objectId: id }, { reason }, async () => {
        const d = await decideApproval(deps.db, id, req.operator!, { approve: false, note: reason }, {
          ...decisionContext,
          audit: (tx, d) => audit(req, 'approvals.reject', { objectType: 'approval', objectId: id, before: { status: 'pending' }, after: { status: d.status }, detail: { reason, kind: d.kind, object: d.objectId }, db: tx }),
        });
        return ok(req, { id, status: d.status, result: d.result });
      });
    },
  );
}
