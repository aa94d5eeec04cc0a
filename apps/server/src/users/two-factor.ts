// Two-step verification of users: TOTP (RFC 6238) with recovery codes, the sign-in's second step,
// and the step-up that actions moving money or keys ask for (docs/api.md, "Two-step verification").
//
// Read as an attacker would:
// - A code is good once: the TOTP time step accepted is written in the same statement that checks
//   it is after the last one (`totp_last_step < step`), so a replayed code — even at once, on
//   another process — loses; a recovery code is marked used by one conditional UPDATE.
// - Guessing is bounded where the write happens: a step-up claims one of TWO_FACTOR_MAX_FAILURES
//   attempts (one UPDATE) before the code is compared, so tries sent at once cannot exceed it; the
//   last wrong one pauses step-up for TWO_FACTOR_LOCK_MINUTES. The sign-in's challenge claims its
//   attempts the same way (5, then it is void) and one of the user's own too (the same budget as
//   step-up, over all challenges and addresses); each wrong code is a failed sign-in of the
//   address from that IP, so new challenges stop at the sign-in lock-out and the address guard.
// - The password step with two-step on records no success: it cannot reset the lock-out count.
import { createHash, randomBytes } from 'node:crypto';
import { verify } from '@node-rs/argon2';
import {
  AppError,
  LOGIN_CHALLENGE_MAX_ATTEMPTS,
  LOGIN_CHALLENGE_TTL_MS,
  SECURITY_LOCK_HOURS,
  TWO_FACTOR_LOCK_MINUTES,
  TWO_FACTOR_MAX_FAILURES,
  type CodeType,
  type TwoFactorChallenge,
  type TwoFactorMethod,
} from '@lq/contracts';
import { loginAttempts, rowsOf, sql, users, type Database, type UserRow } from '@lq/db';
import type { AuthContext, AuthUser } from '../platform/auth';
import type { PlatformDeps } from '../platform/deps';
import { raiseSecurityNotice } from './security-notices';
import { acceptPasskey, acceptStepUpPasskey, passkeyLoginOptions } from './webauthn';
import { asTotpCode, newRecoveryCodes, newTotp, openSecret, recoveryHash, sealSecret, totpStep, USER_TOTP } from '../platform/totp';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

import { untilText } from '../platform/moments';

export { untilText };

/**
 * The security lock's new end, for an UPDATE of users: SECURITY_LOCK_HOURS from now, never
 * shortening a lock that already ends later.
 */
export const SECURITY_LOCK_UNTIL = sql.raw(`greatest(coalesce(withdraw_locked_until, now()), now() + interval '${SECURITY_LOCK_HOURS} hours')`);

export const twoFactorOn = (user: Pick<UserRow, 'totpSecret'>) => user.totpSecret !== null;

// ---------------------------------------------------------------- codes

/**
 * Accepts `code` for the user if it is a TOTP code of a step after the last one accepted (the step
 * is taken in the same statement) or, when `allowRecovery`, an unused recovery code (used up).
 * Null: not accepted. `sealed` is the secret the code must belong to (the pending one at enable).
 */
async function acceptCode(
  deps: PlatformDeps,
  user: { id: number; mail: string },
  sealed: string,
  code: string,
  allowRecovery: boolean,
): Promise<TwoFactorMethod | null> {
  const digits = asTotpCode(code);
  if (digits) {
    const step = totpStep(user.mail, openSecret(deps.config, sealed, USER_TOTP), digits);
    if (step === null) return null;
    const taken = rowsOf(await deps.db.execute(sql`update users set totp_last_step = ${step} where id = ${user.id} and totp_last_step < ${step} returning id`));
    return taken.length === 1 ? 'totp' : null;
  }
  if (!allowRecovery) return null;
  const used = rowsOf(
    await deps.db.execute(sql`update user_recovery_codes set used_at = now()
      where user_id = ${user.id} and code_hash = ${recoveryHash(code)} and used_at is null returning user_id`),
  );
  return used.length === 1 ? 'recovery' : null;
}

interface Claimed {
  failures: number;
  totpSecret: string | null;
  totpPendingSecret: string | null;
  passwordHash: string;
}

