import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { hash, verify, type Options as ArgonOptions } from '@node-rs/argon2';
import { and, desc, eq, gt, isNull, isUniqueViolation, max, queryPrepared, rowsOf, sql } from '@lq/db';
import {
  AppError,
  CODE_LENGTH,
  CODE_DAILY_WRONG_MAX,
  CODE_MAX_ATTEMPTS,
  CODE_TTL_MS,
  DATA_SOURCES,
  isVipLevel,
  LOGIN_GUARD_FAILURES,
  LOGIN_GUARD_MINUTES,
  PAY_LOCK_MINUTES,
  PAY_PWD_MAX_FAILURES,
  REFUSED_COUNTRIES,
  translate,
  type CodeType,
  type Locale,
  type SecurityInfo,
  type UserInfo,
  type UserLevel,
} from '@lq/contracts';
import { loginAttempts, users, verificationCodes, type Database, type UserRow } from '@lq/db';
import type { AuthContext, AuthUser } from '../platform/auth';
import type { PlatformDeps } from '../platform/deps';
import { hashPayPassword, verifyPayPassword } from './pay-password';
import { noticeNewDevice, raiseSecurityNotice } from './security-notices';
import { checkStepUp, completeLoginChallenge, openLoginChallenge, SECURITY_LOCK_UNTIL, twoFactorOn, untilText, type SecondStepProof, type StepUpProof } from './two-factor';

// Algorithm.Argon2id (a const enum, which isolated modules cannot import).
const ARGON: ArgonOptions = { algorithm: 2 };
export const hashSecret = (secret: string) => hash(secret, ARGON);

// Verified against when the user does not exist, so both answers take the same time.
let dummyHash: Promise<string> | undefined;
const getDummyHash = () => (dummyHash ??= hashSecret('not-a-real-password-0'));

// Keyed (HMAC with a key derived from the master key): six digits under a plain hash would fall to
// anyone reading the table or a backup in milliseconds.
const codeDigest = (key: Buffer, mail: string, type: string, code: string) =>
  createHmac('sha256', key).update(`${mail}\n${type}\n${code}`).digest('hex');

const USER_CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const newUserCode = () =>
  Array.from({ length: 8 }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]).join(
    '',
  );

export function toUserInfo(user: AuthUser): UserInfo {
  return {
    userName: user.mail,
    mail: user.mail,
    userCode: user.userCode,
    nickname: user.nickname,
    userLevel: user.userLevel,
    locale: user.locale,
    isVip: isVipLevel(user.userLevel),
    hasPaidPwd: user.payPwdHash !== null,
    twoFactorEnabled: twoFactorOn(user),
    referrerCode: user.referrerCode,
    createdAt: user.createdAt.toISOString(),
  };
}

async function findUserByMail(db: Database, mail: string): Promise<UserRow | undefined> {
  return (await db.select().from(users).where(eq(users.mail, mail)))[0];
}

async function referrerCodeOf(db: Database, user: UserRow): Promise<string | null> {
  if (user.referrerId === null) return null;
  const rows = await db
    .select({ code: users.userCode })
    .from(users)
    .where(eq(users.id, user.referrerId));
  return rows[0]?.code ?? null;
}

// ---------------------------------------------------------------- verification codes

/**
 * Sends a code. The answer is the same whether or not the address has a user: REGISTER for a
 * taken address mails a notice instead of a code, LOGIN_PWD_RESET for an unknown address mails
 * nothing; both still record the send, so the 60 s rule (MAIL_CODE_INTERVAL_SECONDS) applies identically.
 */
