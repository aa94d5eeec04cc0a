// The second factor of operators and users: TOTP (RFC 6238: SHA-1, 6 digits, 30 s, as every
// authenticator app reads it) with otpauth, the secret sealed at rest with AES-256-GCM under a key
// derived from the master key (a database copy alone does not give the codes); recovery codes kept
// as SHA-256. Operators' and users' secrets are sealed under keys of their own.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { derivedKey, type MasterKeyConfig } from '../platform/key-files';

const STEP_SECONDS = 30;

/** Whose secrets: the issuer the authenticator app shows, and the label of the sealing key. */
export interface TotpRealm {
  issuer: string;
  keyLabel: string;
}
export const OPERATOR_TOTP: TotpRealm = { issuer: 'Lightning Quant console', keyLabel: 'operator-totp' };
export const USER_TOTP: TotpRealm = { issuer: 'Lightning Quant', keyLabel: 'user-totp' };

const keyOf = (config: MasterKeyConfig, realm: TotpRealm) => derivedKey(config, realm.keyLabel);

export function sealSecret(config: MasterKeyConfig, base32: string, realm: TotpRealm = OPERATOR_TOTP): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(config, realm), iv);
  const body = Buffer.concat([cipher.update(base32, 'utf8'), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

export function openSecret(config: MasterKeyConfig, sealed: string, realm: TotpRealm = OPERATOR_TOTP): string {
  const raw = Buffer.from(sealed.replace(/^v1:/, ''), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(config, realm), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

const totpOf = (mail: string, base32: string, issuer = OPERATOR_TOTP.issuer) => new TOTP({ issuer, label: mail, algorithm: 'SHA1', digits: 6, period: STEP_SECONDS, secret: Secret.fromBase32(base32) });

/** A new secret (160 bits) and the otpauth:// URI an authenticator app scans. */
export function newTotp(mail: string, realm: TotpRealm = OPERATOR_TOTP): { base32: string; uri: string } {
  const secret = new Secret({ size: 20 });
  return { base32: secret.base32, uri: totpOf(mail, secret.base32, realm.issuer).toString() };
}

/**
 * The time step `code` belongs to (the current one ±1, for clocks a little apart), or null. The
 * caller refuses a step not after the last one accepted: a code is good once.
 */
export function totpStep(mail: string, base32: string, code: string, now = Date.now()): number | null {
  const delta = totpOf(mail, base32).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / STEP_SECONDS) + delta;
}

/** The code of a moment (tests; the console itself never makes codes). */
export const totpCode = (mail: string, base32: string, at = Date.now()) => totpOf(mail, base32).generate({ timestamp: at });

const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Ten recovery codes, XXXX-XXXX-XXXX (60 bits each). */
export function newRecoveryCodes(count = 10): string[] {
  return Array.from({ length: count }, () => {
    const bytes = randomBytes(12);
    const chars = Array.from(bytes, (b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
    return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
  });
}

/** A recovery code as stored: dashes, spaces and case do not matter. */
export const recoveryHash = (code: string) => createHash('sha256').update(code.replace(/[-\s]/g, '').toUpperCase()).digest('hex');

/** Six digits (spaces allowed, as apps show "123 456"): a TOTP code; anything else is taken for a recovery code. */
export const asTotpCode = (code: string): string | null => {
  const digits = code.replace(/\s/g, '');
  return /^\d{6}$/.test(digits) ? digits : null;
};
