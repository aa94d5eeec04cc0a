// Trading accounts (API keys): bind (checked with the venue, read-only), list, detail, edit,
// unbind, re-check, MT5 bridge tokens. Every lookup is scoped to the caller; secrets are
// decrypted only to check them with the venue and are never returned or logged.
import { raiseSecurityNotice } from '../users';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import {
  ACCOUNT_LEVERAGE_DEFAULT,
  ACCOUNT_LEVERAGE_MAX,
  ACCOUNT_MARKETS,
  AppError,
  BRIDGE_OFFLINE_AFTER_MS,
  EXCHANGES_OF_MARKET,
  SEAT_EXPIRED,
  marketOfExchange,
  type AccountBindBody,
  type AccountBindResult,
  type AccountBridge,
  type AccountEditBody,
  type AccountExchange,
  type AccountItem,
  type AccountKeyCheck,
  type AccountMarket,
  type AccountOverview,
  type AccountWarning,
} from '@lq/contracts';
import {
  and,
  count,
  eq,
  inArray,
  isNull,
  ne,
  robots,
  rowsOf,
  sql,
  tradingAccounts,
  type Database,
  type TradingAccountRow,
} from '@lq/db';
import { VenueError, VenueRetryableError, VenueStopError, type KeyCheck } from '@lq/venues';
import { RequestValidationError } from '../platform/http';
import { seatsOwned } from '../benefits';
import { openVenue, type TradingAccountCredentials } from './credentials';
import { SecretDecryptError, sha256Hex, type SecretBox } from './secrets';

/** Robot statuses that keep an account in use. */
export const ACTIVE_ROBOT_STATUSES = ['running', 'paused', 'stopping'] as const;

/** Symbol the key check reads position and margin mode of. */
const CHECK_SYMBOL = 'BTCUSDT';

/**
 * Emits `revoked(accountId)` when an MT5 account's bridge token stops being valid (rotated or
 * account unbound): the bridge closes that account's sessions (close code 4401).
 */
export const bridgeTokenEvents = new EventEmitter();

export interface TradingAccountDeps {
  db: Database;
  box: SecretBox;
  config: { EXCHANGE_BINANCE_URL?: string; EXCHANGE_OKX_URL?: string };
  /** Replaces the venue check (tests of other modules); default: CcxtVenue.checkKey on the configured origin. */
  checkKey?: (creds: TradingAccountCredentials) => Promise<KeyCheck>;
}

// ---------------------------------------------------------------- rows → answers

const mask = (last4: string | null) => (last4 ? `****${last4}` : null);

interface StoredCheck {
  canTrade: boolean;
  canWithdraw: boolean;
  ipRestricted: boolean;
  oneWay: boolean;
  crossMargin: boolean | null;
  warnings?: string[];
  checkedAt: string;
}

function warningsOf(check: StoredCheck | null): AccountWarning[] {
  if (!check) return [];
  const out: AccountWarning[] = [];
  if (!check.oneWay || check.crossMargin === false) out.push('positionMode');
  if (!check.ipRestricted) out.push('noIpRestriction');
  return out;
}

const numOrNull = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};

function bridgeOf(row: TradingAccountRow, now: number): AccountBridge | null {
  if (row.exchange !== 'mt5') return null;
  const state = (row.bridgeState ?? {}) as Record<string, unknown>;
  const seen = row.bridgeSeenAt;
  return {
    status: !seen
      ? 'never'
      : now - seen.getTime() <= BRIDGE_OFFLINE_AFTER_MS
        ? 'online'
        : 'offline',
    seenAt: seen ? seen.toISOString() : null,
    login: row.mt5Login,
    server: row.mt5Server,
    balance: numOrNull(state.balance),
    equity: numOrNull(state.equity),
  };
}

