// Secrets of trading accounts, at rest and in transit.
//
// At rest: AES-256-GCM envelope encryption. Each account row has its own random 256-bit data key,
// stored wrapped (AES-256-GCM) by the master key; every field is encrypted with the data key and
// associated data binding (user id, account id, field), so a ciphertext copied to another row,
// user or field does not decrypt. The master key: platform/key-files.ts (SECRETS_KEY or
// <DATA_DIR>/secrets.key, mode 0600).
//
// In transit: the web client encrypts secretKey and passphrase with the server's RSA public key
// (RSA-OAEP, SHA-256, Web Crypto) and sends base64. The private key is config
// SECRETS_TRANSPORT_KEY (PKCS#8 PEM) or <DATA_DIR>/transport-rsa.pem (0600, created on first use).
import {
  constants as cryptoConstants,
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  privateDecrypt,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import path from 'node:path';
import { checkOwnerOnly, masterKeyOf, ownerOnlyFile, SecretKeyFileError } from '../platform/key-files';

/** Fields encrypted per account row. */
export type SecretField = 'apiKey' | 'secretKey' | 'passphrase';

/** What binds a ciphertext to its place: (user, account, field). */
export interface SecretContext {
  userId: number;
  accountId: number;
}

/** The encrypted form of one row's secrets, as stored in trading_accounts. */
export interface SealedRow {
  wrappedKey: Uint8Array;
  fields: Partial<Record<SecretField, Uint8Array>>;
}

/** Thrown when a ciphertext does not open (tampered, moved to another row, other master key). */
export class SecretDecryptError extends Error {
  constructor(what: string) {
    super(`cannot decrypt ${what}`);
    this.name = 'SecretDecryptError';
  }
}

export { SecretKeyFileError };

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** v(1) | iv(12) | tag(16) | ciphertext */
function gcmSeal(key: Buffer, plaintext: Buffer, aad: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(Buffer.from(aad, 'utf8'));
  const ct = Buffer.concat([c.update(plaintext), c.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, c.getAuthTag(), ct]);
}

function gcmOpen(key: Buffer, sealed: Uint8Array, aad: string, what: string): Buffer {
  const b = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  if (b.length < 1 + IV_BYTES + TAG_BYTES || b[0] !== VERSION) throw new SecretDecryptError(what);
  try {
    const d = createDecipheriv('aes-256-gcm', key, b.subarray(1, 1 + IV_BYTES));
    d.setAAD(Buffer.from(aad, 'utf8'));
    d.setAuthTag(b.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES));
    return Buffer.concat([d.update(b.subarray(1 + IV_BYTES + TAG_BYTES)), d.final()]);
  } catch {
    throw new SecretDecryptError(what);
  }
}

const keyAad = (ctx: SecretContext) => `lq.account.dk|v1|u${ctx.userId}|a${ctx.accountId}`;
const fieldAad = (ctx: SecretContext, field: SecretField) =>
  `lq.account.field|v1|u${ctx.userId}|a${ctx.accountId}|${field}`;

export interface SecretBoxConfig {
  dataDir: string;
  SECRETS_KEY?: string;
  SECRETS_TRANSPORT_KEY?: string;
}

const boxes = new Map<string, SecretBox>();

/**
 * Encrypts and decrypts trading-account secrets, and decrypts what the client encrypted with the
 * transport public key. Build it once with `SecretBox.fromConfig(config)` (memoized per config).
 */
export class SecretBox {
  readonly publicKeyPem: string;
  /** SPKI DER, base64 (what Web Crypto's importKey('spki') takes). */
  readonly publicKeySpki: string;

  constructor(
    private readonly masterKey: Buffer,
    private readonly transportKey: KeyObject,
  ) {
    if (masterKey.length !== 32) throw new SecretKeyFileError('the secrets master key must be 32 bytes');
    const pub = createPublicKey(transportKey);
    this.publicKeyPem = pub.export({ type: 'spki', format: 'pem' }).toString();
    this.publicKeySpki = pub.export({ type: 'spki', format: 'der' }).toString('base64');
  }

