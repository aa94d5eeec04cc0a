// Two people for big money (business.md): a wallet adjustment or a withdrawal approval above the
// operator-set amount is recorded here by the first operator and takes effect only when a second
// operator approves it. The decision locks the approval's row, so two operators deciding at once
// decide once; the database refuses an approval decided by the operator who asked (a check
// constraint), and the adjustment's ledger key is the approval's id, so a retried approval after a
// crash moves the money once.
import { AppError, formatMoney, parseMoney, type ApprovalState, type ConsoleApprovalItem, type ConsoleApprovalList, type UserLevel, type Wallet, type WithdrawState } from '@lq/contracts';
import { randomUUID } from 'node:crypto';
import { rowsOf, sql, type Database, type SQL } from '@lq/db';
import { setUserLevel } from '../users';
import { approveWithdrawal } from '../withdrawals';
import { adjustWallet } from '../wallet';
import { applySettingsChange, changesOf, type SettingsRequest } from './setting-changes';

type Kind = ConsoleApprovalItem['kind'];
/** What the first operator asked for, by kind: an adjustment's wallet and signed amount, a settings group's values, a level grant's levels. */
type ApprovalRequest = { wallet?: Wallet; amount?: string; from?: UserLevel; to?: UserLevel } & Partial<SettingsRequest>;

interface ApprovalRow {
  id: string;
  kind: Kind;
  object_id: string | null;
  amount: string;
  request: ApprovalRequest;
  reason: string;
  requested_by: string;
  request_key: string;
  status: ApprovalState;
}

const APPROVAL_COLUMNS = sql.raw('id::text as id, kind, object_id::text as object_id, amount::text as amount, request, reason, requested_by::text as requested_by, request_key, status');

/** A user's wallet adjustment waiting for a second operator: `amount` is signed (+ credit, − debit). */
export interface AdjustRequest {
  userId: number;
  wallet: Wallet;
  amount: bigint;
  reason: string;
  /** The first operator's idempotency key. */
  key: string;
}

/**
 * Records an adjustment for a second operator. The same operator's key again answers the same
 * approval; the key with another adjustment is refused (Stripe's rule, as for direct adjustments).
 */
export async function requestAdjustApproval(db: Database, operatorId: number, a: AdjustRequest): Promise<number> {
  const [user] = rowsOf<{ id: string }>(await db.execute(sql`select id::text as id from users where id = ${a.userId}`));
  if (!user) throw new AppError('NOT_FOUND', {}, 'userId');
  const request = { wallet: a.wallet, amount: formatMoney(a.amount) };
  const abs = a.amount < 0n ? -a.amount : a.amount;
  const [inserted] = rowsOf<{ id: string }>(
    await db.execute(sql`insert into operator_approvals (kind, object_id, amount, request, reason, requested_by, request_key)
        values ('wallet.adjust', ${a.userId}, ${abs.toString()}::bigint, ${JSON.stringify(request)}::jsonb, ${a.reason}, ${operatorId}, ${a.key})
        on conflict (requested_by, request_key) do nothing returning id::text as id`),
  );
  if (inserted) return Number(inserted.id);
  const [existing] = rowsOf<ApprovalRow>(await db.execute(sql`select ${APPROVAL_COLUMNS} from operator_approvals where requested_by = ${operatorId} and request_key = ${a.key}`));
  const same = existing.kind === 'wallet.adjust' && Number(existing.object_id) === a.userId && existing.request.wallet === a.wallet && existing.request.amount === request.amount && existing.reason === a.reason;
  if (!same) throw new AppError('IDEMPOTENCY_KEY_REUSED', {}, 'idempotencyKey');
  return Number(existing.id);
}

/** Whether this operator asked for an adjustment's approval under `key` before. */
export async function adjustApprovalAsked(db: Pick<Database, 'execute'>, operatorId: number, key: string): Promise<boolean> {
  return rowsOf(await db.execute(sql`select 1 from operator_approvals where requested_by = ${operatorId} and request_key = ${key}`)).length > 0;
}

/** Whether a withdrawal's approval waits for a second operator. */
export async function withdrawApprovalPending(db: Pick<Database, 'execute'>, withdrawalId: number): Promise<boolean> {
  return rowsOf(await db.execute(sql`select 1 from operator_approvals where kind = 'withdraw.approve' and object_id = ${withdrawalId} and status = 'pending'`)).length > 0;
}

/**
 * The first operator's approval of a big withdrawal: one pending approval per withdrawal (a unique
 * index). Answers the pending one and who asked for it — when that is another operator, their
 * approval is this operator's to decide.
 */
