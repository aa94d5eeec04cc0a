// `console/api/...`: the operators' API, its own prefix with its own guard. Every route is guarded:
// a user's token is refused (403), no operator session 401, and an operator without a fresh second
// factor 401 A0215 — except the routes marked `preSecondFactor` (login, proving the factor, who am
// I, logout). Every route that acts writes its audit row (console source).
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, auditList, auditQuery, consoleAdjustBody, consoleAdjustResult, consoleDashboard, consoleFreezeBody, consoleGrant, consoleGrantBody, consoleLevelBody, consoleLevelResult, consoleLoginBody, consoleMe, consoleSecondFactorBody, consoleSession, consoleUserDetail, consoleUserDetailQuery, consoleUserList, consoleUsersQuery, envelopeOf, formatMoney, levelGrantNeedsSecond, parseMoney, type UserLevel } from '@lq/contracts';
import { z } from 'zod';
import { rowsOf, sql, type Database } from '@lq/db';
import { recordAudit } from '../platform/audit';
import { tokenFromHeader } from '../platform/auth';
import type { PlatformDeps } from '../platform/deps';
import { bearerAuth, errorResponses, ok } from '../platform/http';
import { perIpLimit } from '../platform/limits';
import { grantEntitlement, grantsOf, ownedOf } from '../benefits';
import { setUserFrozen, setUserLevel } from '../users';
import { adjustmentPosted, adjustWallet, IdempotencyConflictError, InsufficientFundsError, soloDailyLimit, twoPersonAbove, userBalances } from '../wallet';
import { adjustApprovalAsked, lockOperatorMoves, recordSoloMove, requestAdjustApproval, requestLevelGrant, soloMoveAllowed } from './approvals';
import { moneyRoutes } from './money-routes';
import { settingsRoutes } from './settings-routes';
import { noticeRoutes } from './notice-routes';
import { dataRoutes } from './data-routes';
import { auditCsvOf, auditListOf } from './audit';
import { consoleUserOf, consoleUsersOf, dashboardOf, suspectFillsOf } from './users';
import { operatorLogin, operatorLogout, operatorOfToken, proveSecondFactor, recoveryCodesLeft, secondFactorUntil, type OperatorAuth } from './service';

const tags = ['console'];

declare module 'fastify' {
  interface FastifyRequest {
    operator: OperatorAuth | null;
  }
  interface FastifyContextConfig {
    /** Open before the second factor (login, proving it, me, logout). */
    preSecondFactor?: boolean;
    /** Open without a session at all (login). */
    public?: boolean;
  }
}

/** Writes the audit row of a console action, as the signed-in operator. */
export type ConsoleAudit = (
  req: FastifyRequest,
  action: string,
  extra?: {
    objectType?: string;
    objectId?: string | number;
    before?: unknown;
    after?: unknown;
    detail?: unknown;
    outcome?: 'done' | 'refused' | 'failed';
    /** The movement's transaction: the row commits with it or not at all. */
    db?: Pick<Database, 'execute'>;
  },
) => Promise<unknown>;

/** Method and URL of every console route, as registered (the tests walk them all). */
export type ConsoleRouteTable = { method: string; url: string; public: boolean; preSecondFactor: boolean }[];