export async function sendVerificationCode(
  deps: PlatformDeps,
  mail: string,
  type: CodeType,
  locale: Locale,
): Promise<void> {
  const { db } = deps;
  const outgoing = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'code:' + mail}))`);
    const [last] = await tx
      .select({ createdAt: verificationCodes.createdAt })
      .from(verificationCodes)
      .where(eq(verificationCodes.mail, mail))
      .orderBy(desc(verificationCodes.createdAt))
      .limit(1);
    if (last) {
      const wait = Math.ceil(
        (last.createdAt.getTime() + deps.config.MAIL_CODE_INTERVAL_SECONDS * 1000 - Date.now()) / 1000,
      );
      if (wait > 0) throw new AppError('CODE_SENT_TOO_RECENTLY', { seconds: wait });
    }
    const user = await findUserByMail(tx, mail);
    const issueCode = type === 'REGISTER' ? !user : !!user;
    const code = issueCode
      ? String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0')
      : undefined;
    const expiresAt = new Date(Date.now() + CODE_TTL_MS);
    // A newer code replaces older ones of the same kind.
    await tx
      .update(verificationCodes)
      .set({ consumedAt: new Date() })
      .where(
        and(
          eq(verificationCodes.mail, mail),
          eq(verificationCodes.type, type),
          isNull(verificationCodes.consumedAt),
        ),
      );
    const [row] = await tx
      .insert(verificationCodes)
      .values({
        mail,
        type,
        codeHash: code ? codeDigest(deps.codePepper, mail, type, code) : null,
        expiresAt,
      })
      .returning({ id: verificationCodes.id });
    const mailLocale = (user?.locale as Locale | undefined) ?? locale;
    if (code) {
      return {
        rowId: row.id,
        to: mail,
        secretUntil: expiresAt,
        subject: translate(mailLocale, 'mail.code.subject', { code }),
        text: translate(mailLocale, 'mail.code.body', {
          code,
          minutes: CODE_TTL_MS / 60_000,
          purpose: translate(mailLocale, `mail.purpose.${type}`),
        }),
      };
    }
    if (type === 'REGISTER') {
      return {
        rowId: row.id,
        to: mail,
        subject: translate(mailLocale, 'mail.registered.subject'),
        text: translate(mailLocale, 'mail.registered.body'),
      };
    }
    return undefined;
  });
  if (!outgoing) return;
  const { rowId, ...message } = outgoing;
  try {
    await deps.mailer.send(message);
  } catch (err) {
    // Undelivered: forget the send so the user may retry at once instead of in 60 s.
    await db.delete(verificationCodes).where(eq(verificationCodes.id, rowId));
    throw err;
  }
}

/**
 * Checks a code in its own transaction (so failed attempts count even when the caller fails) and
 * returns its row id; the caller consumes it with `consumeCode` inside its own transaction.
 */
type CodeCheck =
  | { id: number }
  | { error: 'CODE_INVALID' | 'CODE_EXPIRED' | 'CODE_TOO_MANY_ATTEMPTS' }
  | { error: 'CODE_DAILY_LIMIT'; until: Date };

async function checkCode(
  deps: PlatformDeps,
  mail: string,
  type: CodeType,
  code: string,
): Promise<number> {
  const { db } = deps;
  const failure = await db.transaction(async (tx): Promise<CodeCheck> => {
    const [row] = await tx
      .select()
      .from(verificationCodes)
      .where(
        and(
          eq(verificationCodes.mail, mail),
          eq(verificationCodes.type, type),
          isNull(verificationCodes.consumedAt),
        ),
      )
      .orderBy(desc(verificationCodes.createdAt))
      .limit(1)
      .for('update');
    if (!row) return { error: 'CODE_INVALID' as const };
    // Wrong tries of this type to this address in 24 hours, over all its codes: a re-send every
    // minute must not buy 5 more guesses each time. Past the cap even the right code is refused.
    const [day] = rowsOf<{ wrong: number; since: string | Date | null }>(
      await tx.execute(sql`select coalesce(sum(attempts), 0)::int as wrong, min(created_at) filter (where attempts > 0) as since
        from verification_codes where mail = ${mail} and type = ${type} and created_at > now() - interval '24 hours'`),
    );
    if (day && day.wrong >= CODE_DAILY_WRONG_MAX) return { error: 'CODE_DAILY_LIMIT' as const, until: new Date(new Date(day.since ?? Date.now()).getTime() + 86_400_000) };
    if (row.expiresAt.getTime() <= Date.now()) return { error: 'CODE_EXPIRED' as const };
    if (row.attempts >= CODE_MAX_ATTEMPTS) return { error: 'CODE_TOO_MANY_ATTEMPTS' as const };
    const expected = row.codeHash ? Buffer.from(row.codeHash, 'hex') : undefined;
    const given = Buffer.from(codeDigest(deps.codePepper, mail, type, code), 'hex');
    if (expected && timingSafeEqual(expected, given)) return { id: row.id };
    await tx
      .update(verificationCodes)
      .set({ attempts: sql`${verificationCodes.attempts} + 1` })
      .where(eq(verificationCodes.id, row.id));
    return {
      error:
        row.attempts + 1 >= CODE_MAX_ATTEMPTS
          ? ('CODE_TOO_MANY_ATTEMPTS' as const)
          : ('CODE_INVALID' as const),
    };
  });
  if ('error' in failure) throw new AppError(failure.error, 'until' in failure ? { until: untilText(failure.until) } : {}, 'code');
  return failure.id;
}

/** An e-mail code checked now (attempts counted) and used up when the answered function is called. */
export async function checkMailCode(deps: PlatformDeps, mail: string, type: CodeType, code: string) {
  const id = await checkCode(deps, mail, type, code);
  return (tx: Database = deps.db) => consumeCode(tx, id);
}

/**
 * The step-up of an action that moves money or keys (two-factor.ts): a fresh two-step code when
 * two-step is on, else the e-mail code of `mailCodeType` (none when null). Answers the function
 * that uses the proof up.
 */
export const stepUp = (deps: PlatformDeps, user: AuthUser, proof: StepUpProof, mailCodeType: CodeType | null) =>
  checkStepUp(deps, user, proof, mailCodeType, (mail, type, code) => checkMailCode(deps, mail, type, code));

async function consumeCode(tx: Database, id: number) {
  const done = await tx
    .update(verificationCodes)
    .set({ consumedAt: new Date() })
    .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.consumedAt)))
    .returning({ id: verificationCodes.id });
  if (done.length === 0) throw new AppError('CODE_INVALID', {}, 'code'); // used concurrently
}

// ---------------------------------------------------------------- register and login

export interface RegisterInput {
  userMail: string;
  password: string;
  code: string;
  inviteCode?: string | undefined;
  country: string;
}

export async function register(
  deps: PlatformDeps,
  input: RegisterInput,
  locale: Locale,
  ip: string,
  userAgent: string | undefined,
) {
  const { db } = deps;
  if ((REFUSED_COUNTRIES as readonly string[]).includes(input.country))
    throw new AppError('REGISTER_COUNTRY_REFUSED', {}, 'country');
  let referrer: UserRow | undefined;
  const invite = input.inviteCode?.trim().toUpperCase();
  if (invite) {
    referrer = (await db.select().from(users).where(eq(users.userCode, invite)))[0];
    if (!referrer) throw new AppError('INVITE_CODE_NOT_FOUND', {}, 'inviteCode');
  }
  const codeId = await checkCode(deps, input.userMail, 'REGISTER', input.code);
  const passwordHash = await hashSecret(input.password);
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        await consumeCode(tx, codeId);
        const [user] = await tx
          .insert(users)
          .values({
            mail: input.userMail,
            passwordHash,
            userCode: newUserCode(),
            referrerId: referrer?.id ?? null,
            locale,
            country: input.country,
          })
          .onConflictDoNothing({ target: users.mail })
          .returning();
        // Someone registered this address meanwhile: answer as for any wrong code.
        if (!user) throw new AppError('CODE_INVALID', {}, 'code');
        // The referral tree: the referrer and everyone above it become the new user's ancestors.
        // A new user has no team yet, so no cycle can form; the link never changes after this.
        if (referrer) {
          await tx.execute(sql`insert into user_tree (ancestor_id, descendant_id, depth)
            select ${referrer.id}::bigint, ${user.id}::bigint, 1
            union all select ancestor_id, ${user.id}::bigint, depth + 1 from user_tree where descendant_id = ${referrer.id}`);
        }
        const session = await deps.sessions.issue(user.id, ip, userAgent, tx);
        return {
          ...session,
          user: toUserInfo({ ...user, referrerCode: referrer?.userCode ?? null }),
        };
      });
    } catch (err) {
      // A user-code collision (1 in 32^8 per pair) is retried with a fresh code.
      if (attempt < 3 && isUniqueViolation(err, 'users_user_code_key')) continue;
      throw err;
    }
  }
}

export async function login(
  deps: PlatformDeps,
  mail: string,
  password: string,
  ip: string,
  userAgent: string | undefined,
  code?: string,
) {
  const { db, config } = deps;
  const windowStart = new Date(Date.now() - config.LOGIN_LOCK_MINUTES * 60_000);
  // Failures in the window since the last success of this address from this IP (same answer for
  // unknown mails): the owner signing in elsewhere does not reset a stranger's count.
  const [lastOk] = await db
    .select({ at: max(loginAttempts.createdAt) })
    .from(loginAttempts)
    .where(
      and(
        eq(loginAttempts.mail, mail),
        eq(loginAttempts.ip, ip),
        eq(loginAttempts.success, true),
        gt(loginAttempts.createdAt, windowStart),
      ),
    );
  const since = lastOk?.at ?? windowStart;
  // Claimed first: this attempt is a failure row before anything is compared, and the counts below
  // include it and every attempt in flight, so a burst sent at once gets no more tries than the
  // same requests one after another. What turns out not to be a tried password is taken back.
  const [claim] = await db.insert(loginAttempts).values({ mail, ip, success: false }).returning({ id: loginAttempts.id });
  const takeBack = () => db.delete(loginAttempts).where(eq(loginAttempts.id, claim.id));
  // Every count from one snapshot: read apart, a burst's claims inserted between the reads made the
  // address guard count tries that the lock then refused (and took back).
  const after = (from: Date) => sql`${loginAttempts.createdAt} > ${from.toISOString()}::timestamptz`;
  const guardFrom = new Date(Date.now() - LOGIN_GUARD_MINUTES * 60_000);
  const [counts] = await db
    .select({
      byMailAndIp: sql<number>`count(*) filter (where ${loginAttempts.mail} = ${mail} and ${loginAttempts.ip} = ${ip} and ${after(since)})`.mapWith(Number),
      byIp: sql<number>`count(*) filter (where ${loginAttempts.ip} = ${ip} and ${after(windowStart)})`.mapWith(Number),
      byMail: sql<number>`count(*) filter (where ${loginAttempts.mail} = ${mail} and ${after(guardFrom)})`.mapWith(Number),
    })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.success, false), sql`(${loginAttempts.mail} = ${mail} or ${loginAttempts.ip} = ${ip})`));
  // Locked per address AND IP: someone who knows an address cannot lock its owner out from
  // elsewhere. One IP trying many addresses is locked too (10× the budget).
  if (counts.byMailAndIp > config.LOGIN_MAX_FAILURES || counts.byIp > config.LOGIN_MAX_FAILURES * 10) {
    await takeBack();
    throw new AppError('LOGIN_LOCKED', { minutes: config.LOGIN_LOCK_MINUTES });
  }
  // The address guessed at from many IPs (a botnet stays under each IP's lock): the password is no
  // longer enough, a LOGIN code from the owner's mailbox is needed as well, and asked before the
  // password is looked at, for any address: a guesser learns neither whether it has an account nor
  // whether a password was right. Nobody is locked out.
  const guarded = counts.byMail > LOGIN_GUARD_FAILURES + 1;
  let useCode: ((tx?: Database) => Promise<void>) | undefined;
  if (guarded) {
    try {
      if (!code) throw new AppError('LOGIN_CODE_REQUIRED', {}, 'code');
      useCode = await checkMailCode(deps, mail, 'LOGIN', code);
    } catch (err) {
      await takeBack(); // no password was tried
      throw err;
    }
  }
  const user = await findUserByMail(db, mail);
  const good = await verify(user?.passwordHash ?? (await getDummyHash()), password).catch(
    () => false,
  );
  if (!user || !good) {
    // The failure that pauses this address tells the owner (once per lock).
    if (user && counts.byMailAndIp === config.LOGIN_MAX_FAILURES) await mailLoginLocked(deps, user, ip);
    throw new AppError('LOGIN_FAILED');
  }
  // Said only after the right password: a stranger learns nothing about the account.
  if (user.frozenAt) {
    await takeBack();
    throw new AppError('USER_FROZEN');
  }
  // A right password with two-step on is no success yet: it must not reset the lock-out count.
  if (twoFactorOn(user)) {
    await takeBack();
    await useCode?.();
    return openLoginChallenge(db, user, ip, userAgent);
  }
  const session = await db.transaction(async (tx) => {
    await useCode?.(tx);
    await tx.update(loginAttempts).set({ success: true }).where(eq(loginAttempts.id, claim.id));
    await noticeNewDevice(tx, user.id, ip, userAgent);
    return deps.sessions.issue(user.id, ip, userAgent, tx);
  });
  return {
    ...session,
    user: toUserInfo({ ...user, referrerCode: await referrerCodeOf(db, user) }),
  };
}

/** `user/api/security`: read from the row, not the auth cache (a lock set a moment ago shows). */
export async function securityOf(db: Database, userId: number): Promise<SecurityInfo> {
  const [row] = rowsOf<{ on: boolean; locked_until: string | Date | null; phrase: string | null }>(
    await db.execute(sql`select totp_secret is not null as on, case when withdraw_locked_until > now() then withdraw_locked_until end as locked_until, anti_phishing_phrase as phrase from users where id = ${userId}`),
  );
  return { twoFactorEnabled: row?.on === true, withdrawLockedUntil: row?.locked_until ? new Date(row.locked_until).toISOString() : null, antiPhishingPhrase: row?.phrase ?? null };
}

/** Sets (an empty phrase: removes) the anti-phishing phrase, with the SECURITY step-up. */
export async function setAntiPhishingPhrase(deps: PlatformDeps, user: AuthUser, body: { phrase: string } & StepUpProof): Promise<void> {
  const useProof = await stepUp(deps, user, body, 'SECURITY');
  await deps.db.transaction(async (tx) => {
    await useProof(tx);
    await tx.execute(sql`update users set anti_phishing_phrase = ${body.phrase.trim() || null}, updated_at = now() where id = ${user.id}`);
  });
}

/** The sign-in's second step: the challenge `login` answered and a TOTP or recovery code. */
export async function loginSecondStep(deps: PlatformDeps, challenge: string, proof: SecondStepProof, ip: string, userAgent: string | undefined) {
  const { user, session } = await completeLoginChallenge(deps, challenge, proof, ip, async (tx, u) => {
    await noticeNewDevice(tx, u.id, ip, userAgent);
    return { user: u, session: await deps.sessions.issue(u.id, ip, userAgent, tx) };
  });
  return { ...session, user: toUserInfo({ ...user, referrerCode: await referrerCodeOf(deps.db, user) }) };
}

/** Tells the owner that sign-ins from `ip` are paused; a mail that cannot be sent is logged, not fatal. */
async function mailLoginLocked(deps: PlatformDeps, user: UserRow, ip: string): Promise<void> {
  const locale = user.locale as Locale;
  const params = { ip, count: deps.config.LOGIN_MAX_FAILURES, minutes: deps.config.LOGIN_LOCK_MINUTES };
  try {
    await deps.mailer.send({
      to: user.mail,
      subject: translate(locale, 'mail.loginLocked.subject'),
      text: translate(locale, 'mail.loginLocked.body', params),
    });
  } catch {
    // Kept in the outbox with its error by the mailer; the login answer stays the same.
  }
}

// ---------------------------------------------------------------- passwords

export async function resetPassword(
  deps: PlatformDeps,
  mail: string,
  code: string,
  password: string,
) {
  const { db } = deps;
  const codeId = await checkCode(deps, mail, 'LOGIN_PWD_RESET', code);
  const passwordHash = await hashSecret(password);
  await db.transaction(async (tx) => {
    await consumeCode(tx, codeId);
    const [user] = await tx
      .update(users)
      .set({ passwordHash, withdrawLockedUntil: SECURITY_LOCK_UNTIL, updatedAt: new Date() })
      .where(eq(users.mail, mail))
      .returning({ id: users.id });
    if (!user) throw new AppError('CODE_INVALID', {}, 'code');
    await raiseSecurityNotice(tx, user.id, 'security.passwordChanged');
    // A reset means the old password may be known to someone else: end every session.
    await deps.sessions.revokeAll(user.id, undefined, tx);
  });
}

export async function changePassword(
  deps: PlatformDeps,
  auth: AuthContext,
  oldPassword: string,
  password: string,
) {
  const { db } = deps;
  const [row] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, auth.user.id));
  if (!row || !(await verify(row.passwordHash, oldPassword).catch(() => false)))
    throw new AppError('OLD_PASSWORD_WRONG', {}, 'oldPassword');
  const passwordHash = await hashSecret(password);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, withdrawLockedUntil: SECURITY_LOCK_UNTIL, updatedAt: new Date() })
      .where(eq(users.id, auth.user.id));
    await raiseSecurityNotice(tx, auth.user.id, 'security.passwordChanged');
    await deps.sessions.revokeAll(auth.user.id, auth.tokenHash, tx);
  });
}

export async function editPayPassword(
  deps: PlatformDeps,
  auth: AuthContext,
  code: string,
  paidPwd: string,
  proof: Pick<StepUpProof, 'twoFactorCode' | 'passkey'>,
) {
  const { db } = deps;
  // The e-mail code always; with two-step on, a fresh two-step code (or a passkey) as well.
  await stepUp(deps, auth.user, proof, null);
  const codeId = await checkCode(deps, auth.user.mail, 'MAIL_PAID_PWD_RESET', code);
  const payPwdHash = await hashPayPassword(paidPwd, deps.payPepper);
  await db.transaction(async (tx) => {
    await consumeCode(tx, codeId);
    // Its first setting locks nothing and tells nothing; a change (or a reset by mail) does both.
    const [before] = rowsOf<{ had: boolean }>(await tx.execute(sql`select pay_pwd_hash is not null as had from users where id = ${auth.user.id} for no key update`));
    if (before?.had) await raiseSecurityNotice(tx, auth.user.id, 'security.payPasswordChanged');
    await tx
      .update(users)
      .set({ payPwdHash, withdrawLockedUntil: sql`case when pay_pwd_hash is null then withdraw_locked_until else ${SECURITY_LOCK_UNTIL} end`, updatedAt: new Date() })
      .where(eq(users.id, auth.user.id));
  });
  deps.sessions.forgetUser(auth.user.id);
}

/** How long a payment-password check waits for the attempts being compared to end before it answers "too many requests". */
const CLAIM_WAIT_MS = 60_000;


/**
 * Every payment and withdrawal checks the payment password here: it must be set and match.
 * PAY_PWD_MAX_FAILURES wrong ones in a row lock paying for PAY_LOCK_MINUTES (PAY_LOCKED says
 * until when; a right password during the lock is refused too); a right one resets the count.
 *
 * The count and the lock are decided in the database, across requests and processes: a try first
 * claims one of the attempts left (one conditional UPDATE; it counts as a failure until it is proved
 * right), and only then is the slow hash compared. So however many tries arrive at once, at most the
 * attempts left are compared: the others wait for one to end — a right one frees them, the last
 * wrong one locks paying and they are refused. Claims left open for a minute belong to a process
 * that died mid-check: they stay counted as failures, which locks paying.
 */
export async function checkPayPassword(db: Database, userId: number, paidPwd: string, pepper: Buffer): Promise<void> {
  // In this process, no more tries of one user at once than attempts can be claimed: the others
  // wait here in order (the database's claims still decide across processes).
  const release = await payCheckSlot(userId);
  try {
    await checkPayPasswordClaimed(db, userId, paidPwd, pepper);
  } finally {
    release();
  }
}

const payCheckSlots = new Map<number, { running: number; waiting: (() => void)[] }>();
async function payCheckSlot(userId: number): Promise<() => void> {
  let slots = payCheckSlots.get(userId);
  if (!slots) payCheckSlots.set(userId, (slots = { running: 0, waiting: [] }));
  const s = slots;
  if (s.running >= PAY_PWD_MAX_FAILURES) await new Promise<void>((resolve) => s.waiting.push(resolve));
  else s.running++;
  return () => {
    const next = s.waiting.shift();
    if (next) next(); // the slot passes to the next in line
    else if (--s.running === 0) payCheckSlots.delete(userId);
  };
}

// The two statements of every payment (named: parsed and planned once per pool connection).
// Claim: one attempt counted before the password is compared (see below).
const PAY_CLAIM = `update users set pay_pwd_failures = pay_pwd_failures + 1, pay_pwd_claimed_at = now()
  where id = $1 and pay_pwd_hash is not null and (pay_locked_until is null or pay_locked_until <= now()) and pay_pwd_failures < $2
  returning pay_pwd_hash as h, pay_pwd_failures as failures`;
// Right: the count starts again, and an older hash ($2) becomes its peppered form ($3, if any)
// unless the password was changed meanwhile. No row: paying was locked meanwhile.
const PAY_RESET = `update users set pay_pwd_failures = 0, pay_pwd_hash = case when pay_pwd_hash = $2 and $3::text is not null then $3::text else pay_pwd_hash end
  where id = $1 and (pay_locked_until is null or pay_locked_until <= now()) returning id`;

async function checkPayPasswordClaimed(db: Database, userId: number, paidPwd: string, pepper: Buffer): Promise<void> {
  const unlocked = sql`(${users.payLockedUntil} is null or ${users.payLockedUntil} <= now())`;
  const lockFor = sql`now() + make_interval(mins => ${PAY_LOCK_MINUTES})`;
  const locked = async (): Promise<never> => {
    const [row] = await db.select({ lockedUntil: users.payLockedUntil }).from(users).where(eq(users.id, userId));
    throw new AppError('PAY_LOCKED', { until: untilText(row?.lockedUntil ?? new Date(Date.now() + PAY_LOCK_MINUTES * 60_000)) }, 'paidPwd');
  };

  let claimed: { h: string | null; failures: number } | undefined;
  for (const started = Date.now(); ; ) {
    [claimed] = await queryPrepared<{ h: string | null; failures: number }>(db, 'pay_pwd_claim', PAY_CLAIM, [userId, PAY_PWD_MAX_FAILURES]);
    if (claimed) break;
    const [row] = await db.select({ h: users.payPwdHash, lockedUntil: users.payLockedUntil }).from(users).where(eq(users.id, userId));
    if (!row?.h) throw new AppError('PAY_PWD_NOT_SET');
    if (row.lockedUntil && row.lockedUntil.getTime() > Date.now()) return locked();
    // No attempt claimed for a minute while none is left: their process died mid-check. They stay
    // counted as failures, which locks paying.
    const [stale] = await db
      .update(users)
      .set({ payPwdFailures: 0, payLockedUntil: lockFor })
      .where(and(eq(users.id, userId), unlocked, sql`${users.payPwdFailures} >= ${PAY_PWD_MAX_FAILURES}`, sql`${users.payPwdClaimedAt} < now() - interval '1 minute'`))
      .returning({ id: users.id });
    if (stale) return locked();
    if (Date.now() - started >= CLAIM_WAIT_MS) throw new AppError('RATE_LIMITED');
    // Every attempt left is being compared right now: wait for one to end.
    await new Promise((r) => setTimeout(r, 20 + Math.random() * 40));
  }

  const checked = await verifyPayPassword(claimed.h!, paidPwd, pepper);
  if (checked.ok) {
    // Right, unless the other tries' last wrong one locked paying meanwhile. An older hash is
    // replaced by the peppered one (unless the password was changed meanwhile).
    const [reset] = await queryPrepared(db, 'pay_pwd_reset', PAY_RESET, [userId, claimed.h, checked.rehash ?? null]);
    if (!reset) return locked();
    return;
  }
  if (claimed.failures >= PAY_PWD_MAX_FAILURES) {
    await db.update(users).set({ payPwdFailures: 0, payLockedUntil: lockFor }).where(and(eq(users.id, userId), unlocked));
    return locked();
  }
  throw new AppError('PAY_PWD_WRONG', { left: PAY_PWD_MAX_FAILURES - claimed.failures }, 'paidPwd');
}

// ---------------------------------------------------------------- profile

export async function updateProfile(
  deps: PlatformDeps,
  auth: AuthContext,
  patch: Partial<Pick<UserRow, 'nickname' | 'locale' | 'selectedDataSource'>>,
) {
  await deps.db
    .update(users)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(users.id, auth.user.id));
  deps.sessions.forgetUser(auth.user.id);
}

export function dataSourceList(locale: Locale, selected: string | null) {
  return {
    list: DATA_SOURCES.map((s) => ({
      type: s.type,
      isOpen: s.isOpen,
      text: translate(locale, `dataSource.${s.type}`),
      value: s.market,
      icon: s.icon,
    })),
    selected:
      selected && DATA_SOURCES.some((s) => s.type === selected && s.isOpen) ? selected : null,
  };
}

export function checkSelectableDataSource(type: string) {
  const source = DATA_SOURCES.find((s) => s.type === type);
  if (!source) throw new AppError('DATA_SOURCE_UNKNOWN', {}, 'type');
  if (!source.isOpen) throw new AppError('MARKET_NOT_OPEN', {}, 'type');
}

/**
 * Freezes (reason kept) or unfreezes a user; answers the state before, or null for an unknown user.
 * Freezing ends every session of the user (the caller revokes them through Sessions).
 */
export async function setUserFrozen(db: Database, userId: number, frozen: boolean, reason: string) {
  const [row] = rowsOf<{ frozen_at: string | null; frozen_reason: string | null }>(
    await db.execute(sql`with before as (select id, frozen_at, frozen_reason from users where id = ${userId} for update)
      update users u set frozen_at = ${frozen ? sql`coalesce(before.frozen_at, now())` : sql`null`},
        frozen_reason = ${frozen ? reason : null}, updated_at = now()
        from before where u.id = before.id
      returning before.frozen_at::text as frozen_at, before.frozen_reason`),
  );
  return row ? { frozenAt: row.frozen_at ? Date.parse(row.frozen_at) : null, frozenReason: row.frozen_reason } : null;
}

/**
 * An operator's change of a user's level, kept with its time and who set it — and who approved it,
 * for a grant a second operator approved (user_level_changes, reason 'operator'; the operator's own
 * words go to the audit log), as the daily VIP computation keeps its own. Null: no such user.
 */
export async function setUserLevel(db: Database, who: { id: number } | { mail: string }, level: UserLevel, by: { requestedBy: string; approvedBy?: string }) {
  const match = 'id' in who ? sql`u.id = ${who.id}` : sql`u.mail = ${who.mail.trim().toLowerCase()}`;
  const [row] = rowsOf<{ id: string; mail: string; from_level: UserLevel }>(
    await db.execute(sql`with changed as (
        update users u set user_level = ${level}, updated_at = now() from users o
         where ${match} and o.id = u.id returning u.id, u.mail, o.user_level as from_level
      ), kept as (
        insert into user_level_changes (user_id, from_level, to_level, reason, requested_by, approved_by)
        select id, from_level, ${level}, 'operator', ${by.requestedBy}, ${by.approvedBy ?? null} from changed where from_level <> ${level}
      )
      select id::text as id, mail, from_level from changed`),
  );
  return row ? { id: Number(row.id), mail: row.mail, fromLevel: row.from_level } : null;
}