/**
 * Claims one step-up attempt (counted as a failure until `proved`), or throws TWO_FACTOR_LOCKED.
 * Attempts left open by a process that died stay counted, which only brings the pause nearer.
 */
async function claimAttempt(db: Database, userId: number): Promise<Claimed> {
  const [row] = rowsOf<{ failures: number; totp_secret: string | null; totp_pending_secret: string | null; password_hash: string }>(
    await db.execute(sql`update users set two_factor_failures = two_factor_failures + 1
      where id = ${userId} and (two_factor_locked_until is null or two_factor_locked_until <= now()) and two_factor_failures < ${TWO_FACTOR_MAX_FAILURES}
      returning two_factor_failures as failures, totp_secret, totp_pending_secret, password_hash`),
  );
  if (row) return { failures: row.failures, totpSecret: row.totp_secret, totpPendingSecret: row.totp_pending_secret, passwordHash: row.password_hash };
  // None left: paused already, or the last ones are being compared right now (pause now).
  const [locked] = rowsOf<{ until: string }>(
    await db.execute(sql`update users set two_factor_failures = 0,
        two_factor_locked_until = case when two_factor_locked_until > now() then two_factor_locked_until else now() + make_interval(mins => ${TWO_FACTOR_LOCK_MINUTES}) end
      where id = ${userId} returning two_factor_locked_until::text as until`),
  );
  throw new AppError('TWO_FACTOR_LOCKED', { until: untilText(new Date(locked?.until ?? Date.now() + TWO_FACTOR_LOCK_MINUTES * 60_000)) });
}

const proved = (db: Database, userId: number) => db.execute(sql`update users set two_factor_failures = 0 where id = ${userId}`);

/** A wrong code after a claim: the claim stays a failure; the last one left pauses step-up. */
async function refused(db: Database, userId: number, claimed: Claimed, field: string): Promise<never> {
  if (claimed.failures >= TWO_FACTOR_MAX_FAILURES) {
    const until = new Date(Date.now() + TWO_FACTOR_LOCK_MINUTES * 60_000);
    await db.execute(sql`update users set two_factor_failures = 0, two_factor_locked_until = ${until.toISOString()}::timestamptz where id = ${userId}`);
    throw new AppError('TWO_FACTOR_LOCKED', { until: untilText(until) }, field);
  }
  throw new AppError(field === 'passkey' ? 'PASSKEY_REFUSED' : 'TWO_FACTOR_CODE_WRONG', { left: TWO_FACTOR_MAX_FAILURES - claimed.failures }, field);
}

// ---------------------------------------------------------------- enrolment

/** A new secret to scan; replaces a setup not finished. Two-step already on: 409. */
export async function setupTwoFactor(deps: PlatformDeps, auth: AuthContext): Promise<{ secret: string; otpauthUrl: string }> {
  const totp = newTotp(auth.user.mail, USER_TOTP);
  const set = rowsOf(
    await deps.db.execute(sql`update users set totp_pending_secret = ${sealSecret(deps.config, totp.base32, USER_TOTP)}
      where id = ${auth.user.id} and totp_secret is null returning id`),
  );
  if (set.length === 0) throw new AppError('TWO_FACTOR_ALREADY_ON');
  return { secret: totp.base32, otpauthUrl: totp.uri };
}

/**
 * Proves the pending secret with a code of it and the login password: two-step is on, ten recovery
 * codes are answered once, and every other session ends. The password because a stolen session
 * alone must not put the thief's app between the owner and their account.
 */
