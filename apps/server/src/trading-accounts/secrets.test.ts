import { constants, generateKeyPairSync, publicEncrypt, randomBytes, type KeyObject } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SecretBox, SecretDecryptError, SecretKeyFileError, sha256Hex } from './secrets';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'lq-secrets-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const encryptFor = (box: SecretBox, text: string) =>
  publicEncrypt(
    { key: box.publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(text),
  ).toString('base64');

describe('SecretBox key files', () => {
  it('creates secrets.key and transport-rsa.pem with mode 0600 and reuses them', () => {
    const dir = tempDir();
    const box = SecretBox.fromConfig({ dataDir: dir });
    for (const f of ['secrets.key', 'transport-rsa.pem']) {
      expect(statSync(path.join(dir, f)).mode & 0o777).toBe(0o600);
    }
    expect(Buffer.from(readFileSync(path.join(dir, 'secrets.key'), 'utf8').trim(), 'base64')).toHaveLength(32);
    expect(SecretBox.fromConfig({ dataDir: dir })).toBe(box);
    expect(box.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(Buffer.from(box.publicKeySpki, 'base64').length).toBeGreaterThan(250);
  });

  it.skipIf(process.platform === 'win32')('refuses a key file others can read, naming it', () => {
    const dir = tempDir();
    const file = path.join(dir, 'secrets.key');
    writeFileSync(file, randomBytes(32).toString('base64'));
    chmodSync(file, 0o644);
    expect(() => SecretBox.fromConfig({ dataDir: dir })).toThrow(SecretKeyFileError);
    expect(() => SecretBox.fromConfig({ dataDir: dir })).toThrow(/secrets\.key has mode 0644.*owner only/);
  });

  it('takes the transport key from config and refuses one that is not RSA', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' });
    const box = SecretBox.fromConfig({ dataDir: tempDir(), SECRETS_TRANSPORT_KEY: String(rsa).replace(/\n/g, '\\n') });
    expect(box.decryptTransport(encryptFor(box, 'x'))).toBe('x');
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' });
    expect(() => SecretBox.fromConfig({ dataDir: tempDir(), SECRETS_TRANSPORT_KEY: String(ec) })).toThrow(/not an RSA private key/);
    expect(() => SecretBox.fromConfig({ dataDir: tempDir(), SECRETS_TRANSPORT_KEY: 'garbage' })).toThrow(SecretKeyFileError);
  });

  it('takes the master key from config and refuses a key of the wrong size', () => {
    const dir = tempDir();
    const key = randomBytes(32).toString('base64');
    const a = SecretBox.fromConfig({ dataDir: dir, SECRETS_KEY: key });
    const sealed = a.seal({ userId: 1, accountId: 2 }, { secretKey: 's3cret' });
    // same key, another process (no cache): opens
    const b = new SecretBox(Buffer.from(key, 'base64'), (a as unknown as { transportKey: KeyObject }).transportKey);
    expect(b.open({ userId: 1, accountId: 2 }, sealed.wrappedKey, { secretKey: sealed.fields.secretKey! }).secretKey).toBe('s3cret');
    expect(() => new SecretBox(randomBytes(16), (a as unknown as { transportKey: KeyObject }).transportKey)).toThrow(/32 bytes/);
  });
});

describe('envelope encryption', () => {
  const box = SecretBox.fromConfig({ dataDir: tempDir() });
  const ctx = { userId: 7, accountId: 42 };

  it('round-trips every field; ciphertexts do not contain the secret; null stays null', () => {
    const canary = 'CANARY-secret-0123456789';
    const s = box.seal(ctx, { apiKey: 'key-abcd', secretKey: canary, passphrase: null });
    expect(s.fields.passphrase).toBeUndefined();
    expect(Buffer.from(s.fields.secretKey!).toString('latin1')).not.toContain(canary);
    expect(Buffer.from(s.wrappedKey).length).toBe(1 + 12 + 16 + 32);
    const o = box.open(ctx, s.wrappedKey, { apiKey: s.fields.apiKey!, secretKey: s.fields.secretKey!, passphrase: null });
    expect(o).toEqual({ apiKey: 'key-abcd', secretKey: canary, passphrase: null });
  });

  it('uses a fresh data key and IV per seal', () => {
    const a = box.seal(ctx, { secretKey: 'x' });
    const b = box.seal(ctx, { secretKey: 'x' });
    expect(Buffer.from(a.wrappedKey).equals(Buffer.from(b.wrappedKey))).toBe(false);
    expect(Buffer.from(a.fields.secretKey!).equals(Buffer.from(b.fields.secretKey!))).toBe(false);
  });

  it('binds ciphertexts to user, account and field (associated data)', () => {
    const s = box.seal(ctx, { apiKey: 'k', secretKey: 'v' });
    const open = (c: { userId: number; accountId: number }, fields: Record<'secretKey', Uint8Array>) =>
      box.open(c, s.wrappedKey, fields);
    expect(() => open({ userId: 8, accountId: 42 }, { secretKey: s.fields.secretKey! })).toThrow(SecretDecryptError);
    expect(() => open({ userId: 7, accountId: 43 }, { secretKey: s.fields.secretKey! })).toThrow(SecretDecryptError);
    // the api key's ciphertext in the secretKey column
    expect(() => open(ctx, { secretKey: s.fields.apiKey! })).toThrow(SecretDecryptError);
    // another row's data key
    const other = box.seal({ userId: 7, accountId: 43 }, { secretKey: 'v' });
    expect(() => box.open(ctx, other.wrappedKey, { secretKey: s.fields.secretKey! })).toThrow(SecretDecryptError);
  });

  it('detects tampering and refuses another master key', () => {
    const s = box.seal(ctx, { secretKey: 'value' });
    const bad = Buffer.from(s.fields.secretKey!);
    bad[bad.length - 1] ^= 1;
    expect(() => box.open(ctx, s.wrappedKey, { secretKey: bad })).toThrow(SecretDecryptError);
    const other = SecretBox.fromConfig({ dataDir: tempDir() });
    expect(() => other.open(ctx, s.wrappedKey, { secretKey: s.fields.secretKey! })).toThrow(SecretDecryptError);
    expect(() => box.open(ctx, null, { secretKey: s.fields.secretKey! })).toThrow(SecretDecryptError);
  });
});

describe('transport decryption (RSA-OAEP SHA-256)', () => {
  const box = SecretBox.fromConfig({ dataDir: tempDir() });
  it('decrypts what the public key encrypted', () => {
    expect(box.decryptTransport(encryptFor(box, 'my-secret-Ω'))).toBe('my-secret-Ω');
  });
  it('refuses garbage, empty text and another key’s ciphertext', () => {
    expect(() => box.decryptTransport('bm90IGVuY3J5cHRlZA==')).toThrow(SecretDecryptError);
    expect(() => box.decryptTransport('')).toThrow(SecretDecryptError);
    const other = SecretBox.fromConfig({ dataDir: tempDir() });
    expect(() => box.decryptTransport(encryptFor(other, 'x'))).toThrow(SecretDecryptError);
  });
  it('hashes with SHA-256', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
