// The server's master key and the keys derived from it. The master key comes from config
// SECRETS_KEY (base64, 32 bytes) or, by default, from <DATA_DIR>/secrets.key, created with mode
// 0600; an existing file that others may read stops the server with the problem named. It wraps the
// trading-account secrets (trading-accounts/secrets.ts) and, through HKDF, gives keys for other
// uses (the payment passwords' pepper), so one key file is what to keep and back up.
import { hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A key file with the wrong permissions, or a bad key: the server must not start. */
export class SecretKeyFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyFileError';
  }
}

/** Refuses a key file that group or others may read or write (not checked on Windows). */
export function checkOwnerOnly(file: string): void {
  if (process.platform === 'win32') return;
  const mode = statSync(file).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new SecretKeyFileError(
      `${file} has mode ${mode.toString(8).padStart(4, '0')}: a secrets key file must be readable by its owner only (chmod 600 ${file})`,
    );
  }
}

/** Reads a key file (checking its mode) or creates it with mode 0600 from `make()`. */
export function ownerOnlyFile(file: string, make: () => string | Buffer): Buffer {
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      writeFileSync(file, make(), { mode: 0o600, flag: 'wx' });
      chmodSync(file, 0o600);
    } catch (err) {
      // another process created it first: read theirs
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  checkOwnerOnly(file);
  return readFileSync(file);
}

export interface MasterKeyConfig {
  dataDir: string;
  SECRETS_KEY?: string;
}

const masters = new Map<string, Buffer>();

/** The 32-byte master key of a configuration (memoized; the file's mode is checked on every call). */
export function masterKeyOf(config: MasterKeyConfig): Buffer {
  const file = path.join(config.dataDir, 'secrets.key');
  const cacheKey = `${config.dataDir}\n${config.SECRETS_KEY ?? ''}`;
  const cached = masters.get(cacheKey);
  if (cached) {
    // a file made readable by others since: refuse again (the server must not start)
    if (!config.SECRETS_KEY) checkOwnerOnly(file);
    return cached;
  }
  let master: Buffer;
  if (config.SECRETS_KEY) {
    master = Buffer.from(config.SECRETS_KEY, 'base64');
  } else {
    const text = ownerOnlyFile(file, () => `${randomBytes(32).toString('base64')}\n`).toString('utf8').trim();
    master = Buffer.from(text, 'base64');
  }
  if (master.length !== 32) throw new SecretKeyFileError(config.SECRETS_KEY ? 'the secrets master key must be 32 bytes' : `${file} must hold base64 of 32 bytes`);
  masters.set(cacheKey, master);
  return master;
}

/** A 32-byte key for one use (`label`), derived from the master key with HKDF-SHA256. */
export function derivedKey(config: MasterKeyConfig, label: string): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKeyOf(config), Buffer.alloc(0), `lq/${label}`, 32));
}