export async function enableTwoFactor(deps: PlatformDeps, auth: AuthContext, code: string, password: string): Promise<{ recoveryCodes: string[] }> {
  const { db } = deps;
  const claimed = await claimAttempt(db, auth.user.id);
  if (claimed.totpSecret) {
    await proved(db, auth.user.id);
    throw new AppError('TWO_FACTOR_ALREADY_ON');
  }
  const pending = claimed.totpPendingSecret;
  if (!pending) {
    await proved(db, auth.user.id);
    throw new AppError('TWO_FACTOR_SETUP_MISSING');
  }
  if (!(await verify(claimed.passwordHash, password).catch(() => false))) {
    if (claimed.failures >= TWO_FACTOR_MAX_FAILURES) await refused(db, auth.user.id, claimed, 'password');
    throw new AppError('OLD_PASSWORD_WRONG', {}, 'password');
  }
  if (!(await acceptCode(deps, auth.user, pending, code, false))) return refused(db, auth.user.id, claimed, 'code');
  const recoveryCodes = newRecoveryCodes();
  await db.transaction(async (tx) => {
    const on = rowsOf(
      // The security lock too: whoever turns it on (a thief with the password, say) withdraws nothing for a day.
      await tx.execute(sql`update users set totp_secret = totp_pending_secret, totp_pending_secret = null, totp_enabled_at = now(), two_factor_failures = 0, withdraw_locked_until = ${SECURITY_LOCK_UNTIL}, updated_at = now()
        where id = ${auth.user.id} and totp_secret is null and totp_pending_secret = ${pending} returning id`),
    );
    if (on.length === 0) throw new AppError('TWO_FACTOR_ALREADY_ON'); // enabled meanwhile by another request
    await tx.execute(sql`delete from user_recovery_codes where user_id = ${auth.user.id}`);
    await tx.execute(sql`insert into user_recovery_codes (user_id, code_hash)
      values ${sql.join(recoveryCodes.map((c) => sql`(${auth.user.id}, ${recoveryHash(c)})`), sql`, `)}`);
    await raiseSecurityNotice(tx, auth.user.id, 'security.twoFactorOn');
    // Sessions opened without the second factor end (this one aside).
    await deps.sessions.revokeAll(auth.user.id, auth.tokenHash, tx);
  });
  deps.sessions.forgetUser(auth.user.id);
  return { recoveryCodes };
}

/** Turns two-step off with a code (TOTP or recovery) and the login password. */
export async function disableTwoFactor(deps: PlatformDeps, auth: AuthContext, code: string, password: string): Promise<void> {
  const { db } = deps;
  const claimed = await claimAttempt(db, auth.user.id);
  if (!claimed.totpSecret) {
    await proved(db, auth.user.id);
    throw new AppError('TWO_FACTOR_NOT_ON');
  }
  // The password first: a right code is not used up by a wrong password. Both count as one attempt.
  if (!(await verify(claimed.passwordHash, password).catch(() => false))) {
    if (claimed.failures >= TWO_FACTOR_MAX_FAILURES) await refused(db, auth.user.id, claimed, 'password');
    throw new AppError('OLD_PASSWORD_WRONG', {}, 'password');
  }
  if (!(await acceptCode(deps, auth.user, claimed.totpSecret, code, true))) return refused(db, auth.user.id, claimed, 'code');
  await db.transaction(async (tx) => {
    await tx.execute(sql`update users set totp_secret = null, totp_pending_secret = null, totp_enabled_at = null, two_factor_failures = 0, withdraw_locked_until = ${SECURITY_LOCK_UNTIL}, updated_at = now() where id = ${auth.user.id}`);
    await tx.execute(sql`delete from user_recovery_codes where user_id = ${auth.user.id}`);
    await tx.execute(sql`delete from user_passkeys where user_id = ${auth.user.id}`);
    await raiseSecurityNotice(tx, auth.user.id, 'security.twoFactorOff');
  });
  deps.sessions.forgetUser(auth.user.id);
}

/**
 * An operator turns two-step off for a user who lost both their app and their recovery codes
 * (`npm run ops -- user:2fa-reset`, after proving who they are out of band): as a disable by the
 * user, the security lock starts and the owner is told, and every session ends. Null: no user.
 */
