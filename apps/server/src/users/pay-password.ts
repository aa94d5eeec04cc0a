// Payment passwords (6 digits, spec §1): argon2id with a pepper — a server key from the master key
// (platform/key-files.ts), not in the database — mixed in as argon2's secret. A million possible
// passwords make any work factor cheap to exhaust from a stolen hash (~1.6 core-hours at the
// library's defaults); without the pepper a stolen database gives nothing to try them against. So
// the hash is light (1 MiB, 1 pass: ~0.25 ms of a core, which lets the pay step hold its rate) and
// the lockout (PAY_PWD_MAX_FAILURES) guards the live path.
// Stored as `pepper1:` + the argon2 string. Hashes from before (no prefix: argon2id at the
// defaults, no pepper) still verify, and are replaced by the peppered form on the first success.
import { hash, verify, type Options } from '@node-rs/argon2';

const PREFIX = 'pepper1:';
// Algorithm.Argon2id (a const enum, which isolated modules cannot import).
const LIGHT: Options = { algorithm: 2, memoryCost: 1024, timeCost: 1, parallelism: 1 };

export const hashPayPassword = async (paidPwd: string, pepper: Buffer): Promise<string> => PREFIX + (await hash(paidPwd, { ...LIGHT, secret: pepper }));

/** Whether `paidPwd` matches `stored`; `rehash`: the peppered form to store instead (an older hash matched). */
export async function verifyPayPassword(stored: string, paidPwd: string, pepper: Buffer): Promise<{ ok: boolean; rehash?: string }> {
  if (stored.startsWith(PREFIX)) return { ok: await verify(stored.slice(PREFIX.length), paidPwd, { secret: pepper }).catch(() => false) };
  const ok = await verify(stored, paidPwd).catch(() => false);
  return ok ? { ok, rehash: await hashPayPassword(paidPwd, pepper) } : { ok };
}
