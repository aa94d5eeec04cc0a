// Operators and their console sessions. An operator is added from the command line (ops.ts) with a
// generated password, a TOTP secret and recovery codes, shown once. Signing in gives a session
// (CONSOLE_SESSION_HOURS) that may do nothing but prove the second factor until it has; a second
// factor keeps it allowed for CONSOLE_SECOND_FACTOR_MINUTES. Five wrong passwords from one address
// lock the operator out from that address for 15 minutes (from elsewhere they still sign in).
// Wrong second-factor codes are claimed before they are compared: the 5th on a session ends it,
// and SECOND_FACTOR_OPERATOR_MAX in a row over all sessions pause the factor for an hour (a
// password thief signing in again and again guesses no faster); `operator:reset` lifts it.
import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { AppError } from '@lq/contracts';
import { rowsOf, sql, type Database } from '@lq/db';
import type { Config } from '../platform/config';
import { newRecoveryCodes, newTotp, openSecret, recoveryHash, sealSecret, totpStep } from '../platform/totp';
import { untilText } from '../platform/moments';

type Runner = Pick<Database, 'execute'>;

const LOCK_AFTER = 5;
const LOCK_MINUTES = 15;
/** Wrong second-factor codes that end a console session. */
export const SECOND_FACTOR_SESSION_MAX = 5;
/** Wrong second-factor codes in a row, over all the operator's sessions, that pause the factor. */
export const SECOND_FACTOR_OPERATOR_MAX = 10;
const SECOND_FACTOR_PAUSE_MINUTES = 60;
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export class OperatorError extends Error {}

export interface NewOperator {
  id: number;
  mail: string;
  password: string;
  totpUri: string;
  totpSecret: string;
  recoveryCodes: string[];
}

/** A random password of 20 characters from an unambiguous alphabet (about 115 bits). */
function newPassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  return Array.from(randomBytes(20), (b) => alphabet[b % alphabet.length]).join('');
}

async function storeRecoveryCodes(db: Runner, operatorId: number): Promise<string[]> {
  const codes = newRecoveryCodes();
  await db.execute(sql`delete from operator_recovery_codes where operator_id = ${operatorId}`);
  for (const c of codes) await db.execute(sql`insert into operator_recovery_codes (operator_id, code_hash) values (${operatorId}, ${recoveryHash(c)})`);
  return codes;
}

export async function addOperator(db: Database, config: Config, mailIn: string): Promise<NewOperator> {
  const mail = mailIn.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(mail)) throw new OperatorError(`not an e-mail address: "${mailIn}"`);
  const password = newPassword();
  const totp = newTotp(mail);
  const passwordHash = await hash(password, { algorithm: 2 });
  const [row] = rowsOf<{ id: string }>(
    await db.execute(sql`insert into operators (mail, password_hash, totp_secret) values (${mail}, ${passwordHash}, ${sealSecret(config, totp.base32)})
      on conflict (mail) do nothing returning id::text as id`),
  );
  if (!row) throw new OperatorError(`${mail} is an operator already (operator:reset gives new credentials)`);
  const recoveryCodes = await storeRecoveryCodes(db, Number(row.id));
  return { id: Number(row.id), mail, password, totpUri: totp.uri, totpSecret: totp.base32, recoveryCodes };
}

/** New password, TOTP secret and recovery codes (a lost phone); every session of the operator ends. */
/**
 * New credentials for an operator (a lost phone), their sessions ended, in one transaction. A
 * disabled operator stays disabled (issue 53 item 11: a reset is no way around operator:disable);
 * `disabled` says so.
 */
export async function resetOperator(db: Database, config: Config, mailIn: string): Promise<NewOperator & { disabled: boolean }> {
  const mail = mailIn.trim().toLowerCase();
  const password = newPassword();
  const totp = newTotp(mail);
  const passwordHash = await hash(password, { algorithm: 2 });
  return db.transaction(async (tx) => {
    const [row] = rowsOf<{ id: string; disabled: boolean }>(
      await tx.execute(sql`update operators set password_hash = ${passwordHash}, totp_secret = ${sealSecret(config, totp.base32)}, totp_last_step = 0,
        second_factor_failures = 0, second_factor_locked_until = null where mail = ${mail} returning id::text as id, disabled_at is not null as disabled`),
    );
    if (!row) throw new OperatorError(`no operator ${mail}`);
    await tx.execute(sql`delete from operator_login_failures where operator_id = ${Number(row.id)}`);
    await tx.execute(sql`update operator_sessions set revoked_at = now() where operator_id = ${Number(row.id)} and revoked_at is null`);
    const recoveryCodes = await storeRecoveryCodes(tx, Number(row.id));
    return { id: Number(row.id), mail, password, totpUri: totp.uri, totpSecret: totp.base32, recoveryCodes, disabled: row.disabled };
  });
}

