// Passkeys (issue 52 item 2): WebAuthn credentials (@simplewebauthn/server) registered as a second
// factor beside the authenticator app, and signing the sign-in's second step.
//
// Read as an attacker would:
// - Registering one needs two-step on and a fresh two-step code (a stolen session alone cannot put
//   the thief's key on the account), and the owner is told (security.passkeyAdded).
// - Each ceremony's challenge is used once: the registration's is taken off the user row, the
//   sign-in's off its login challenge, by the same UPDATE that reads it.
// - The sign-in claims its attempts as a code does (the challenge's 5, the user's own budget), and
//   a signature counter that does not move forward (a cloned key) is refused.
import { generateRegistrationOptions, verifyRegistrationResponse, type RegistrationResponseJSON } from '@simplewebauthn/server';
import { AppError, PASSKEYS_MAX, type PasskeyItem } from '@lq/contracts';
import { rowsOf, sql, type Database } from '@lq/db';
import type { AuthContext } from '../platform/auth';
import type { PlatformDeps } from '../platform/deps';
import { raiseSecurityNotice } from './security-notices';
import { stepUp } from './service';
import type { StepUpProof } from './two-factor';
import { partyOf, rowsOfUser, transportsOf } from './webauthn';

const CEREMONY_MS = 5 * 60_000;

export async function listPasskeys(db: Database, userId: number): Promise<PasskeyItem[]> {
  return (await rowsOfUser(db, userId)).map((r) => ({
    id: Number(r.id),
    name: r.name,
    createdAt: new Date(r.created_at).toISOString(),
    lastUsedAt: r.last_used_at ? new Date(r.last_used_at).toISOString() : null,
  }));
}

/** Options for navigator.credentials.create; two-step must be on. The challenge waits on the user row. */
export async function passkeyRegistrationOptions(deps: PlatformDeps, auth: AuthContext) {
  const { rpID } = partyOf(deps.config);
  const [row] = rowsOf<{ on: boolean }>(await deps.db.execute(sql`select totp_secret is not null as on from users where id = ${auth.user.id}`));
  if (!row?.on) throw new AppError('TWO_FACTOR_NOT_ON');
  const existing = await rowsOfUser(deps.db, auth.user.id);
  if (existing.length >= PASSKEYS_MAX) throw new AppError('PASSKEYS_FULL', { max: PASSKEYS_MAX });
  const options = await generateRegistrationOptions({
    rpName: 'Lightning Quant',
    rpID,
    userName: auth.user.mail,
    userID: new TextEncoder().encode(auth.user.userCode),
    attestationType: 'none',
    excludeCredentials: existing.map((r) => ({ id: r.credential_id, transports: transportsOf(r) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await deps.db.execute(sql`update users set passkey_challenge = ${options.challenge}, passkey_challenge_until = ${new Date(Date.now() + CEREMONY_MS).toISOString()}::timestamptz where id = ${auth.user.id}`);
  return options;
}

/** Verifies and keeps the passkey the browser made; the step-up is a fresh two-step code. */
export async function addPasskey(deps: PlatformDeps, auth: AuthContext, body: { name: string; response: Record<string, unknown> } & StepUpProof): Promise<PasskeyItem> {
  const { rpID, origins } = partyOf(deps.config);
  await stepUp(deps, auth.user, { twoFactorCode: body.twoFactorCode, passkey: body.passkey }, null);
  const [taken] = rowsOf<{ challenge: string }>(
    await deps.db.execute(sql`update users u set passkey_challenge = null, passkey_challenge_until = null
      from (select passkey_challenge as challenge from users where id = ${auth.user.id} and passkey_challenge_until > now() for update) open
      where u.id = ${auth.user.id} returning open.challenge`),
  );
  if (!taken?.challenge) throw new AppError('PASSKEY_CEREMONY_EXPIRED', {}, 'response');
  let verified;
  try {
    verified = await verifyRegistrationResponse({ response: body.response as unknown as RegistrationResponseJSON, expectedChallenge: taken.challenge, expectedOrigin: origins, expectedRPID: rpID, requireUserVerification: false });
  } catch {
    throw new AppError('PASSKEY_REFUSED', {}, 'response');
  }
  if (!verified.verified) throw new AppError('PASSKEY_REFUSED', {}, 'response');
  const { credential } = verified.registrationInfo;
  return deps.db.transaction(async (tx) => {
    const count = rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from user_passkeys where user_id = ${auth.user.id}`))[0].n;
    if (count >= PASSKEYS_MAX) throw new AppError('PASSKEYS_FULL', { max: PASSKEYS_MAX });
    const [row] = rowsOf<{ id: string; created_at: string | Date }>(
      await tx.execute(sql`insert into user_passkeys (user_id, credential_id, public_key, counter, transports, name)
        values (${auth.user.id}, ${credential.id}, ${Buffer.from(credential.publicKey).toString('base64url')}, ${credential.counter}, ${credential.transports ? JSON.stringify(credential.transports) : null}, ${body.name.trim()})
        on conflict (credential_id) do nothing returning id::text as id, created_at`),
    );
    if (!row) throw new AppError('PASSKEY_REFUSED', {}, 'response'); // registered already (to anyone)
    await raiseSecurityNotice(tx, auth.user.id, 'security.passkeyAdded', { name: body.name.trim() });
    return { id: Number(row.id), name: body.name.trim(), createdAt: new Date(row.created_at).toISOString(), lastUsedAt: null };
  });
}

export async function removePasskey(deps: PlatformDeps, auth: AuthContext, body: { id: number } & StepUpProof): Promise<void> {
  const [own] = rowsOf(await deps.db.execute(sql`select 1 from user_passkeys where id = ${body.id} and user_id = ${auth.user.id}`));
  if (!own) throw new AppError('NOT_FOUND', {}, 'id');
  await stepUp(deps, auth.user, { twoFactorCode: body.twoFactorCode, passkey: body.passkey }, null);
  await deps.db.execute(sql`delete from user_passkeys where id = ${body.id} and user_id = ${auth.user.id}`);
}
