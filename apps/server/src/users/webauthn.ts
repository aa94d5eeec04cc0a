// WebAuthn pieces the sign-in's second step needs (users/two-factor.ts) and passkeys.ts shares:
// the relying party, the user's credentials, the sign-in's options and the assertion's check.
import { generateAuthenticationOptions, verifyAuthenticationResponse, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import { isIP } from 'node:net';
import { AppError, LOGIN_CHALLENGE_MAX_ATTEMPTS } from '@lq/contracts';
import { rowsOf, sql, type Database } from '@lq/db';
import type { Config } from '../platform/config';
import type { PlatformDeps } from '../platform/deps';

/** The relying party: its id (a domain) and the origins the browser may report; null where passkeys can't work (an IP address). */
export function passkeyParty(config: Config): { rpID: string; origins: string[] } | null {
  const publicUrl = config.PUBLIC_URL ? new URL(config.PUBLIC_URL) : undefined;
  const rpID = config.PASSKEY_RP_ID ?? publicUrl?.hostname ?? 'localhost';
  if (isIP(rpID.replace(/^\[|\]$/g, '')) !== 0) return null;
  const origins = config.PASSKEY_ORIGINS.length > 0 ? config.PASSKEY_ORIGINS : publicUrl ? [publicUrl.origin] : [`http://localhost:${config.PORT}`];
  return { rpID, origins };
}

export const partyOf = (config: Config) => {
  const party = passkeyParty(config);
  if (!party) throw new AppError('PASSKEYS_UNAVAILABLE');
  return party;
};

export interface PasskeyRow {
  id: string;
  credential_id: string;
  public_key: string;
  counter: string | number;
  transports: string | null;
  name: string;
  created_at: string | Date;
  last_used_at: string | Date | null;
}

export const rowsOfUser = async (db: Database, userId: number) =>
  rowsOf<PasskeyRow>(await db.execute(sql`select id::text as id, credential_id, public_key, counter, transports, name, created_at, last_used_at from user_passkeys where user_id = ${userId} order by id`));
export const transportsOf = (row: PasskeyRow) => (row.transports ? (JSON.parse(row.transports) as AuthenticatorTransportFuture[]) : undefined);
export type AuthenticatorTransportFuture = 'ble' | 'cable' | 'hybrid' | 'internal' | 'nfc' | 'smart-card' | 'usb';

/** Options for navigator.credentials.get in the sign-in's second step; the challenge waits on the login challenge. */
export async function passkeyLoginOptions(deps: PlatformDeps, challengeHash: string) {
  const { rpID } = partyOf(deps.config);
  const [open] = rowsOf<{ id: string; user_id: string }>(
    await deps.db.execute(sql`select id::text as id, user_id::text as user_id from login_challenges
      where challenge_hash = ${challengeHash} and consumed_at is null and expires_at > now() and attempts < ${LOGIN_CHALLENGE_MAX_ATTEMPTS}`),
  );
  if (!open) throw new AppError('TWO_FACTOR_CHALLENGE_EXPIRED', {}, 'challenge');
  const keys = await rowsOfUser(deps.db, Number(open.user_id));
  if (keys.length === 0) throw new AppError('PASSKEY_REFUSED', {}, 'passkey');
  const options = await generateAuthenticationOptions({ rpID, allowCredentials: keys.map((k) => ({ id: k.credential_id, transports: transportsOf(k) })), userVerification: 'preferred' });
  await deps.db.execute(sql`update login_challenges set webauthn_challenge = ${options.challenge} where id = ${Number(open.id)}`);
  return options;
}

/**
 * Whether `response` is a valid assertion, for `challengeId`'s WebAuthn challenge (used up here),
 * by one of the user's passkeys; its counter and last use are written.
 */
export async function acceptPasskey(deps: PlatformDeps, userId: number, challengeId: number, response: Record<string, unknown>): Promise<boolean> {
  const [taken] = rowsOf<{ challenge: string | null }>(
    await deps.db.execute(sql`update login_challenges l set webauthn_challenge = null from (select webauthn_challenge as challenge from login_challenges where id = ${challengeId} for update) open
      where l.id = ${challengeId} returning open.challenge`),
  );
  return verifyAssertion(deps, userId, taken?.challenge, response);
}

/** Options for navigator.credentials.get as the step-up of an action; the challenge waits on the user row. */
export async function passkeyStepUpOptions(deps: PlatformDeps, userId: number) {
  const { rpID } = partyOf(deps.config);
  const keys = await rowsOfUser(deps.db, userId);
  if (keys.length === 0) throw new AppError('PASSKEY_REFUSED', {}, 'passkey');
  const options = await generateAuthenticationOptions({ rpID, allowCredentials: keys.map((k) => ({ id: k.credential_id, transports: transportsOf(k) })), userVerification: 'preferred' });
  await deps.db.execute(sql`update users set step_up_challenge = ${options.challenge}, step_up_challenge_until = ${new Date(Date.now() + STEP_UP_CEREMONY_MS).toISOString()}::timestamptz where id = ${userId}`);
  return options;
}

/** Whether `response` answers the user's open step-up challenge (taken off the row by the same UPDATE that reads it). */
export async function acceptStepUpPasskey(deps: PlatformDeps, userId: number, response: Record<string, unknown>): Promise<boolean> {
  const [taken] = rowsOf<{ challenge: string | null }>(
    await deps.db.execute(sql`update users u set step_up_challenge = null, step_up_challenge_until = null
      from (select step_up_challenge as challenge from users where id = ${userId} and step_up_challenge_until > now() for update) open
      where u.id = ${userId} returning open.challenge`),
  );
  return verifyAssertion(deps, userId, taken?.challenge, response);
}

const STEP_UP_CEREMONY_MS = 5 * 60_000;

async function verifyAssertion(deps: PlatformDeps, userId: number, challenge: string | null | undefined, response: Record<string, unknown>): Promise<boolean> {
  const party = passkeyParty(deps.config);
  if (!party || !challenge) return false;
  const assertion = response as unknown as AuthenticationResponseJSON;
  const [key] = (await rowsOfUser(deps.db, userId)).filter((k) => k.credential_id === assertion.id);
  if (!key) return false;
  let result;
  try {
    result = await verifyAuthenticationResponse({
      response: assertion,
      expectedChallenge: challenge,
      expectedOrigin: party.origins,
      expectedRPID: party.rpID,
      credential: { id: key.credential_id, publicKey: new Uint8Array(Buffer.from(key.public_key, 'base64url')), counter: Number(key.counter), transports: transportsOf(key) },
      requireUserVerification: false,
    });
  } catch {
    return false;
  }
  if (!result.verified) return false;
  // A counter that stands still or goes back (when the key keeps one) is a cloned key: refused.
  const moved = rowsOf(
    await deps.db.execute(sql`update user_passkeys set counter = ${result.authenticationInfo.newCounter}, last_used_at = now()
      where id = ${Number(key.id)} and (counter = 0 and ${result.authenticationInfo.newCounter} = 0 or counter < ${result.authenticationInfo.newCounter}) returning id`),
  );
  return moved.length === 1;
}