export function consoleRoutes(app: FastifyInstance, deps: PlatformDeps, table: ConsoleRouteTable): void {
  app.decorateRequest('operator', null);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      table.push({ method, url: route.url, public: route.config?.public === true, preSecondFactor: route.config?.preSecondFactor === true });
    }
  });
  // The guard of every route under the prefix, before the body is even read or checked.
  app.addHook('onRequest', async (req) => {
    const config = req.routeOptions.config;
    if (config.public) return;
    const token = tokenFromHeader(req.headers.authorization);
    const auth = token ? await operatorOfToken(deps.db, token) : null;
    if (!auth) {
      // A user's valid token: known, but not an operator.
      if (token && (await deps.sessions.authenticate(token))) throw new AppError('FORBIDDEN');
      throw new AppError('UNAUTHENTICATED');
    }
    req.operator = auth;
    if (config.preSecondFactor) return;
    const until = secondFactorUntil(auth, deps.config);
    if (!until || until.getTime() <= Date.now()) throw new AppError('SECOND_FACTOR_REQUIRED');
  });

  const audit: ConsoleAudit = (req, action, { db, ...extra } = {}) =>
    recordAudit(db ?? deps.db, { source: 'console', operatorId: req.operator?.operatorId ?? null, actor: req.operator?.mail ?? 'unknown', action, ...extra });

  const r = app.withTypeProvider<ZodTypeProvider>();
  const sessionOf = (auth: Pick<OperatorAuth, 'expiresAt' | 'secondFactorAt'>, token: string) => ({
    token,
    expiresAt: auth.expiresAt.getTime(),
    secondFactorUntil: secondFactorUntil(auth, deps.config)?.getTime() ?? null,
  });

  r.post(
    '/login',
    {
      schema: { tags, summary: 'An operator signs in with e-mail and password; the session can only prove the second factor until it has', body: consoleLoginBody, response: { 200: envelopeOf(consoleSession), ...errorResponses } },
      config: { public: true, ...perIpLimit(deps.config.LOGIN_RATE_PER_MINUTE) },
    },
    async (req) => {
      try {
        const s = await operatorLogin(deps.db, deps.config, req.body.userMail, req.body.password, req.ip, req.headers['user-agent']);
        await recordAudit(deps.db, { source: 'console', operatorId: s.operatorId, actor: s.mail, action: 'console.login', objectType: 'operator', objectId: s.operatorId, detail: { ip: req.ip } });
        return ok(req, sessionOf({ expiresAt: s.expiresAt, secondFactorAt: null }, s.token));
      } catch (err) {
        if (err instanceof AppError) {
          await recordAudit(deps.db, { source: 'console', actor: req.body.userMail.trim().toLowerCase(), action: 'console.login', detail: { ip: req.ip, error: err.errorName }, outcome: 'refused' });
        }
        throw err;
      }
    },
  );

  r.post(
    '/second-factor',
    {
      schema: { tags, summary: 'Proves the second factor: a TOTP code (each good once) or a recovery code (used up)', security: bearerAuth, body: consoleSecondFactorBody, response: { 200: envelopeOf(consoleSession.omit({ token: true })), ...errorResponses } },
      config: { preSecondFactor: true },
    },
    async (req) => {
      const auth = req.operator!;
      try {
        const how = await proveSecondFactor(deps.db, deps.config, auth, req.body);
        await audit(req, 'console.secondFactor', { objectType: 'operator', objectId: auth.operatorId, detail: { how } });
      } catch (err) {
        // The 5th wrong code on a session ends it; 10 in a row over sessions pause the factor.
        const name = err instanceof AppError ? err.errorName : undefined;
        const consequence = name === 'CONSOLE_SESSION_ENDED' ? { sessionEnded: true } : name === 'SECOND_FACTOR_LOCKED' ? { paused: true } : {};
        await audit(req, 'console.secondFactor', { objectType: 'operator', objectId: auth.operatorId, detail: { how: req.body.code ? 'totp' : 'recovery', ...consequence }, outcome: 'refused' });
        throw err;
      }
      const { token: _token, ...session } = sessionOf(auth, '');
      return ok(req, session);
    },
  );

  r.get(
    '/me',
    {
      schema: { tags, summary: 'The signed-in operator, the session’s end and how long its second factor holds', security: bearerAuth, response: { 200: envelopeOf(consoleMe), ...errorResponses } },
      config: { preSecondFactor: true },
    },
    async (req) => {
      const auth = req.operator!;
      return ok(req, {
        id: auth.operatorId,
        mail: auth.mail,
        expiresAt: auth.expiresAt.getTime(),
        secondFactorUntil: secondFactorUntil(auth, deps.config)?.getTime() ?? null,
        recoveryCodesLeft: await recoveryCodesLeft(deps.db, auth.operatorId),
      });
    },
  );

  r.post(
    '/logout',
    {
      schema: { tags, summary: 'Ends the session', security: bearerAuth, response: { 200: envelopeOf(z.null()), ...errorResponses } },
      config: { preSecondFactor: true },
    },
    async (req) => {
      await operatorLogout(deps.db, req.operator!);
      await audit(req, 'console.logout', { objectType: 'operator', objectId: req.operator!.operatorId });
      return ok(req, null);
    },
  );

  r.get(
    '/audit',
    {
      schema: { tags, summary: 'The audit log: filtered, sorted and paged on the server', security: bearerAuth, querystring: auditQuery, response: { 200: envelopeOf(auditList), ...errorResponses } },
    },
    async (req) => ok(req, await auditListOf(deps.db, req.query)),
  );

  r.get(
    '/audit/export',
    {
      schema: { tags, summary: 'The audit log with the same filters as CSV (UTF-8); the export itself is recorded', security: bearerAuth, querystring: auditQuery, response: { ...errorResponses } },
    },
    async (req, reply) => {
      const { page: _p, size: _s, ...filters } = req.query;
      await audit(req, 'console.audit.export', { detail: filters });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit-log.csv"')
        .send(Readable.from(auditCsvOf(deps.db, filters)) as never); // a file, not an envelope
    },
  );

  r.get(
    '/dashboard',
    {
      schema: { tags, summary: 'Users, deposits, withdrawals waiting, robots running, failing jobs and revenue of the platform’s day', security: bearerAuth, response: { 200: envelopeOf(consoleDashboard), ...errorResponses } },
    },
    async (req) => ok(req, await dashboardOf(deps.db, deps.config.PLATFORM_TIMEZONE)),
  );

  r.get(
    '/users',
    {
      schema: { tags, summary: 'Users searched (e-mail, user code or id), filtered by level, sorted and paged on the server, with balances and robots running', security: bearerAuth, querystring: consoleUsersQuery, response: { 200: envelopeOf(consoleUserList), ...errorResponses } },
    },
    async (req) => ok(req, await consoleUsersOf(deps.db, req.query)),
  );

  r.post(
    '/users/level',
    {
      schema: { tags, summary: 'Sets a user’s level (kept in the level history with who set it), with the reason (in the audit log); a grant of VIP2 or above waits for a second operator (approvalId)', security: bearerAuth, body: consoleLevelBody, response: { 200: envelopeOf(consoleLevelResult), ...errorResponses } },
    },
    async (req) => {
      const { userId, level, reason } = req.body;
      const operator = req.operator!;
      const result = await deps.db.transaction(async (tx) => {
        const [u] = rowsOf<{ level: UserLevel }>(await tx.execute(sql`select user_level as level from users where id = ${userId} for update`));
        if (!u) throw new AppError('NOT_FOUND', {}, 'userId');
        // Higher rebate rates and dividend shares under two keys (issue 53 item 4).
        if (levelGrantNeedsSecond(u.level, level)) {
          const approvalId = await requestLevelGrant(tx, operator.operatorId, { userId, from: u.level, to: level, reason });
          await audit(req, 'users.level', { objectType: 'user', objectId: userId, before: { level: u.level }, after: { level: u.level, asked: level, approval: approvalId, status: 'pending' }, detail: { reason }, db: tx });
          return { userId, from: u.level, to: level, approvalId };
        }
        await setUserLevel(tx, { id: userId }, level, { requestedBy: operator.mail });
        await audit(req, 'users.level', { objectType: 'user', objectId: userId, before: { level: u.level }, after: { level }, detail: { reason }, db: tx });
        return { userId, from: u.level, to: level, approvalId: null };
      });
      return ok(req, result);
    },
  );

  r.post(
    '/users/adjust',
    {
      schema: { tags, summary: 'Credits or debits a user wallet against the platform’s adjustments account (one ledger entry per idempotency key), with the reason the user’s records show; above the two-person amount it waits for a second operator (approvalId)', security: bearerAuth, body: consoleAdjustBody, response: { 200: envelopeOf(consoleAdjustResult), ...errorResponses } },
    },
    async (req) => {
      const b = req.body;
      const micro = parseMoney(b.amount)!;
      const amount = b.direction === 'credit' ? micro : -micro;
      const operatorId = req.operator!.operatorId;
      const before = (await userBalances(deps.db, b.userId))[b.wallet];
      const two = await twoPersonAbove(deps.db);
      const limits = { twoPersonAbove: two, soloDailyLimit: await soloDailyLimit(deps.db), timeZone: deps.config.PLATFORM_TIMEZONE };
      // The key is the operator's: two operators' keys never meet.
      const ledgerKey = `${operatorId}:${b.idempotencyKey}`;
      const posted = async () => {
        try {
          // Posted, counted among what this operator moved alone, and audited in one transaction;
          // null when this one would take their sums past what one person may move.
          return await deps.db.transaction(async (tx) => {
            // Under the lock, a key that posted (now or before these sums were kept) is a replay.
            await lockOperatorMoves(tx, operatorId);
            const replay = await adjustmentPosted(tx, 'console', ledgerKey);
            if (!replay && (micro > two || !(await soloMoveAllowed(tx, { operatorId, userId: b.userId, amount: micro }, limits)))) return null;
            const entry = await adjustWallet(tx, { userId: b.userId, wallet: b.wallet, amount, reason: b.reason, source: 'console', key: ledgerKey });
            if (!entry.replayed) await recordSoloMove(tx, { operatorId, userId: b.userId, amount: micro, kind: 'wallet.adjust', key: ledgerKey });
            const after = (await userBalances(tx, b.userId))[b.wallet];
            await audit(req, 'users.adjust', {
              objectType: 'user',
              objectId: b.userId,
              before: { wallet: b.wallet, available: formatMoney(before.available) },
              after: { wallet: b.wallet, available: formatMoney(after.available), entry: entry.id, replayed: entry.replayed },
              detail: { reason: b.reason },
              db: tx,
            });
            return ok(req, { entryId: entry.id, replayed: entry.replayed, available: formatMoney(after.available), approvalId: null });
          });
        } catch (e) {
          if (e instanceof InsufficientFundsError) throw new AppError('INSUFFICIENT_BALANCE', { available: formatMoney(e.available), needed: formatMoney(e.needed) }, 'amount');
          if (e instanceof IdempotencyConflictError) throw new AppError('IDEMPOTENCY_KEY_REUSED', {}, 'idempotencyKey');
          throw e;
        }
      };
      // Above the two-person amount, or past what this operator may move alone (for this user in 24
      // hours, or in the platform day), it waits for a second operator (the approvals screen).
      // A key that asked for an approval before answers that approval, whatever the sums are now;
      // one that posted answers its entry (or 409 with another body), even above the amount.
      const asked = await adjustApprovalAsked(deps.db, operatorId, b.idempotencyKey);
      const done = asked ? null : await posted();
      if (done) return done;
      const waitsFor = micro > two ? ('twoPersonAmount' as const) : ('soloSums' as const);
      const approvalId = await requestAdjustApproval(deps.db, operatorId, { userId: b.userId, wallet: b.wallet, amount, reason: b.reason, key: b.idempotencyKey });
      await audit(req, 'users.adjust', {
        objectType: 'user',
        objectId: b.userId,
        before: { wallet: b.wallet, available: formatMoney(before.available) },
        after: { approval: approvalId, status: 'pending', amount: formatMoney(amount), waitsFor },
        detail: { reason: b.reason },
      });
      return ok(req, { entryId: null, replayed: false, available: formatMoney(before.available), approvalId, waitsFor });
    },
  );

  r.get(
    '/users/detail',
    {
      schema: { tags, summary: 'One user: the list’s figures, whether the basic rights are unlocked, seats and slots owned per market, the grants in force and their suspect MT5 fills', security: bearerAuth, querystring: consoleUserDetailQuery, response: { 200: envelopeOf(consoleUserDetail), ...errorResponses } },
    },
    async (req) => {
      const user = await consoleUserOf(deps.db, req.query.userId);
      if (!user) throw new AppError('NOT_FOUND', {}, 'userId');
      const { unlocked, owned } = await ownedOf(deps.db, user.id);
      return ok(req, { user, unlocked, owned, grants: await grantsOf(deps.db, user.id), suspectFills: await suspectFillsOf(deps.db, user.id) });
    },
  );

  r.post(
    '/users/freeze',
    {
      schema: { tags, summary: 'Freezes a user (they cannot sign in; every session ends at once) or unfreezes them, with the reason', security: bearerAuth, body: consoleFreezeBody, response: { 200: envelopeOf(z.object({ userId: z.number(), frozen: z.boolean() })), ...errorResponses } },
    },
    async (req) => {
      const { userId, frozen, reason } = req.body;
      const before = await setUserFrozen(deps.db, userId, frozen, reason);
      if (!before) throw new AppError('NOT_FOUND', {}, 'userId');
      if (frozen) await deps.sessions.revokeAll(userId);
      else deps.sessions.forgetUser(userId);
      await audit(req, frozen ? 'users.freeze' : 'users.unfreeze', {
        objectType: 'user',
        objectId: userId,
        before: { frozen: before.frozenAt !== null, reason: before.frozenReason },
        after: { frozen, reason: frozen ? reason : null },
        detail: { reason },
      });
      return ok(req, { userId, frozen });
    },
  );

  r.post(
    '/users/grant',
    {
      schema: { tags, summary: 'Grants account seats or backtest slots (of a market, or both) for some days or for good, or the basic rights, with the reason', security: bearerAuth, body: consoleGrantBody, response: { 200: envelopeOf(consoleGrant), ...errorResponses } },
    },
    async (req) => {
      const b = req.body;
      const made = await grantEntitlement(deps.db, { userId: b.userId, kind: b.kind, market: b.market ?? null, quantity: b.quantity, days: b.days ?? null, note: b.reason });
      if ('refused' in made && made.refused === 'no-user') throw new AppError('NOT_FOUND', {}, 'userId');
      if ('refused' in made) {
        await audit(req, 'users.grant', { objectType: 'user', objectId: b.userId, detail: { kind: b.kind, reason: b.reason, refused: 'unlocked already' }, outcome: 'refused' });
        throw new AppError('CONFLICT', {}, 'kind');
      }
      const { grant } = made;
      await audit(req, 'users.grant', {
        objectType: 'user',
        objectId: b.userId,
        after: { grant: grant.id, kind: grant.kind, market: grant.market, quantity: grant.quantity, expiresAt: grant.expiresAt === null ? null : new Date(grant.expiresAt).toISOString() },
        detail: { reason: b.reason },
      });
      return ok(req, grant);
    },
  );

  moneyRoutes(app, deps, audit);
  settingsRoutes(app, deps, audit);
  noticeRoutes(app, deps, audit);
  dataRoutes(app, deps, audit);
}