/** Disables (or enables again) an operator; disabling ends their sessions. */
export async function setOperatorDisabled(db: Database, mailIn: string, disabled: boolean): Promise<number> {
  const mail = mailIn.trim().toLowerCase();
  const [row] = rowsOf<{ id: string }>(
    await db.execute(sql`update operators set disabled_at = ${disabled ? sql`now()` : sql`null`} where mail = ${mail} returning id::text as id`),
  );
  if (!row) throw new OperatorError(`no operator ${mail}`);
  if (disabled) await db.execute(sql`update operator_sessions set revoked_at = now() where operator_id = ${Number(row.id)} and revoked_at is null`);
  return Number(row.id);
}

export async function listOperators(db: Runner) {
  return rowsOf<{ id: string; mail: string; created_at: string; disabled: boolean; last_login: string | null; recovery_left: number }>(
    await db.execute(sql`select o.id::text as id, o.mail, o.created_at::text as created_at, o.disabled_at is not null as disabled,
        (select max(s.created_at)::text from operator_sessions s where s.operator_id = o.id) as last_login,
        (select count(*)::int from operator_recovery_codes r where r.operator_id = o.id and r.used_at is null) as recovery_left
      from operators o order by o.id`),
  );
}

// ---------------------------------------------------------------- sessions

export interface OperatorAuth {
  sessionId: number;
  operatorId: number;
  mail: string;
  expiresAt: Date;
  secondFactorAt: Date | null;
}

/** Checks the password; answers a new session (no second factor yet), or LOGIN_FAILED / LOGIN_LOCKED. */
export async function operatorLogin(db: Runner, config: Config, mailIn: string, password: string, ip: string, userAgent: string | undefined) {
  const mail = mailIn.trim().toLowerCase();
  // Failures from this address in the window, since its last success: the lock is per (operator,
  // address), so a stranger guessing from elsewhere cannot keep the operator out.
  const [op] = rowsOf<{ id: string; password_hash: string; disabled: boolean; failures: number; oldest: string | null }>(
    await db.execute(sql`select o.id::text as id, o.password_hash, o.disabled_at is not null as disabled, count(f.id)::int as failures, min(f.created_at)::text as oldest
      from operators o left join operator_login_failures f on f.operator_id = o.id and f.ip = ${ip} and f.created_at > now() - make_interval(mins => ${LOCK_MINUTES})
      where o.mail = ${mail} group by o.id`),
  );
  if (op && op.failures >= LOCK_AFTER) {
    const minutes = Math.max(1, Math.ceil((new Date(op.oldest!).getTime() + LOCK_MINUTES * 60_000 - Date.now()) / 60_000));
    throw new AppError('LOGIN_LOCKED', { minutes });
  }
  // A hash is checked whoever asks, so an unknown address takes as long as a known one.
  const good = await verify(op?.password_hash ?? (await dummyHash()), password).catch(() => false);
  if (!op || !good || op.disabled) {
    if (op) await db.execute(sql`insert into operator_login_failures (operator_id, ip) values (${Number(op.id)}, ${ip})`);
    throw new AppError('LOGIN_FAILED', {}, 'password');
  }
  await db.execute(sql`delete from operator_login_failures where operator_id = ${Number(op.id)} and ip = ${ip}`);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + config.CONSOLE_SESSION_HOURS * 3_600_000);
  await db.execute(sql`insert into operator_sessions (operator_id, token_hash, expires_at, ip, user_agent)
    values (${Number(op.id)}, ${tokenHash(token)}, ${expiresAt.toISOString()}::timestamptz, ${ip}, ${userAgent?.slice(0, 300) ?? null})`);
  return { operatorId: Number(op.id), mail, token, expiresAt };
}

// A hash of a random password, checked against when the address is unknown.
let dummy: Promise<string> | undefined;
const dummyHash = () => (dummy ??= hash(randomBytes(16).toString('hex'), { algorithm: 2 }));

export async function operatorOfToken(db: Runner, token: string): Promise<OperatorAuth | null> {
  const [row] = rowsOf<{ session_id: string; operator_id: string; mail: string; expires_at: string; second_factor_at: string | null }>(
    await db.execute(sql`select s.id::text as session_id, o.id::text as operator_id, o.mail, s.expires_at::text as expires_at, s.second_factor_at::text as second_factor_at
      from operator_sessions s join operators o on o.id = s.operator_id
      where s.token_hash = ${tokenHash(token)} and s.revoked_at is null and s.expires_at > now() and o.disabled_at is null`),
  );
  if (!row) return null;
  return {
    sessionId: Number(row.session_id),
    operatorId: Number(row.operator_id),
    mail: row.mail,
    expiresAt: new Date(row.expires_at),
    secondFactorAt: row.second_factor_at ? new Date(row.second_factor_at) : null,
  };
}