export async function resetTwoFactorByOperator(db: Database, mail: string): Promise<{ id: number; wasOn: boolean } | null> {
  return db.transaction(async (tx) => {
    const [row] = rowsOf<{ id: string; was_on: boolean }>(
      await tx.execute(sql`update users u set totp_secret = null, totp_pending_secret = null, totp_enabled_at = null, two_factor_failures = 0, two_factor_locked_until = null,
          withdraw_locked_until = ${SECURITY_LOCK_UNTIL}, updated_at = now()
        from (select id, totp_secret is not null as was_on from users where mail = ${mail.trim().toLowerCase()} for update) before
        where u.id = before.id returning u.id::text as id, before.was_on`),
    );
    if (!row) return null;
    const id = Number(row.id);
    await tx.execute(sql`delete from user_recovery_codes where user_id = ${id}`);
    await tx.execute(sql`delete from user_passkeys where user_id = ${id}`);
    await tx.execute(sql`update login_challenges set consumed_at = now() where user_id = ${id} and consumed_at is null`);
    await tx.execute(sql`update sessions set revoked_at = now() where user_id = ${id} and revoked_at is null`);
    await raiseSecurityNotice(tx, id, 'security.twoFactorOff');
    return { id, wasOn: row.was_on };
  });
}

export async function recoveryCodesLeft(db: Database, userId: number): Promise<number> {
  const [r] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from user_recovery_codes where user_id = ${userId} and used_at is null`));
  return r.n;
}

// ---------------------------------------------------------------- the sign-in's second step

/** After a right password with two-step on: a challenge for `login/2fa` instead of a session. */
export async function openLoginChallenge(db: Database, user: UserRow, ip: string, userAgent: string | undefined): Promise<TwoFactorChallenge> {
  const challenge = randomBytes(32).toString('base64url');
  // One open challenge per user: a password thief cannot open many to guess on in parallel.
  await db.execute(sql`update login_challenges set consumed_at = now() where user_id = ${user.id} and consumed_at is null`);
  await db.execute(sql`insert into login_challenges (user_id, challenge_hash, ip, user_agent, expires_at)
    values (${user.id}, ${sha256(challenge)}, ${ip}, ${userAgent?.slice(0, 300) ?? null}, ${new Date(Date.now() + LOGIN_CHALLENGE_TTL_MS).toISOString()}::timestamptz)`);
  const passkeys = rowsOf(await db.execute(sql`select 1 from user_passkeys where user_id = ${user.id} limit 1`)).length > 0;
  return { twoFactorRequired: true, challenge, methods: passkeys ? ['totp', 'recovery', 'passkey'] : ['totp', 'recovery'] };
}

/** login/2fa/passkey: the WebAuthn options of an open challenge. */
export const loginPasskeyOptions = (deps: PlatformDeps, challenge: string) => passkeyLoginOptions(deps, sha256(challenge));

/** What the second step is proved with: a TOTP or recovery code, or a passkey's assertion. */
export interface SecondStepProof {
  code?: string | undefined;
  passkey?: Record<string, unknown> | undefined;
}

/**
 * The second step: a TOTP or recovery code for the challenge gives the user (the caller issues the
 * session in `issue`, inside the transaction that uses the challenge up, so one challenge gives
 * one session however many requests race).
 */
export async function completeLoginChallenge<T>(
  deps: PlatformDeps,
  challenge: string,
  proof: SecondStepProof,
  ip: string,
  issue: (tx: Database, user: UserRow) => Promise<T>,
): Promise<T> {
  const { db } = deps;
  const [claim] = rowsOf<{ id: string; user_id: string; attempts: number }>(
    await db.execute(sql`update login_challenges set attempts = attempts + 1
      where challenge_hash = ${sha256(challenge)} and consumed_at is null and expires_at > now() and attempts < ${LOGIN_CHALLENGE_MAX_ATTEMPTS}
      returning id::text as id, user_id::text as user_id, attempts`),
  );
  if (!claim) throw new AppError('TWO_FACTOR_CHALLENGE_EXPIRED', {}, 'challenge');
  const challengeId = Number(claim.id);
  const [user] = await db.select().from(users).where(sql`${users.id} = ${Number(claim.user_id)}`);
  if (!user || !user.totpSecret) throw new AppError('TWO_FACTOR_CHALLENGE_EXPIRED', {}, 'challenge');
  if (user.frozenAt) throw new AppError('USER_FROZEN');
  // The user's own budget as well, whatever the challenge and the address: new challenges from
  // many IPs share the TWO_FACTOR_MAX_FAILURES wrong codes, then the pause, with the step-up.
  const userClaim = await claimAttempt(db, user.id);
  const how = !userClaim.totpSecret
    ? null
    : proof.passkey
      ? (await acceptPasskey(deps, user.id, challengeId, proof.passkey)) ? ('passkey' as const) : null
      : await acceptCode(deps, user, userClaim.totpSecret, proof.code ?? '', true);
  if (!how) {
    await db.insert(loginAttempts).values({ mail: user.mail, ip, success: false });
    if (claim.attempts >= LOGIN_CHALLENGE_MAX_ATTEMPTS) {
      await db.execute(sql`update login_challenges set consumed_at = now() where id = ${challengeId} and consumed_at is null`);
      if (userClaim.failures < TWO_FACTOR_MAX_FAILURES) throw new AppError('TWO_FACTOR_CHALLENGE_EXPIRED', {}, 'challenge');
    }
    if (userClaim.failures < TWO_FACTOR_MAX_FAILURES)
      throw new AppError(proof.passkey ? 'PASSKEY_REFUSED' : 'TWO_FACTOR_CODE_WRONG', { left: Math.min(LOGIN_CHALLENGE_MAX_ATTEMPTS - claim.attempts, TWO_FACTOR_MAX_FAILURES - userClaim.failures) }, proof.passkey ? 'passkey' : 'code');
    return refused(db, user.id, userClaim, proof.passkey ? 'passkey' : 'code');
  }
  await proved(db, user.id);
  return db.transaction(async (tx) => {
    const used = rowsOf(await tx.execute(sql`update login_challenges set consumed_at = now() where id = ${challengeId} and consumed_at is null returning id`));
    if (used.length === 0) throw new AppError('TWO_FACTOR_CHALLENGE_EXPIRED', {}, 'challenge');
    await tx.insert(loginAttempts).values({ mail: user.mail, ip, success: true });
    return issue(tx, user);
  });
}

// ---------------------------------------------------------------- step-up

export interface StepUpProof {
  twoFactorCode?: string | undefined;
  /** Two-step on, instead of a code: an assertion of the options from `user/api/2fa/passkey`. */
  passkey?: Record<string, unknown> | undefined;
  code?: string | undefined;
}

/** Checks an e-mail code of a type and answers the function that uses it up. */
export type MailCodeCheck = (mail: string, type: CodeType, code: string) => Promise<(tx?: Database) => Promise<void>>;

/**
 * What an action that moves money or keys asks before it acts. With two-step on: `twoFactorCode`
 * (a TOTP code, used up here, or a recovery code) or `passkey` (its challenge used up here). Without it: the e-mail `code` of `mailCodeType`
 * (none asked when null), checked here and used up by the answered function, which the caller calls
 * once the action is sure to go ahead (so a refusal by an exchange does not cost the user a new mail).
 */
export async function checkStepUp(
  deps: PlatformDeps,
  user: AuthUser,
  proof: StepUpProof,
  mailCodeType: CodeType | null,
  checkMailCode: MailCodeCheck,
): Promise<(tx?: Database) => Promise<void>> {
  const none = () => Promise.resolve();
  // Read from the row, not the session cache: two-step turned on a moment ago counts at once.
  const [fresh] = rowsOf<{ on: boolean }>(await deps.db.execute(sql`select totp_secret is not null as on from users where id = ${user.id}`));
  if (fresh?.on ?? twoFactorOn(user)) {
    const { twoFactorCode, passkey } = proof;
    if (!twoFactorCode && !passkey) throw new AppError('TWO_FACTOR_CODE_REQUIRED', {}, 'twoFactorCode');
    const claimed = await claimAttempt(deps.db, user.id);
    // Turned off meanwhile (another session): nothing to prove with two-step any more.
    if (claimed.totpSecret) {
      const good = twoFactorCode ? await acceptCode(deps, user, claimed.totpSecret, twoFactorCode, true) : await acceptStepUpPasskey(deps, user.id, passkey!);
      if (!good) return refused(deps.db, user.id, claimed, twoFactorCode ? 'twoFactorCode' : 'passkey');
    }
    await proved(deps.db, user.id);
    if (claimed.totpSecret) return none;
  }
  if (!mailCodeType) return none;
  if (!proof.code) throw new AppError('CODE_REQUIRED', {}, 'code');
  return checkMailCode(user.mail, mailCodeType, proof.code);
}