export async function requestWithdrawApproval(db: Database, operatorId: number, withdrawal: { id: number; amount: bigint }, reason: string): Promise<{ id: number; requestedBy: number }> {
  const [inserted] = rowsOf<{ id: string }>(
    await db.execute(sql`insert into operator_approvals (kind, object_id, amount, request, reason, requested_by, request_key)
        values ('withdraw.approve', ${withdrawal.id}, ${withdrawal.amount.toString()}::bigint, '{}'::jsonb, ${reason}, ${operatorId}, ${`withdraw:${withdrawal.id}`})
        on conflict do nothing returning id::text as id`),
  );
  if (inserted) return { id: Number(inserted.id), requestedBy: operatorId };
  const [pending] = rowsOf<{ id: string; requested_by: string }>(
    await db.execute(sql`select id::text as id, requested_by::text as requested_by from operator_approvals
      where kind = 'withdraw.approve' and object_id = ${withdrawal.id} and status = 'pending'`),
  );
  // The same operator asked before and it was decided since (rejected, cancelled): a new request needs a new key.
  if (!pending) {
    const [again] = rowsOf<{ id: string }>(
      await db.execute(sql`insert into operator_approvals (kind, object_id, amount, request, reason, requested_by, request_key)
          values ('withdraw.approve', ${withdrawal.id}, ${withdrawal.amount.toString()}::bigint, '{}'::jsonb, ${reason}, ${operatorId}, ${`withdraw:${withdrawal.id}:${Date.now()}`})
          returning id::text as id`),
    );
    return { id: Number(again.id), requestedBy: operatorId };
  }
  return { id: Number(pending.id), requestedBy: Number(pending.requested_by) };
}

/**
 * A grant of VIP2 or above for a second operator (issue 53 item 4), in `tx` (with its audit row).
 * One grant per user waits at a time (a unique index): another is refused, naming the one waiting.
 */
export async function requestLevelGrant(tx: Pick<Database, 'execute'>, operatorId: number, g: { userId: number; from: UserLevel; to: UserLevel; reason: string }): Promise<number> {
  const [inserted] = rowsOf<{ id: string }>(
    await tx.execute(sql`insert into operator_approvals (kind, object_id, amount, request, reason, requested_by, request_key)
        values ('user.level', ${g.userId}, 0, ${JSON.stringify({ from: g.from, to: g.to })}::jsonb, ${g.reason}, ${operatorId}, ${`level:${g.userId}:${randomUUID()}`})
        on conflict do nothing returning id::text as id`),
  );
  if (inserted) return Number(inserted.id);
  const [waiting] = rowsOf<{ id: string; mail: string }>(
    await tx.execute(sql`select a.id::text as id, o.mail from operator_approvals a join operators o on o.id = a.requested_by
      where a.kind = 'user.level' and a.object_id = ${g.userId} and a.status = 'pending'`),
  );
  throw new AppError('LEVEL_GRANT_PENDING', { id: waiting?.id ?? '?', by: waiting?.mail ?? '?' }, 'level');
}

/**
 * Locks the operator's row for the rest of the transaction: two of their moves at once are then
 * checked (a replay, the sums) and written one after the other. First in the movement's transaction.
 */
export async function lockOperatorMoves(tx: Pick<Database, 'execute'>, operatorId: number): Promise<void> {
  await tx.execute(sql`select id from operators where id = ${operatorId} for update`);
}

/**
 * Whether one more move of `amount` for `userId` by this operator alone stays within what one
 * person may move (issue 53 item 1): their moves for that user within 24 hours, this one included,
 * at most the two-person amount, and all of theirs in the platform day at most `soloDailyLimit`.
 * Call it after `lockOperatorMoves`, in the transaction that records the move (`recordSoloMove`).
 */
export async function soloMoveAllowed(
  tx: Pick<Database, 'execute'>,
  move: { operatorId: number; userId: number; amount: bigint },
  limits: { twoPersonAbove: bigint; soloDailyLimit: bigint; timeZone: string },
): Promise<boolean> {
  const [sums] = rowsOf<{ user_day: string; platform_day: string }>(
    await tx.execute(sql`select
        coalesce(sum(amount) filter (where user_id = ${move.userId} and created_at > now() - interval '24 hours'), 0)::text as user_day,
        coalesce(sum(amount) filter (where created_at >= date_trunc('day', now() at time zone ${limits.timeZone}) at time zone ${limits.timeZone}), 0)::text as platform_day
      from operator_solo_moves where operator_id = ${move.operatorId} and created_at > now() - interval '48 hours'`),
  );
  return BigInt(sums.user_day) + move.amount <= limits.twoPersonAbove && BigInt(sums.platform_day) + move.amount <= limits.soloDailyLimit;
}

