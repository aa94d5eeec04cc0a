// The user's sessions (issue 52 item 6): listed, ended one by one or all but this one. Ending
// another session needs the step-up (a thief with one token must not sign the owner out), and
// the owner is told by a security notice.
import { AppError, type SessionInfo } from '@lq/contracts';
import type { AuthContext } from '../platform/auth';
import type { PlatformDeps } from '../platform/deps';
import { raiseSecurityNotice } from './security-notices';
import { stepUp } from './service';
import type { StepUpProof } from './two-factor';

export async function listSessions(deps: PlatformDeps, auth: AuthContext): Promise<SessionInfo[]> {
  const rows = await deps.sessions.list(auth.user.id);
  return rows.map((r) => ({
    id: r.id,
    current: r.id === auth.sessionId,
    createdAt: r.createdAt.toISOString(),
    lastSeenAt: r.lastSeenAt.toISOString(),
    ip: r.ip,
    userAgent: r.userAgent,
  }));
}

/** Ends session `id` of the user: the current one is a sign-out; another needs the step-up. */
export async function endSession(deps: PlatformDeps, auth: AuthContext, body: { id: number } & StepUpProof): Promise<void> {
  if (body.id === auth.sessionId) {
    await deps.sessions.revoke(auth.tokenHash);
    return;
  }
  // Ownership and liveness are checked by the revoking UPDATE; a refusal rolls the code's use back.
  const useProof = await stepUp(deps, auth.user, body, 'SECURITY');
  await deps.db.transaction(async (tx) => {
    await useProof(tx);
    if (!(await deps.sessions.revokeById(auth.user.id, body.id, tx))) throw new AppError('SESSION_NOT_FOUND', {}, 'id');
    await raiseSecurityNotice(tx, auth.user.id, 'security.sessionsEnded', { count: 1 });
  });
}

/** Ends every session of the user but this one (step-up required); answers how many ended. */
export async function endOtherSessions(deps: PlatformDeps, auth: AuthContext, proof: StepUpProof): Promise<number> {
  const useProof = await stepUp(deps, auth.user, proof, 'SECURITY');
  return deps.db.transaction(async (tx) => {
    await useProof(tx);
    const ended = await deps.sessions.revokeAll(auth.user.id, auth.tokenHash, tx);
    if (ended > 0) await raiseSecurityNotice(tx, auth.user.id, 'security.sessionsEnded', { count: ended });
    return ended;
  });
}
