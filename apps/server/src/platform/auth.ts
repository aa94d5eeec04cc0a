import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from '@lq/db';
import { alias } from '@lq/db';
import type { FastifyRequest } from 'fastify';
import { AppError } from '@lq/contracts';
import { sessions, users, type Database, type UserRow } from '@lq/db';

export interface AuthUser extends UserRow {
  referrerCode: string | null;
}

export interface AuthContext {
  sessionId: number;
  tokenHash: string;
  expiresAt: Date;
  user: AuthUser;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** `Authorization: Bearer <token>`; a bare token (the legacy client's form) is accepted too. */
export function tokenFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const t = header.startsWith('Bearer ') ? header.slice(7).trim() : header.trim();
  return /^[A-Za-z0-9_-]{20,100}$/.test(t) ? t : undefined;
}

const referrer = alias(users, 'referrer');
const MAX_CACHE = 50_000;

/**
 * Bearer tokens: 256-bit random, stored as sha256, expiring, revocable. Lookups are one indexed
 * query; a hit is kept in process for `cacheMs` (logout and profile changes here evict it, so
 * only another process's revocation can lag, by at most `cacheMs`).
 */
export class Sessions {
  private readonly cache = new Map<string, { ctx: AuthContext; until: number }>();

  constructor(
    private readonly db: Database,
    private readonly ttlHours: number,
    private readonly cacheMs: number,
  ) {}

  async issue(userId: number, ip: string, userAgent: string | undefined, tx: Database = this.db) {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + this.ttlHours * 3_600_000);
    await tx.insert(sessions).values({
      userId,
      tokenHash: hashToken(token),
      expiresAt,
      ip,
      userAgent: userAgent?.slice(0, 300),
    });
    return { token, expiresAt };
  }

  async authenticate(token: string): Promise<AuthContext | null> {
    const tokenHash = hashToken(token);
    const now = Date.now();
    const hit = this.cache.get(tokenHash);
    if (hit) {
      if (hit.until > now && hit.ctx.expiresAt.getTime() > now) return hit.ctx;
      this.cache.delete(tokenHash);
    }
    const rows = await this.db
      .select({
        sessionId: sessions.id,
        expiresAt: sessions.expiresAt,
        user: users,
        referrerCode: referrer.userCode,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .leftJoin(referrer, eq(referrer.id, users.referrerId))
      .where(
        and(
          eq(sessions.tokenHash, tokenHash),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, new Date(now)),
          // A frozen user's sessions stop working (freezing revokes them too; this covers a race).
          isNull(users.frozenAt),
        ),
      );
    const row = rows[0];
    if (!row) return null;
    const ctx: AuthContext = {
      sessionId: row.sessionId,
      tokenHash,
      expiresAt: row.expiresAt,
      user: { ...row.user, referrerCode: row.referrerCode },
    };
    if (this.cacheMs > 0) {
      if (this.cache.size >= MAX_CACHE) this.cache.clear();
      this.cache.set(tokenHash, { ctx, until: now + this.cacheMs });
    }
    return ctx;
  }

  async revoke(tokenHash: string) {
    this.cache.delete(tokenHash);
    await this.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
  }

  /** Revokes every session of a user, except `keepTokenHash` when given. */
  async revokeAll(userId: number, keepTokenHash?: string, tx: Database = this.db) {
    this.forgetUser(userId);
    const rows = await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id, tokenHash: sessions.tokenHash });
    if (keepTokenHash && rows.some((r) => r.tokenHash === keepTokenHash)) {
      await tx
        .update(sessions)
        .set({ revokedAt: null })
        .where(eq(sessions.tokenHash, keepTokenHash));
    }
  }

  /** Drops cached contexts of a user after a change to the user row. */
  forgetUser(userId: number) {
    for (const [k, v] of this.cache) if (v.ctx.user.id === userId) this.cache.delete(k);
  }
}

/** preHandler: requires a valid token (401 otherwise). */
export const requireAuth = (sessionsStore: Sessions) => async (request: FastifyRequest) => {
  const token = tokenFromHeader(request.headers.authorization);
  const ctx = token ? await sessionsStore.authenticate(token) : null;
  if (!ctx) throw new AppError('UNAUTHENTICATED');
  request.auth = ctx;
};

/** preHandler: reads a token when one is sent; a missing or stale token is not an error. */
export const optionalAuth = (sessionsStore: Sessions) => async (request: FastifyRequest) => {
  const token = tokenFromHeader(request.headers.authorization);
  request.auth = token ? await sessionsStore.authenticate(token) : null;
};