export type SoloMoveKind = 'wallet.adjust' | 'withdraw.approve';

/** Records a move one operator made alone, in the movement's transaction. */
export async function recordSoloMove(tx: Pick<Database, 'execute'>, move: { operatorId: number; userId: number; amount: bigint; kind: SoloMoveKind; key: string }): Promise<void> {
  await tx.execute(sql`insert into operator_solo_moves (operator_id, user_id, amount, kind, move_key)
      values (${move.operatorId}, ${move.userId}, ${move.amount.toString()}::bigint, ${move.kind}, ${move.key}) on conflict do nothing`);
}

export type Decision = { approve: true } | { approve: false; note: string };

/**
 * What a decision did. The approval was cancelled instead when what it acts on moved meanwhile:
 * `withdrawalGone` (the withdrawal was no longer waiting), `settingsChanged` (the settings are no
 * longer those the change was asked against), `levelChanged` (the user's level is no longer the
 * one the grant was asked from).
 */
export interface DecisionResult {
  id: number;
  kind: Kind;
  objectId: number | null;
  status: ApprovalState;
  result: Record<string, unknown> | null;
  withdrawalGone?: WithdrawState;
  settingsChanged?: true;
  levelChanged?: true;
}

/** What a decision needs besides the approval: the rebate cap a settings change is held to, and the audit row written in its transaction. */
export interface DecisionContext {
  rebatePayoutMaxBp: number;
  audit?: (tx: Database, d: DecisionResult) => Promise<unknown>;
}

/**
 * A second operator's approval (the action takes effect in the same transaction) or anyone's
 * rejection (the asking operator may withdraw their own request).
 */
export async function decideApproval(db: Database, id: number, operator: { operatorId: number; mail: string }, decision: Decision, ctx: DecisionContext): Promise<DecisionResult> {
  const { operatorId } = operator;
  const out = await db.transaction(async (tx): Promise<DecisionResult> => {
    const d = await decideIn(tx);
    await ctx.audit?.(tx, d);
    return d;
  });
  return out;

  async function decideIn(tx: Database): Promise<DecisionResult> {
    const [a] = rowsOf<ApprovalRow>(await tx.execute(sql`select ${APPROVAL_COLUMNS} from operator_approvals where id = ${id} for update`));
    if (!a) throw new AppError('NOT_FOUND', {}, 'id');
    if (a.status !== 'pending') throw new AppError('APPROVAL_DECIDED', { state: a.status }, 'id');
    const base = { id, kind: a.kind, objectId: a.object_id === null ? null : Number(a.object_id) };
    const decide = async (status: ApprovalState, note: string | null, result: Record<string, unknown> | null) => {
      await tx.execute(sql`update operator_approvals set status = ${status}, decided_by = ${operatorId}, decided_at = now(), decision_note = ${note},
          result = ${result === null ? null : JSON.stringify(result)}::jsonb where id = ${id}`);
      return { ...base, status, result };
    };
    if (!decision.approve) return decide('rejected', decision.note, null);
    if (Number(a.requested_by) === operatorId) throw new AppError('APPROVAL_OWN', {}, 'id');
    if (a.kind === 'settings.change') {
      const request = a.request as SettingsRequest;
      const applied = await applySettingsChange(tx, request, { rebatePayoutMaxBp: ctx.rebatePayoutMaxBp, by: `console: ${operator.mail} (approval ${id})` });
      if (applied.changedSince) return { ...(await decide('cancelled', 'settings changed since it was asked', { group: request.group })), settingsChanged: true };
      return decide('approved', null, { group: request.group, before: applied.before, after: applied.after });
    }
    if (a.kind === 'user.level') {
      const userId = base.objectId!;
      const [u] = rowsOf<{ level: UserLevel }>(await tx.execute(sql`select user_level as level from users where id = ${userId} for update`));
      if (u?.level !== a.request.from) return { ...(await decide('cancelled', `level ${u?.level ?? 'gone'} since it was asked`, { level: u?.level ?? null })), levelChanged: true };
      const [asker] = rowsOf<{ mail: string }>(await tx.execute(sql`select mail from operators where id = ${a.requested_by}`));
      await setUserLevel(tx, { id: userId }, a.request.to!, { requestedBy: asker.mail, approvedBy: operator.mail });
      return decide('approved', null, { from: a.request.from, to: a.request.to });
    }
    if (a.kind === 'wallet.adjust') {
      const entry = await adjustWallet(tx, { userId: base.objectId!, wallet: a.request.wallet!, amount: parseMoney(a.request.amount!)!, reason: a.reason, source: 'approval', key: String(id) });
      return decide('approved', null, { entry: entry.id });
    }
    const [w] = rowsOf<{ status: WithdrawState }>(await tx.execute(sql`select status from withdrawals where id = ${base.objectId} for update`));
    if (w?.status !== 'pendingReview') {
      const state = w?.status ?? 'cancelled';
      return { ...(await decide('cancelled', `withdrawal ${state}`, { withdrawal: state })), withdrawalGone: state };
    }
    await approveWithdrawal(tx, base.objectId!, operator.mail);
    return decide('approved', null, { withdrawal: 'processing' });
  }
}