/** Until when the session's second factor allows console actions, or null. */
export const secondFactorUntil = (auth: Pick<OperatorAuth, 'secondFactorAt' | 'expiresAt'>, config: Config): Date | null =>
  auth.secondFactorAt ? new Date(Math.min(auth.secondFactorAt.getTime() + config.CONSOLE_SECOND_FACTOR_MINUTES * 60_000, auth.expiresAt.getTime())) : null;

/**
 * Proves the second factor: a TOTP code of a step after the last one accepted (taken in the same
 * statement, so a code replayed at once loses), or an unused recovery code (used up). 422
 * SECOND_FACTOR_INVALID otherwise.
 */
export async function proveSecondFactor(db: Runner, config: Config, auth: OperatorAuth, proof: { code?: string; recoveryCode?: string }): Promise<'totp' | 'recovery'> {
  // Claim one try on the session and one of the operator's before comparing, so parallel guesses
  // cannot exceed either budget.
  const [session] = rowsOf<{ failures: number }>(
    await db.execute(sql`update operator_sessions set second_factor_failures = second_factor_failures + 1
      where id = ${auth.sessionId} and revoked_at is null and second_factor_failures < ${SECOND_FACTOR_SESSION_MAX} returning second_factor_failures as failures`),
  );
  if (!session) {
    await endSession(db, auth);
    throw new AppError('CONSOLE_SESSION_ENDED');
  }
  const [op] = rowsOf<{ totp_secret: string; failures: number }>(
    await db.execute(sql`update operators set second_factor_failures = second_factor_failures + 1
      where id = ${auth.operatorId} and (second_factor_locked_until is null or second_factor_locked_until <= now()) and second_factor_failures < ${SECOND_FACTOR_OPERATOR_MAX}
      returning totp_secret, second_factor_failures as failures`),
  );
  if (!op) {
    const [paused] = rowsOf<{ until: string }>(
      await db.execute(sql`update operators set second_factor_failures = 0,
          second_factor_locked_until = case when second_factor_locked_until > now() then second_factor_locked_until else now() + make_interval(mins => ${SECOND_FACTOR_PAUSE_MINUTES}) end
        where id = ${auth.operatorId} returning second_factor_locked_until::text as until`),
    );
    throw new AppError('SECOND_FACTOR_LOCKED', { until: untilText(new Date(paused?.until ?? Date.now() + SECOND_FACTOR_PAUSE_MINUTES * 60_000)) });
  }
  let how: 'totp' | 'recovery' | null = null;
  if (proof.code) {
    const step = totpStep(auth.mail, openSecret(config, op.totp_secret), proof.code);
    if (step !== null) {
      const taken = rowsOf(await db.execute(sql`update operators set totp_last_step = ${step} where id = ${auth.operatorId} and totp_last_step < ${step} returning id`));
      if (taken.length === 1) how = 'totp';
    }
  } else if (proof.recoveryCode) {
    const used = rowsOf(
      await db.execute(sql`update operator_recovery_codes set used_at = now()
        where operator_id = ${auth.operatorId} and code_hash = ${recoveryHash(proof.recoveryCode)} and used_at is null returning operator_id`),
    );
    if (used.length === 1) how = 'recovery';
  }
  if (!how) {
    if (session.failures >= SECOND_FACTOR_SESSION_MAX) {
      await endSession(db, auth);
      throw new AppError('CONSOLE_SESSION_ENDED');
    }
    if (op.failures >= SECOND_FACTOR_OPERATOR_MAX) {
      const until = new Date(Date.now() + SECOND_FACTOR_PAUSE_MINUTES * 60_000);
      await db.execute(sql`update operators set second_factor_failures = 0, second_factor_locked_until = ${until.toISOString()}::timestamptz where id = ${auth.operatorId}`);
      throw new AppError('SECOND_FACTOR_LOCKED', { until: untilText(until) });
    }
    throw new AppError('SECOND_FACTOR_INVALID', { left: SECOND_FACTOR_SESSION_MAX - session.failures }, proof.code ? 'code' : 'recoveryCode');
  }
  await db.execute(sql`update operators set second_factor_failures = 0 where id = ${auth.operatorId}`);
  await db.execute(sql`update operator_sessions set second_factor_at = now(), second_factor_failures = 0 where id = ${auth.sessionId}`);
  auth.secondFactorAt = new Date();
  return how;
}

async function endSession(db: Runner, auth: OperatorAuth): Promise<void> {
  await db.execute(sql`update operator_sessions set revoked_at = now() where id = ${auth.sessionId} and revoked_at is null`);
}

export async function operatorLogout(db: Runner, auth: OperatorAuth): Promise<void> {
  await db.execute(sql`update operator_sessions set revoked_at = now() where id = ${auth.sessionId}`);
}

export async function recoveryCodesLeft(db: Runner, operatorId: number): Promise<number> {
  const [r] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from operator_recovery_codes where operator_id = ${operatorId} and used_at is null`));
  return r.n;
}