  /**
   * The box of a server configuration: master key from SECRETS_KEY or <DATA_DIR>/secrets.key,
   * transport key from SECRETS_TRANSPORT_KEY or <DATA_DIR>/transport-rsa.pem; missing files are
   * created with mode 0600, existing ones with looser modes throw SecretKeyFileError.
   */
  static fromConfig(config: SecretBoxConfig): SecretBox {
    const cacheKey = `${config.dataDir}\n${config.SECRETS_KEY ?? ''}\n${config.SECRETS_TRANSPORT_KEY ?? ''}`;
    const cached = boxes.get(cacheKey);
    if (cached) {
      // a file made readable by others since: refuse again (the server must not start)
      if (!config.SECRETS_KEY) checkOwnerOnly(path.join(config.dataDir, 'secrets.key'));
      if (!config.SECRETS_TRANSPORT_KEY) checkOwnerOnly(path.join(config.dataDir, 'transport-rsa.pem'));
      return cached;
    }
    const master = masterKeyOf(config);
    let pem: string;
    if (config.SECRETS_TRANSPORT_KEY) {
      pem = config.SECRETS_TRANSPORT_KEY.replace(/\\n/g, '\n');
    } else {
      const file = path.join(config.dataDir, 'transport-rsa.pem');
      pem = ownerOnlyFile(file, () =>
        generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
      ).toString('utf8');
    }
    let transport: KeyObject | undefined;
    try {
      transport = createPrivateKey(pem);
    } catch {
      transport = undefined;
    }
    if (transport?.asymmetricKeyType !== 'rsa') {
      throw new SecretKeyFileError('the transport key (SECRETS_TRANSPORT_KEY or transport-rsa.pem) is not an RSA private key in PEM');
    }
    const box = new SecretBox(master, transport);
    boxes.set(cacheKey, box);
    return box;
  }

  /** A fresh data key, wrapped, and the given fields encrypted with it. Null fields are left out. */
  seal(ctx: SecretContext, values: Partial<Record<SecretField, string | null>>): SealedRow {
    const dataKey = randomBytes(32);
    try {
      const fields: SealedRow['fields'] = {};
      for (const [field, value] of Object.entries(values) as [SecretField, string | null | undefined][]) {
        if (value === null || value === undefined) continue;
        fields[field] = gcmSeal(dataKey, Buffer.from(value, 'utf8'), fieldAad(ctx, field));
      }
      return { wrappedKey: gcmSeal(this.masterKey, dataKey, keyAad(ctx)), fields };
    } finally {
      dataKey.fill(0);
    }
  }

  /** Decrypts fields of a row; a null ciphertext gives null. Throws SecretDecryptError. */
  open<F extends SecretField>(
    ctx: SecretContext,
    wrappedKey: Uint8Array | null,
    sealed: Record<F, Uint8Array | null>,
  ): Record<F, string | null> {
    if (!wrappedKey) throw new SecretDecryptError('data key (none stored)');
    const dataKey = gcmOpen(this.masterKey, wrappedKey, keyAad(ctx), 'data key');
    try {
      const out = {} as Record<F, string | null>;
      for (const field of Object.keys(sealed) as F[]) {
        const ct = sealed[field];
        out[field] = ct ? gcmOpen(dataKey, ct, fieldAad(ctx, field), field).toString('utf8') : null;
      }
      return out;
    } finally {
      dataKey.fill(0);
    }
  }

  /** Decrypts a base64 RSA-OAEP (SHA-256) ciphertext made with the public key; throws on failure. */
  decryptTransport(base64: string): string {
    const buf = Buffer.from(base64, 'base64');
    if (buf.length === 0) throw new SecretDecryptError('transport ciphertext (empty)');
    try {
      return privateDecrypt(
        { key: this.transportKey, padding: cryptoConstants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        buf,
      ).toString('utf8');
    } catch {
      throw new SecretDecryptError('transport ciphertext');
    }
  }
}

/** SHA-256 hex of a value (API keys for the duplicate check, bridge tokens). */
export const sha256Hex = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