export function toItem(
  row: TradingAccountRow,
  robotsRunning: number,
  now = Date.now(),
): AccountItem {
  const check = (row.keyCheck ?? null) as StoredCheck | null;
  const keyCheck: AccountKeyCheck | null = check
    ? {
        canTrade: check.canTrade,
        canWithdraw: check.canWithdraw,
        ipRestricted: check.ipRestricted,
        oneWay: check.oneWay,
        crossMargin: check.crossMargin,
        checkedAt: check.checkedAt,
      }
    : null;
  return {
    id: row.id,
    market: row.market as AccountMarket,
    exchange: row.exchange as AccountExchange,
    accountName: row.accountName,
    remark: row.remark,
    apiKeyMasked: row.exchange === 'mt5' ? null : mask(row.keyLast4),
    leverage: row.leverage,
    frozen: row.frozen,
    frozenReason: row.frozenReason,
    keyCheck,
    warnings: warningsOf(check),
    robotsRunning,
    bridge: bridgeOf(row, now),
    createdAt: row.createdAt.toISOString(),
  };
}

async function activeRobotCounts(db: Database, accountIds: number[]): Promise<Map<number, number>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .select({ accountId: robots.accountId, n: count() })
    .from(robots)
    .where(
      and(
        inArray(robots.accountId, accountIds),
        inArray(robots.status, [...ACTIVE_ROBOT_STATUSES]),
      ),
    )
    .groupBy(robots.accountId);
  return new Map(rows.map((r) => [r.accountId, Number(r.n)]));
}

// ---------------------------------------------------------------- reads

/** The caller's bound account, or NOT_FOUND (another user's id answers exactly like a missing one). */
export async function getOwnAccount(
  db: Database,
  userId: number,
  id: number,
): Promise<TradingAccountRow> {
  const [row] = await db
    .select()
    .from(tradingAccounts)
    .where(
      and(
        eq(tradingAccounts.id, id),
        eq(tradingAccounts.userId, userId),
        isNull(tradingAccounts.unboundAt),
      ),
    )
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

export async function itemOf(db: Database, row: TradingAccountRow): Promise<AccountItem> {
  const counts = await activeRobotCounts(db, [row.id]);
  return toItem(row, counts.get(row.id) ?? 0);
}

export async function listAccounts(
  db: Database,
  userId: number,
  market?: AccountMarket,
): Promise<AccountItem[]> {
  const rows = await db
    .select()
    .from(tradingAccounts)
    .where(
      and(
        eq(tradingAccounts.userId, userId),
        isNull(tradingAccounts.unboundAt),
        market ? eq(tradingAccounts.market, market) : undefined,
      ),
    )
    .orderBy(tradingAccounts.id);
  const counts = await activeRobotCounts(
    db,
    rows.map((r) => r.id),
  );
  const now = Date.now();
  return rows.map((r) => toItem(r, counts.get(r.id) ?? 0, now));
}

export async function overviewOf(db: Database, userId: number): Promise<AccountOverview> {
  const items = await listAccounts(db, userId);
  return {
    markets: ACCOUNT_MARKETS.map((market) => {
      const mine = items.filter((i) => i.market === market);
      return {
        market,
        exchanges: [...EXCHANGES_OF_MARKET[market]],
        accounts: mine.length,
        frozen: mine.filter((i) => i.frozen).length,
        robotsRunning: mine.reduce((s, i) => s + i.robotsRunning, 0),
      };
    }),
  };
}

// ---------------------------------------------------------------- the venue check

/** The venue's own message from a ccxt error text `"<id> {json}"`, without anything else. */
function venueReason(err: VenueError): string {
  const m = /"(?:msg|sMsg)"\s*:\s*"([^"]{1,200})"/.exec(err.message);
  if (m?.[1]) return m[1];
  return err.venueCode ? `code ${err.venueCode}` : 'authentication failed';
}

/**
 * The field a venue's refusal points at: a bad signature is the secret's fault (Binance -1022,
 * OKX 50113), a wrong passphrase the passphrase's (OKX 50105); anything else the key's.
 */
