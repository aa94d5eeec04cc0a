import { createHash, randomBytes } from 'node:crypto';
import { alias, and, desc, eq, gt, isNull, ne, queryPrepared, type DatabaseHandle } from '@lq/db';
import type { FastifyRequest } from 'fastify';
import { AppError, SESSIONS_LIST_MAX } from '@lq/contracts';
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
/** `last_seen_at` is written at most this often per session. */
const SEEN_EVERY_MS = 60_000;
/** Whether a cached token is still good: one indexed read, for processes that can't hear revocations. */
const STILL_LIVE = `select s.id from sessions s join users u on u.id = s.user_id
  where s.token_hash = $1 and s.revoked_at is null and s.expires_at > now() and u.frozen_at is null`;

/** What the Sessions store needs to know of the database: who else can revoke a token. */
export type SessionsDatabase = Pick<DatabaseHandle, 'db' | 'kind' | 'via' | 'afterSocketStatement'>;

export interface SessionRow {
  id: number;
  createdAt: Date;
  lastSeenAt: Date;
  ip: string | null;
  userAgent: string | null;
}

/**
 * Bearer tokens: 256-bit random, stored as sha256, expiring, revocable. A looked-up context is
 * kept in process for `cacheMs`, and a revoked token answers 401 at once everywhere:
 * - the embedded database's owner evicts on its own revocations and clears the cache after every
 *   statement an operator command runs through its socket (nobody else can write);
 * - on PostgreSQL (several processes) and through a socket, a cached hit is re-checked by one
 *   indexed read (0.2 ms, against 0.8 ms for the full lookup: `docs/operations.md`).
 */
export class Sessions {
  private readonly cache = new Map<string, { ctx: AuthContext; until: number; seenAt: number }>();
  private readonly db: Database;
  private readonly checkHits: boolean;
  /** Bumped by every eviction: a lookup that raced one does not cache what it read. */
  private generation = 0;

  constructor(
    database: SessionsDatabase,
    private readonly ttlHours: number,
    private readonly cacheMs: number,
  ) {
    this.db = database.db;
    this.checkHits = database.kind === 'postgres' || database.via === 'socket';
    database.afterSocketStatement?.(() => this.clear());
  }

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
      if (hit.until > now && hit.ctx.expiresAt.getTime() > now) {
        if (this.checkHits && (await queryPrepared(this.db, 'session_still_live', STILL_LIVE, [tokenHash])).length === 0) {
          this.cache.delete(tokenHash);
          return null;
        }
        if (now - hit.seenAt >= SEEN_EVERY_MS) {
          hit.seenAt = now;
          await this.markSeen(hit.ctx.sessionId);
        }
        return hit.ctx;
      }
      this.cache.delete(tokenHash);
    }
    const generation = this.generation;
    const rows = await this.db
      .select({
        sessionId: sessions.id,
        expiresAt: sessions.expiresAt,
        lastSeenAt: sessions.lastSeenAt,
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
    let seenAt = row.lastSeenAt.getTime();
    if (now - seenAt >= SEEN_EVERY_MS) {
      seenAt = now;
      await this.markSeen(row.sessionId);
    }
    if (this.cacheMs > 0 && generation === this.generation) {
      if (this.cache.size >= MAX_CACHE) this.cache.clear();
      this.cache.set(tokenHash, { ctx, until: now + this.cacheMs, seenAt });
    }
    return ctx;
  }

  /** A failed write of the last-seen time must not fail the request it was seen on. */
  private async markSeen(sessionId: number) {
    await this.db
      .update(sessions)
      .set({ lastSeenAt: new Date() })
      .where(eq(sessions.id, sessionId))
      .catch(() => undefined);
  }

  /** The user's live sessions, the most recently used first. */
  async list(userId: number): Promise<SessionRow[]> {
    return this.db
      .select({ id: sessions.id, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, ip: sessions.ip, userAgent: sessions.userAgent })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())))
      .orderBy(desc(sessions.lastSeenAt), desc(sessions.id))
      .limit(SESSIONS_LIST_MAX);
  }

  async revoke(tokenHash: string) {
    this.evict(tokenHash);
    await this.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
    // Again once written: a lookup that began between the first eviction and the write caches nothing.
    this.evict(tokenHash);
  }

  /** Ends one of the user's sessions; false when it is not theirs or no longer live. */
  async revokeById(userId: number, sessionId: number, tx: Database = this.db): Promise<boolean> {
    const rows = await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())))
      .returning({ tokenHash: sessions.tokenHash });
    for (const r of rows) this.evict(r.tokenHash);
    // In a caller's transaction the row is revoked at its commit: the caller forgets the user then too.
    return rows.length > 0;
  }

  /** Revokes every session of a user, except `keepTokenHash` when given; answers how many ended. */
  async revokeAll(userId: number, keepTokenHash?: string, tx: Database = this.db): Promise<number> {
    this.forgetUser(userId);
    const rows = await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keepTokenHash ? ne(sessions.tokenHash, keepTokenHash) : undefined))
      .returning({ id: sessions.id });
    this.forgetUser(userId);
    return rows.length;
  }

  private evict(tokenHash: string) {
    this.generation++;
    this.cache.delete(tokenHash);
  }

  private clear() {
    this.generation++;
    this.cache.clear();
  }

  /** Drops cached contexts of a user after a change to the user row. */
  forgetUser(userId: number) {
    this.generation++;
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