/** Pending approvals of a withdrawal that ended another way (rejected by an operator). */
export async function cancelWithdrawApprovals(db: Pick<Database, 'execute'>, withdrawalId: number, operatorId: number, note: string): Promise<void> {
  await db.execute(sql`update operator_approvals set status = 'cancelled', decided_by = ${operatorId}, decided_at = now(), decision_note = ${note}
      where kind = 'withdraw.approve' and object_id = ${withdrawalId} and status = 'pending'`);
}

interface ListRow {
  id: string;
  kind: Kind;
  amount: string;
  request: ApprovalRequest;
  reason: string;
  status: ApprovalState;
  requested_by: string;
  requested_by_mail: string;
  created_at: string;
  decided_by_mail: string | null;
  decided_at: string | null;
  decision_note: string | null;
  user_id: string | null;
  user_mail: string | null;
  withdrawal_id: string | null;
  network: 'BEP20' | 'TRC20' | null;
  address: string | null;
  withdrawal_state: WithdrawState | null;
}

export async function approvalsOf(db: Pick<Database, 'execute'>, operatorId: number, q: { status: ApprovalState | 'all'; sort: 'id' | '-id'; page: number; size: number }): Promise<ConsoleApprovalList> {
  const where: SQL = q.status === 'all' ? sql`true` : sql`a.status = ${q.status}`;
  const rows = rowsOf<ListRow>(
    await db.execute(sql`select a.id::text as id, a.kind, a.amount::text as amount, a.request, a.reason, a.status, a.requested_by::text as requested_by,
        r.mail as requested_by_mail, a.created_at::text as created_at, d.mail as decided_by_mail, a.decided_at::text as decided_at, a.decision_note,
        u.id::text as user_id, u.mail as user_mail, w.id::text as withdrawal_id, w.network, w.address, w.status as withdrawal_state
      from operator_approvals a
      join operators r on r.id = a.requested_by
      left join operators d on d.id = a.decided_by
      left join withdrawals w on a.kind = 'withdraw.approve' and w.id = a.object_id
      left join users u on u.id = case when a.kind = 'withdraw.approve' then w.user_id else a.object_id end
      where ${where} order by ${q.sort === 'id' ? sql`a.id` : sql`a.id desc`} limit ${q.size} offset ${(q.page - 1) * q.size}`),
  );
  const [{ total }] = rowsOf<{ total: number }>(await db.execute(sql`select count(*)::int as total from operator_approvals a where ${where}`));
  return {
    total,
    list: rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      amount: r.kind === 'settings.change' || r.kind === 'user.level' ? null : formatMoney(BigInt(r.amount)),
      reason: r.reason,
      status: r.status,
      requestedBy: r.requested_by_mail,
      requestedAt: Date.parse(r.created_at),
      mine: Number(r.requested_by) === operatorId,
      decidedBy: r.decided_by_mail,
      decidedAt: r.decided_at === null ? null : Date.parse(r.decided_at),
      decisionNote: r.decision_note,
      user: r.user_id === null ? null : { id: Number(r.user_id), mail: r.user_mail! },
      level: r.kind === 'user.level' ? { from: r.request.from!, to: r.request.to! } : null,
      settings: r.kind === 'settings.change' ? { group: r.request.group!, changes: changesOf(r.request.group!, r.request.before!, r.request.after!) } : null,
      adjust: r.kind === 'wallet.adjust' ? { wallet: r.request.wallet!, direction: r.request.amount?.startsWith('-') ? 'debit' : 'credit' } : null,
      withdrawal: r.withdrawal_id === null ? null : { id: Number(r.withdrawal_id), network: r.network!, address: r.address!, state: r.withdrawal_state! },
    })),
  };
}