function rejectedField(err: VenueError): 'apiKey' | 'secretKey' | 'passphrase' {
  const code = String(err.venueCode ?? '');
  if (code === '-1022' || code === '50113') return 'secretKey';
  if (code === '50105') return 'passphrase';
  return 'apiKey';
}

const defaultCheck = (config: TradingAccountDeps['config']) => (creds: TradingAccountCredentials) =>
  openVenue(config, creds, { timeoutMs: 10_000, readAttempts: 3, backoffMs: 200 }).checkKey(
    CHECK_SYMBOL,
  );

/**
 * Checks a key with the venue (read-only calls). Refuses a key the venue rejects, one that can
 * withdraw and one that cannot trade futures; hedge mode and isolated margin are warnings.
 */
async function checkWithVenue(
  deps: TradingAccountDeps,
  creds: TradingAccountCredentials,
): Promise<StoredCheck> {
  let check: KeyCheck;
  try {
    check = await (deps.checkKey ?? defaultCheck(deps.config))(creds);
  } catch (err) {
    if (err instanceof VenueStopError)
      throw new AppError('ACCOUNT_KEY_REJECTED', { reason: venueReason(err) }, rejectedField(err));
    if (err instanceof VenueRetryableError) throw new AppError('EXCHANGE_UNREACHABLE');
    if (err instanceof VenueError) throw new AppError('EXCHANGE_ERROR');
    throw err;
  }
  if (check.canWithdraw) throw new AppError('ACCOUNT_KEY_CAN_WITHDRAW', {}, 'apiKey');
  if (!check.canTrade || check.problems.includes('accountLevel'))
    throw new AppError('ACCOUNT_KEY_CANNOT_TRADE', {}, 'apiKey');
  return {
    canTrade: check.canTrade,
    canWithdraw: check.canWithdraw,
    ipRestricted: check.ipRestricted,
    oneWay: check.oneWay,
    crossMargin: check.crossMargin,
    warnings: [...check.problems, ...check.warnings],
    checkedAt: new Date().toISOString(),
  };
}

/** Decrypts a transport-sealed value; a ciphertext that does not open names its field. */
function unseal(box: SecretBox, value: string, field: string): string {
  try {
    const plain = box.decryptTransport(value);
    if (plain.trim() === '' || plain.length > 256) throw new SecretDecryptError(field);
    return plain.trim();
  } catch (err) {
    if (err instanceof SecretDecryptError) throw new AppError('SECRET_UNREADABLE', {}, field);
    throw err;
  }
}

async function refuseDuplicate(
  db: Database,
  userId: number,
  apiKeyHash: string,
  exceptId?: number,
): Promise<void> {
  const [dup] = await db
    .select({ id: tradingAccounts.id })
    .from(tradingAccounts)
    .where(
      and(
        eq(tradingAccounts.userId, userId),
        eq(tradingAccounts.apiKeyHash, apiKeyHash),
        isNull(tradingAccounts.unboundAt),
        exceptId !== undefined ? ne(tradingAccounts.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (dup) throw new AppError('ACCOUNT_DUPLICATE', {}, 'apiKey');
}

/** Serializes binds and key changes of one user (the duplicate check), on PGlite and PostgreSQL. */
const lockUser = (tx: Database, userId: number) =>
  tx.execute(sql`select id from users where id = ${userId} for update`);

const newBridgeToken = () => randomBytes(32).toString('base64url');

// ---------------------------------------------------------------- writes

/**
 * `useProof` uses up the step-up the caller checked (an e-mail code), in the transaction that binds:
 * a key the exchange refuses does not cost the user a new code.
 */
export async function bindAccount(
  deps: TradingAccountDeps,
  userId: number,
  body: AccountBindBody,
  proofToUse: (tx: Database) => Promise<void> = () => Promise.resolve(),
): Promise<AccountBindResult> {
  const { db, box } = deps;
  // In the insert's transaction: the step-up used up, and the owner told (a security notice).
  const useProof = async (tx: Database) => {
    await proofToUse(tx);
    await raiseSecurityNotice(tx, userId, 'security.accountBound', { accountName: body.accountName, exchange: body.exchange }, `/pages/apikey/apiList?market=${body.exchange === 'mt5' ? 'forex' : 'crypto'}`);
  };
  const market = marketOfExchange(body.exchange);
  if (body.exchange === 'mt5') {
    const token = newBridgeToken();
    const row = await db.transaction(async (tx) => {
      await useProof(tx);
      const [inserted] = await tx
        .insert(tradingAccounts)
        .values({
          userId,
          market,
          exchange: 'mt5',
          accountName: body.accountName,
          remark: body.remark || null,
          leverage: body.leverage ?? ACCOUNT_LEVERAGE_DEFAULT.forex,
          bridgeTokenHash: sha256Hex(token),
        })
        .returning();
      return inserted;
    });
    return { account: toItem(row, 0), bridgeToken: token };
  }

  const secret = unseal(box, body.secretKey, 'secretKey');
  const passphrase = body.exchange === 'okx' ? unseal(box, body.passphrase, 'passphrase') : null;
  const apiKeyHash = sha256Hex(body.apiKey);
  await refuseDuplicate(db, userId, apiKeyHash);
  const check = await checkWithVenue(deps, {
    exchange: body.exchange,
    apiKey: body.apiKey,
    secret,
    passphrase,
  });

  const row = await db.transaction(async (tx) => {
    await lockUser(tx, userId);
    await refuseDuplicate(tx, userId, apiKeyHash);
    await useProof(tx);
    const [inserted] = await tx
      .insert(tradingAccounts)
      .values({
        userId,
        market,
        exchange: body.exchange,
        accountName: body.accountName,
        remark: body.remark || null,
        leverage: body.leverage,
        keyLast4: body.apiKey.slice(-4),
        apiKeyHash,
        keyCheck: check,
      })
      .returning({ id: tradingAccounts.id });
    // the id is part of the associated data: seal once it exists, in the same transaction
    const sealed = box.seal(
      { userId, accountId: inserted.id },
      { apiKey: body.apiKey, secretKey: secret, passphrase },
    );
    const [updated] = await tx
      .update(tradingAccounts)
      .set({
        wrappedKey: sealed.wrappedKey,
        apiKeyEnc: sealed.fields.apiKey,
        secretKeyEnc: sealed.fields.secretKey,
        passphraseEnc: sealed.fields.passphrase ?? null,
      })
      .where(eq(tradingAccounts.id, inserted.id))
      .returning();
    return updated;
  });
  return { account: toItem(row, 0), bridgeToken: null };
}

/** The stored secrets of a crypto row (for an edit that changes only some of them, or a re-check). */
function storedSecrets(box: SecretBox, row: TradingAccountRow): TradingAccountCredentials {
  try {
    const o = box.open({ userId: row.userId, accountId: row.id }, row.wrappedKey, {
      apiKey: row.apiKeyEnc,
      secretKey: row.secretKeyEnc,
      passphrase: row.passphraseEnc,
    });
    return {
      exchange: row.exchange as AccountExchange,
      apiKey: o.apiKey ?? '',
      secret: o.secretKey ?? '',
      passphrase: o.passphrase,
    };
  } catch (err) {
    if (err instanceof SecretDecryptError) throw new AppError('SECRET_UNREADABLE');
    throw err;
  }
}

export async function editAccount(
  deps: TradingAccountDeps,
  userId: number,
  body: AccountEditBody,
  useProof: (tx: Database) => Promise<void> = () => Promise.resolve(),
): Promise<AccountItem> {
  const { db, box } = deps;
  const row = await getOwnAccount(db, userId, body.id);
  const market = row.market as AccountMarket;
  if (body.leverage !== undefined && body.leverage > ACCOUNT_LEVERAGE_MAX[market]) {
    throw new RequestValidationError([
      {
        code: 'too_big',
        origin: 'number',
        maximum: ACCOUNT_LEVERAGE_MAX[market],
        path: ['leverage'],
        message:
          market === 'crypto' ? 'validation.leverageRangeCrypto' : 'validation.leverageRangeForex',
        input: body.leverage,
      },
    ]);
  }
  const set: Partial<typeof tradingAccounts.$inferInsert> = { updatedAt: new Date() };
  if (body.accountName !== undefined) set.accountName = body.accountName;
  if (body.remark !== undefined) set.remark = body.remark || null;
  if (body.leverage !== undefined) set.leverage = body.leverage;

  const changesKey =
    body.apiKey !== undefined || body.secretKey !== undefined || body.passphrase !== undefined;
  if (changesKey) {
    if (row.exchange === 'mt5') throw new AppError('BAD_REQUEST', {}, 'secretKey');
    if (body.secretKey === undefined)
      throw new RequestValidationError([
        { code: 'custom', path: ['secretKey'], message: 'validation.required', input: undefined },
      ]);
    const current = storedSecrets(box, row);
    const creds: TradingAccountCredentials = {
      exchange: current.exchange,
      apiKey: body.apiKey ?? current.apiKey,
      secret: unseal(box, body.secretKey, 'secretKey'),
      passphrase:
        row.exchange === 'okx'
          ? body.passphrase !== undefined
            ? unseal(box, body.passphrase, 'passphrase')
            : current.passphrase
          : null,
    };
    const apiKeyHash = sha256Hex(creds.apiKey);
    await refuseDuplicate(db, userId, apiKeyHash, row.id);
    const check = await checkWithVenue(deps, creds);
    const sealed = box.seal(
      { userId, accountId: row.id },
      { apiKey: creds.apiKey, secretKey: creds.secret, passphrase: creds.passphrase },
    );
    Object.assign(set, {
      wrappedKey: sealed.wrappedKey,
      apiKeyEnc: sealed.fields.apiKey,
      secretKeyEnc: sealed.fields.secretKey,
      passphraseEnc: sealed.fields.passphrase ?? null,
      keyLast4: creds.apiKey.slice(-4),
      apiKeyHash,
      keyCheck: check,
    });
    const updated = await db.transaction(async (tx) => {
      await lockUser(tx, userId);
      await refuseDuplicate(tx, userId, apiKeyHash, row.id);
      // The step-up of new keys is used up only when they are stored.
      await useProof(tx);
      const [u] = await tx
        .update(tradingAccounts)
        .set(set)
        .where(
          and(
            eq(tradingAccounts.id, row.id),
            eq(tradingAccounts.userId, userId),
            isNull(tradingAccounts.unboundAt),
          ),
        )
        .returning();
      return u;
    });
    if (!updated) throw new AppError('NOT_FOUND');
    return itemOf(db, updated);
  }

  const [updated] = await db
    .update(tradingAccounts)
    .set(set)
    .where(
      and(
        eq(tradingAccounts.id, row.id),
        eq(tradingAccounts.userId, userId),
        isNull(tradingAccounts.unboundAt),
      ),
    )
    .returning();
  if (!updated) throw new AppError('NOT_FOUND');
  return itemOf(db, updated);
}

/** Re-runs the venue check with the stored key and stores the result. */
export async function recheckAccount(
  deps: TradingAccountDeps,
  userId: number,
  id: number,
): Promise<AccountItem> {
  const row = await getOwnAccount(deps.db, userId, id);
  if (row.exchange === 'mt5') return itemOf(deps.db, row);
  const check = await checkWithVenue(deps, storedSecrets(deps.box, row));
  const [updated] = await deps.db
    .update(tradingAccounts)
    .set({ keyCheck: check, updatedAt: new Date() })
    .where(and(eq(tradingAccounts.id, row.id), eq(tradingAccounts.userId, userId)))
    .returning();
  return itemOf(deps.db, updated);
}

/**
 * Unbinds (refused with ACCOUNT_IN_USE while a robot on it is running, paused or stopping). The
 * row stays for the robots' history, its secrets and bridge token are erased.
 */
export async function unbindAccount(
  deps: TradingAccountDeps,
  userId: number,
  id: number,
): Promise<void> {
  const row = await getOwnAccount(deps.db, userId, id);
  await deps.db.transaction(async (tx) => {
    const [busy] = await tx
      .select({ id: robots.id })
      .from(robots)
      .where(and(eq(robots.accountId, row.id), inArray(robots.status, [...ACTIVE_ROBOT_STATUSES])))
      .limit(1);
    if (busy) throw new AppError('ACCOUNT_IN_USE');
    await tx
      .update(tradingAccounts)
      .set({
        unboundAt: new Date(),
        updatedAt: new Date(),
        wrappedKey: null,
        apiKeyEnc: null,
        secretKeyEnc: null,
        passphraseEnc: null,
        bridgeTokenHash: null,
      })
      .where(and(eq(tradingAccounts.id, row.id), eq(tradingAccounts.userId, userId)));
  });
  if (row.exchange === 'mt5') bridgeTokenEvents.emit('revoked', row.id);
}

/** A new bridge token for an MT5 account (shown once); the old one stops working. */
export async function rotateBridgeToken(
  deps: TradingAccountDeps,
  userId: number,
  id: number,
  useProof: (tx: Database) => Promise<void> = () => Promise.resolve(),
): Promise<AccountBindResult> {
  const row = await getOwnAccount(deps.db, userId, id);
  if (row.exchange !== 'mt5') throw new AppError('BAD_REQUEST', {}, 'id');
  const token = newBridgeToken();
  const updated = await deps.db.transaction(async (tx) => {
    await useProof(tx);
    const [u] = await tx
      .update(tradingAccounts)
      .set({ bridgeTokenHash: sha256Hex(token), updatedAt: new Date() })
      .where(and(eq(tradingAccounts.id, row.id), eq(tradingAccounts.userId, userId)))
      .returning();
    return u;
  });
  bridgeTokenEvents.emit('revoked', row.id);
  return { account: await itemOf(deps.db, updated), bridgeToken: token };
}

/**
 * Unfreezes an account that seat expiry froze (robots/seat-expiry.ts), once the user owns a seat
 * for it again: more seats on its market than unfrozen accounts holding one. Under the user's row
 * lock, as robot creation and the freeze pass take it.
 */
export async function releaseAccount(
  deps: TradingAccountDeps,
  userId: number,
  id: number,
): Promise<AccountItem> {
  const row = await getOwnAccount(deps.db, userId, id);
  await deps.db.transaction(async (tx) => {
    await tx.execute(sql`select id from users where id = ${userId} for update`);
    const [now] = await tx
      .select()
      .from(tradingAccounts)
      .where(and(eq(tradingAccounts.id, row.id), eq(tradingAccounts.userId, userId)));
    if (!now?.frozen || now.frozenReason !== SEAT_EXPIRED)
      throw new AppError('ACCOUNT_NOT_RELEASABLE', {}, 'id');
    const market = now.market as AccountMarket;
    const [{ used }] = rowsOf<{ used: number }>(
      await tx.execute(sql`select count(distinct r.account_id)::int as used from robots r join trading_accounts a on a.id = r.account_id
        where r.user_id = ${userId} and r.market = ${market} and r.status in ('running', 'paused', 'stopping') and not a.frozen`),
    );
    const total = await seatsOwned(tx, userId, market);
    if (Number(used) >= total)
      throw new AppError('NO_FREE_SEAT', { market, used: Number(used), total }, 'id');
    await tx
      .update(tradingAccounts)
      .set({ frozen: false, frozenReason: null, unfrozenAt: new Date(), updatedAt: new Date() })
      .where(eq(tradingAccounts.id, row.id));
  });
  return itemOf(deps.db, await getOwnAccount(deps.db, userId, id));
}
