import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  doublePrecision,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** bytea as a Node Buffer / Uint8Array (node-postgres gives Buffer, PGlite Uint8Array). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

// Ids are bigint identities everywhere (mode 'number': safe below 2^53). Timestamps are timestamptz.
// Users carry the referrer (bound once at registration) and the level they need; the wallet
// ledger is at the end of this file.

const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: id(),
    /** Lower-cased e-mail address, the login name. */
    mail: text('mail').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Invite code / UID shown to the user; unique, never reused. */
    userCode: text('user_code').notNull(),
    referrerId: bigint('referrer_id', { mode: 'number' }).references((): AnyPgColumn => users.id),
    userLevel: text('user_level').notNull().default('none'),
    locale: text('locale').notNull().default('zh-TW'),
    nickname: text('nickname'),
    payPwdHash: text('pay_pwd_hash'),
    /** Wrong payment passwords in a row; at 5 paying locks until pay_locked_until (15 minutes). */
    payPwdFailures: smallint('pay_pwd_failures').notNull().default(0),
    payLockedUntil: timestamp('pay_locked_until', { withTimezone: true }),
    /** When a payment-password attempt was last claimed (checkPayPassword): claims older than a minute were left by a dead process. */
    payPwdClaimedAt: timestamp('pay_pwd_claimed_at', { withTimezone: true }),
    selectedDataSource: text('selected_data_source'),
    /** ISO country of residence declared at registration. */
    country: text('country').notNull(),
    /** Set by an operator (console): a frozen user cannot sign in and their sessions stop working. */
    frozenAt: timestamp('frozen_at', { withTimezone: true }),
    frozenReason: text('frozen_reason'),
    /** Two-step verification: the TOTP secret, sealed (platform/totp.ts); null while it is off. */
    totpSecret: text('totp_secret'),
    /** A secret from `2fa/setup` that `2fa/enable` has not proved yet (sealed). */
    totpPendingSecret: text('totp_pending_secret'),
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
    /** The last TOTP time step accepted: a code is good once. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }).notNull().default(0),
    /** Wrong step-up codes in a row (claimed before each check); at 5, step-up pauses until two_factor_locked_until. */
    twoFactorFailures: smallint('two_factor_failures').notNull().default(0),
    twoFactorLockedUntil: timestamp('two_factor_locked_until', { withTimezone: true }),
    /** The security lock: no withdrawal nor new withdrawal address before this (a password, payment password or two-step change). */
    withdrawLockedUntil: timestamp('withdraw_locked_until', { withTimezone: true }),
    /** Printed on the first line of every e-mail the platform sends the user (set by them). */
    antiPhishingPhrase: text('anti_phishing_phrase'),
    /** The open passkey registration's WebAuthn challenge (passkeys/options), until when. */
    passkeyChallenge: text('passkey_challenge'),
    passkeyChallengeUntil: timestamp('passkey_challenge_until', { withTimezone: true }),
    /** A passkey step-up's challenge (user/api/2fa/passkey), used once. */
    stepUpChallenge: text('step_up_challenge'),
    stepUpChallengeUntil: timestamp('step_up_challenge_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_mail_key').on(t.mail),
    uniqueIndex('users_user_code_key').on(t.userCode),
    index('users_referrer_idx').on(t.referrerId),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** sha256 (hex) of the bearer token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Last request with the token, to the minute (written at most once a minute). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_key').on(t.tokenHash),
    index('sessions_user_idx').on(t.userId),
  ],
);

export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: id(),
    mail: text('mail').notNull(),
    /** REGISTER | LOGIN_PWD_RESET | MAIL_PAID_PWD_RESET */
    type: text('type').notNull(),
    /** sha256 (hex) of mail, type and code; null when no code was issued (answer kept identical). */
    codeHash: text('code_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('verification_codes_mail_idx').on(t.mail, t.createdAt)],
);

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    to: text('to').notNull(),
    /** Subject and text are kept until the mail is delivered (then null), and one carrying a code never past `secretUntil`. */
    subject: text('subject'),
    text: text('text'),
    /** The end of the code the mail carries (a verification code's expiry); null: nothing secret. */
    secretUntil: timestamp('secret_until', { withTimezone: true }),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    error: text('error'),
  },
  (t) => [
    index('mail_outbox_to_idx').on(t.to, t.createdAt),
    index('mail_outbox_secret_idx').on(t.secretUntil).where(sql`${t.text} IS NOT NULL AND ${t.secretUntil} IS NOT NULL`),
  ],
);

export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: id(),
    mail: text('mail').notNull(),
    ip: text('ip').notNull(),
    success: boolean('success').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('login_attempts_mail_idx').on(t.mail, t.createdAt),
    index('login_attempts_ip_idx').on(t.ip, t.createdAt),
  ],
);

/** A user's recovery codes (SHA-256), each good once instead of a TOTP code. */
export const userRecoveryCodes = pgTable(
  'user_recovery_codes',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ name: 'user_recovery_codes_pkey', columns: [t.userId, t.codeHash] })],
);

/**
 * The sign-in's second step: a right password with two-step on gives a challenge (its sha256
 * kept), good for 5 minutes and 5 wrong codes (attempts are claimed before each check).
 */
export const loginChallenges = pgTable(
  'login_challenges',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    challengeHash: text('challenge_hash').notNull(),
    ip: text('ip').notNull(),
    userAgent: text('user_agent'),
    attempts: smallint('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    /** The WebAuthn challenge a passkey signs for this sign-in (login/2fa/passkey), when asked. */
    webauthnChallenge: text('webauthn_challenge'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('login_challenges_hash_key').on(t.challengeHash), index('login_challenges_user_idx').on(t.userId)],
);

/** Passkeys (WebAuthn credentials) of a user, a second factor beside the authenticator app (migration 0052). */
export const userPasskeys = pgTable(
  'user_passkeys',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** base64url credential id, as the browser names it. */
    credentialId: text('credential_id').notNull(),
    /** base64url COSE public key. */
    publicKey: text('public_key').notNull(),
    /** The signature counter last seen (0: the authenticator keeps none). */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    /** JSON array of transports (usb, internal, hybrid…). */
    transports: text('transports'),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('user_passkeys_credential_key').on(t.credentialId), index('user_passkeys_user_idx').on(t.userId)],
);

/**
 * Every change of the rebate rates with the time it took effect (issue 53 item 7): a payment is
 * settled at the rates in force when it was made. Before the first row: the defaults.
 */
export const rebateRateHistory = pgTable(
  'rebate_rate_history',
  {
    id: id(),
    rates: jsonb('rates').notNull(),
    since: timestamp('since', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('rebate_rate_history_since').on(t.since, t.id)],
);

export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .default(sql`now()`),
});

// ---------------------------------------------------------------- market data

/**
 * The candle store: one row per (source, symbol, timeframe, UTC month), the month's candles as six
 * little-endian Float64 columns (time, open, high, low, close, volume) in `data`. A year of 1m
 * candles is 12 rows instead of 525,600, so a backtest's range loads in one short query straight
 * into Float64Arrays. Keyed by open time (the month's first candle time bucket).
 */
export const candleChunks = pgTable(
  'candle_chunks',
  {
    /** binance | okx | dukascopy | oanda | fxcm | file names of other importers */
    source: text('source').notNull(),
    symbol: text('symbol').notNull(),
    /** 1m 5m 15m 30m 1h 4h 1d */
    timeframe: text('timeframe').notNull(),
    /** ms since epoch of the first instant of the UTC month the chunk holds. */
    chunkStart: bigint('chunk_start', { mode: 'number' }).notNull(),
    firstTime: bigint('first_time', { mode: 'number' }).notNull(),
    lastTime: bigint('last_time', { mode: 'number' }).notNull(),
    count: integer('count').notNull(),
    data: bytea('data').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.source, t.symbol, t.timeframe, t.chunkStart] })],
);

/** Import runs (file, ccxt, dukascopy): progress, resumable cursor, outcome. */
export const marketImports = pgTable(
  'market_imports',
  {
    id: id(),
    /** file | ccxt | dukascopy */
    kind: text('kind').notNull(),
    source: text('source').notNull(),
    symbol: text('symbol').notNull(),
    timeframe: text('timeframe').notNull(),
    /** queued | running | done | failed */
    status: text('status').notNull().default('queued'),
    progress: smallint('progress').notNull().default(0),
    fromMs: bigint('from_ms', { mode: 'number' }),
    toMs: bigint('to_ms', { mode: 'number' }),
    /** Last time fully stored: a resumed run continues after it. */
    cursorMs: bigint('cursor_ms', { mode: 'number' }),
    /** File path (kind file) or other origin detail. */
    origin: text('origin'),
    rows: integer('rows').notNull().default(0),
    message: text('message'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('market_imports_series_idx').on(t.source, t.symbol, t.timeframe, t.createdAt)],
);

// ---------------------------------------------------------------- backtests

/** Spec §4 statuses: 1 running, 2 success, 3 fail, 4 liquidate, 5 capital (insufficient principal). */
export const backtests = pgTable(
  'backtests',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: smallint('status').notNull().default(1),
    progress: smallint('progress').notNull().default(0),
    strategy: text('strategy').notNull(),
    /** mt5 | binance (the data source / market) */
    dataSource: text('data_source').notNull(),
    /** Where the candles come from (candle_chunks.source). */
    candleSource: text('candle_source').notNull(),
    symbol: text('symbol').notNull(),
    interval: text('interval').notNull(),
    timezone: text('timezone').notNull().default('UTC'),
    /** Validated strategy parameters, as the strategy schema outputs them. */
    params: jsonb('params').notNull(),
    capital: numeric('capital', { precision: 24, scale: 8 }).notNull(),
    leverage: numeric('leverage', { precision: 12, scale: 4 }).notNull(),
    fromAt: timestamp('from_at', { withTimezone: true }).notNull(),
    toAt: timestamp('to_at', { withTimezone: true }).notNull(),
    /** Why it failed / liquidated / ran out of capital, or was cancelled (machine key + detail). */
    statusReason: text('status_reason'),
    /** Report figures without the long arrays (equity, trades live in backtest_results). */
    summary: jsonb('summary'),
    jobId: text('job_id'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('backtests_user_idx').on(t.userId, t.status, t.createdAt),
    index('backtests_running_idx').on(t.status),
  ],
);

/** The long parts of a finished backtest: equity curve, trades (order log), monthly returns. */
export const backtestResults = pgTable('backtest_results', {
  backtestId: bigint('backtest_id', { mode: 'number' })
    .primaryKey()
    .references(() => backtests.id, { onDelete: 'cascade' }),
  equity: jsonb('equity').notNull(),
  trades: jsonb('trades').notNull(),
  monthly: jsonb('monthly').notNull(),
  createdAt: createdAt(),
});

/** AI parameter recommendations (the backtest tab's front door). */
export const recommendations = pgTable(
  'recommendations',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** running | done | failed | cancelled */
    status: text('status').notNull().default('running'),
    progress: smallint('progress').notNull().default(0),
    strategy: text('strategy').notNull(),
    dataSource: text('data_source').notNull(),
    candleSource: text('candle_source').notNull(),
    symbol: text('symbol').notNull(),
    capital: numeric('capital', { precision: 24, scale: 8 }).notNull(),
    fromAt: timestamp('from_at', { withTimezone: true }).notNull(),
    toAt: timestamp('to_at', { withTimezone: true }).notNull(),
    /** Fixed parameters the search does not vary (interval, leverage, side…). */
    fixed: jsonb('fixed').notNull(),
    budget: integer('budget'),
    seed: integer('seed').notNull().default(1),
    result: jsonb('result'),
    error: text('error'),
    jobId: text('job_id'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('recommendations_user_idx').on(t.userId, t.createdAt)],
);

// ---------------------------------------------------------------- entitlements

/**
 * What a user may use beyond the basic rights: backtest slots and account seats per market.
 * Operator grants now (`npm run ops`); the wallet work adds purchased packs as rows of the same
 * table (with `expires_at` and the purchase that created them).
 */
export const entitlementGrants = pgTable(
  'entitlement_grants',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** backtest_slot | seat | unlock (the basic rights granted, not bought) */
    kind: text('kind').notNull(),
    /** forex | crypto, or null when it counts for both */
    market: text('market'),
    quantity: integer('quantity').notNull(),
    /** operator | purchase | basic */
    origin: text('origin').notNull().default('operator'),
    note: text('note'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('entitlement_grants_user_idx').on(t.userId, t.kind)],
);

// ---------------------------------------------------------------- trading accounts and robots

/**
 * A user's trading account on one market: crypto by exchange (binance | okx) with an API key, or
 * forex through the MT5 bridge (exchange mt5). Secrets are AES-256-GCM ciphertexts (nonce + tag +
 * data) under a per-record key wrapped by the server's master key, with (user id, account id) as
 * associated data; only the last 4 characters of the API key are kept in clear. Unbinding sets
 * `unbound_at` (robots' history still names the account).
 */
export const tradingAccounts = pgTable(
  'trading_accounts',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** forex | crypto */
    market: text('market').notNull(),
    /** binance | okx | mt5 */
    exchange: text('exchange').notNull(),
    accountName: text('account_name').notNull(),
    remark: text('remark'),
    /** Per-record data key, wrapped (encrypted) by the master key. */
    wrappedKey: bytea('wrapped_key'),
    apiKeyEnc: bytea('api_key_enc'),
    secretKeyEnc: bytea('secret_key_enc'),
    passphraseEnc: bytea('passphrase_enc'),
    /** Last 4 characters of the API key (or MT5 login), for the masked display. */
    keyLast4: text('key_last4'),
    /** SHA-256 of the API key: refuses binding the same key twice per user. */
    apiKeyHash: text('api_key_hash'),
    leverage: integer('leverage').notNull().default(10),
    frozen: boolean('frozen').notNull().default(false),
    frozenReason: text('frozen_reason'),
    /** Seat expiry (robots/seat-expiry.ts): when it froze the account, when the owner was mailed, when they released it. */
    frozenAt: timestamp('frozen_at', { withTimezone: true }),
    freezeNotifiedAt: timestamp('freeze_notified_at', { withTimezone: true }),
    unfrozenAt: timestamp('unfrozen_at', { withTimezone: true }),
    /** Last key check: {canTrade, canWithdraw, ipRestricted, oneWay, crossMargin, warnings, checkedAt}. */
    keyCheck: jsonb('key_check'),
    /** MT5: SHA-256 of the bridge token (shown once), the login/server the first hello bound it to. */
    bridgeTokenHash: text('bridge_token_hash'),
    mt5Login: text('mt5_login'),
    mt5Server: text('mt5_server'),
    /** MT5: last heartbeat and its figures {balance, equity, freeMargin, termConnected, …}. */
    bridgeSeenAt: timestamp('bridge_seen_at', { withTimezone: true }),
    bridgeState: jsonb('bridge_state'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    unboundAt: timestamp('unbound_at', { withTimezone: true }),
  },
  (t) => [
    index('trading_accounts_user_idx').on(t.userId, t.market),
    uniqueIndex('trading_accounts_bridge_token_key').on(t.bridgeTokenHash),
    // One binding per API key and user (bound rows only): the service checks first, this enforces.
    uniqueIndex('trading_accounts_user_key_hash_key')
      .on(t.userId, t.apiKeyHash)
      .where(sql`${t.unboundAt} is null`),
  ],
);

/**
 * A trading robot: one strategy on one symbol of one account. `status`:
 * running → paused (user, or an error the runner cannot retry: `pause_reason`) → running (continue);
 * running | paused → stopping (user stop: the runner cancels orders and closes positions) → stopped;
 * error-stopped robots are `stopped` with `stop_reason`. The runner holding the lease
 * (`lease_owner` until `lease_until`, renewed by heartbeat) is the only one that acts on a robot.
 */
export const robots = pgTable(
  'robots',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => tradingAccounts.id),
    /** forex | crypto (the account's market) */
    market: text('market').notNull(),
    /** paper (simulated venue on live candles) | live (the account's venue) */
    mode: text('mode').notNull().default('live'),
    strategy: text('strategy').notNull(),
    symbol: text('symbol').notNull(),
    /** Trading pair as the venue names it (BTC/USDT:USDT, BTC-USDT-SWAP, EURUSD.m …). */
    tradingPair: text('trading_pair'),
    interval: text('interval').notNull(),
    /** Validated strategy parameters (the strategy schema's output). */
    params: jsonb('params').notNull(),
    capital: numeric('capital', { precision: 24, scale: 8 }).notNull(),
    leverage: integer('leverage').notNull(),
    /** running | paused | stopping | stopped */
    status: text('status').notNull().default('running'),
    pauseReason: text('pause_reason'),
    stopReason: text('stop_reason'),
    /** Realised PnL − fees, booked from fills (decimal string in the API). */
    income: numeric('income', { precision: 24, scale: 8 }).notNull().default('0'),
    /** Latest mark-to-market figures the runner saw {equity, floating, position, price, at}. */
    live: jsonb('live'),
    /** Open time (ms) of the last 1m input candle whose step the runner started (written ahead; a restart replays up to it). */
    lastCandleAt: bigint('last_candle_at', { mode: 'number' }),
    /** The drift monitor alerts its owner when the gap to its backtest passes this (percent of capital)… */
    driftAlertPct: numeric('drift_alert_pct', { precision: 6, scale: 2 }).notNull().default('2'),
    /** …or, when on, at each trade the robot missed. */
    driftAlertMissed: boolean('drift_alert_missed').notNull().default(true),
    sourceBacktestId: bigint('source_backtest_id', { mode: 'number' }),
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
  },
  (t) => [
    index('robots_user_idx').on(t.userId, t.status, t.createdAt),
    index('robots_account_idx').on(t.accountId, t.status),
    index('robots_lease_idx').on(t.status, t.leaseUntil),
  ],
);

/**
 * Every order intent, written (state `sending`) before it leaves, keyed by the client order id
 * derived from (robot, signal, leg). States: queued | sending | open | unknown | filled | canceled
 * | rejected (venues' VenueBroker IntentState).
 */
export const robotIntents = pgTable(
  'robot_intents',
  {
    id: id(),
    robotId: bigint('robot_id', { mode: 'number' })
      .notNull()
      .references(() => robots.id, { onDelete: 'cascade' }),
    clientOrderId: text('client_order_id').notNull(),
    tag: text('tag').notNull(),
    ticket: text('ticket').notNull(),
    /** open | close */
    action: text('action').notNull(),
    /** long | short */
    positionSide: text('position_side').notNull(),
    /** The venue request {symbol, side, type, amount, price, reduceOnly} and the engine intent. */
    request: jsonb('request').notNull(),
    intent: jsonb('intent').notNull(),
    state: text('state').notNull(),
    filled: numeric('filled', { precision: 30, scale: 12 }).notNull().default('0'),
    average: numeric('average', { precision: 30, scale: 12 }),
    venueOrderId: text('venue_order_id'),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('robot_intents_client_order_id_key').on(t.robotId, t.clientOrderId),
    index('robot_intents_state_idx').on(t.robotId, t.state),
    index('robot_intents_ticket_idx').on(t.robotId, t.ticket),
  ],
);

/** Fills booked for a robot (the order detail's fill list and the income). */
export const robotFills = pgTable(
  'robot_fills',
  {
    id: id(),
    robotId: bigint('robot_id', { mode: 'number' })
      .notNull()
      .references(() => robots.id, { onDelete: 'cascade' }),
    clientOrderId: text('client_order_id').notNull(),
    /** The venue's trade / deal id when it gave one, else `<clientOrderId>:<cumulative filled>`. */
    fillKey: text('fill_key').notNull(),
    action: text('action').notNull(),
    positionSide: text('position_side').notNull(),
    qty: numeric('qty', { precision: 30, scale: 12 }).notNull(),
    price: numeric('price', { precision: 30, scale: 12 }).notNull(),
    fee: numeric('fee', { precision: 24, scale: 8 }).notNull().default('0'),
    pnl: numeric('pnl', { precision: 24, scale: 8 }).notNull().default('0'),
    reason: text('reason'),
    filledAt: timestamp('filled_at', { withTimezone: true }).notNull(),
    /** Its value in the account currency (USDT / USD): |qty| × contract size × price, JPY converted — what volume counts. */
    notional: numeric('notional', { precision: 30, scale: 8 }).notNull(),
    /**
     * Issue 53 item 12: why the fill check found this fill made up (`outsideCandle`, `overMargin`);
     * a suspect fill counts for no VIP volume or ranking. Null: counts.
     */
    suspect: text('suspect'),
    /** When the fill check looked at it; null: a live MT5 fill (its EA's word) waiting for the check. */
    checkedAt: timestamp('checked_at', { withTimezone: true }).defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('robot_fills_key').on(t.robotId, t.fillKey),
    index('robot_fills_robot_idx').on(t.robotId, t.filledAt),
    index('robot_fills_filled_at_idx').on(t.filledAt),
    index('robot_fills_unchecked').on(t.filledAt).where(sql`${t.checkedAt} is null`),
    index('robot_fills_suspect').on(t.checkedAt).where(sql`${t.suspect} is not null`),
    // The fill check sums an order's fills and a ticket's.
    index('robot_fills_order_idx').on(t.robotId, t.clientOrderId),
  ],
);

/** What happened to a robot, for its detail page: started, paused, continued, error, stopped, reconciled … */
export const robotEvents = pgTable(
  'robot_events',
  {
    id: id(),
    robotId: bigint('robot_id', { mode: 'number' })
      .notNull()
      .references(() => robots.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** Machine key of the message (i18n) and its parameters / detail. */
    message: text('message'),
    detail: jsonb('detail'),
    createdAt: createdAt(),
  },
  (t) => [index('robot_events_robot_idx').on(t.robotId, t.createdAt)],
);

/** MT5 deals reported by the EA (the fill record of forex robots); unique per account and deal. */
export const mt5Deals = pgTable(
  'mt5_deals',
  {
    id: id(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => tradingAccounts.id, { onDelete: 'cascade' }),
    deal: text('deal').notNull(),
    order: text('order'),
    positionId: text('position_id'),
    magic: text('magic'),
    clientOrderId: text('client_order_id'),
    payload: jsonb('payload').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('mt5_deals_account_deal_key').on(t.accountId, t.deal)],
);

// ---- Wallet ledger ----------------------------------------------------------------------------
// Double entry (TigerBeetle's model): every movement is one entry whose lines sum to zero. Amounts
// are micro-units (6 decimals) in BIGINT, `bigint` in code, never a JS number. An account's
// `posted` is credits − debits of its posted lines; a pending entry (a hold) counts in
// `pending_in` / `pending_out` until it is posted or voided. User wallets may not overdraw:
// posted − pending_out ≥ 0, checked by the ledger and enforced by the database.

/** Ledger accounts: each user's balance and rebate wallet, and the platform's own accounts. */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: id(),
    /** `user:<id>:balance`, `user:<id>:rebate`, `platform:<kind>`. */
    code: text('code').notNull(),
    /** balance | rebate | revenue | fees | deposit_clearing | withdrawal_holds | rebate_expense | adjustments */
    kind: text('kind').notNull(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    noOverdraft: boolean('no_overdraft').notNull(),
    posted: bigint('posted', { mode: 'bigint' }).notNull().default(sql`0`),
    pendingIn: bigint('pending_in', { mode: 'bigint' }).notNull().default(sql`0`),
    pendingOut: bigint('pending_out', { mode: 'bigint' }).notNull().default(sql`0`),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_code_key').on(t.code),
    uniqueIndex('ledger_accounts_user_kind_key').on(t.userId, t.kind),
    check('ledger_accounts_no_overdraft', sql`not ${t.noOverdraft} or ${t.posted} - ${t.pendingOut} >= 0`),
    check('ledger_accounts_pending_non_negative', sql`${t.pendingIn} >= 0 and ${t.pendingOut} >= 0`),
  ],
);

/** Journal entries: one per movement, unique per idempotency key. */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: id(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** sha-256 of the command: the same key with another body is refused. */
    requestHash: text('request_hash').notNull(),
    /** What moved: adjust, transfer, deposit, withdrawal, … */
    kind: text('kind').notNull(),
    /** posted | pending | voided */
    status: text('status').notNull(),
    /** The user the movement belongs to (their records), null for platform-only entries. */
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    memo: text('memo'),
    meta: jsonb('meta'),
    createdAt: createdAt(),
    /** When a pending entry was posted or voided, and the key of that command. */
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolutionKey: text('resolution_key'),
  },
  (t) => [
    uniqueIndex('ledger_entries_key').on(t.idempotencyKey),
    // The payments of a day in order, for rebate settlement (partial: only purchases pay this write).
    index('ledger_entries_purchase_idx').on(t.createdAt, t.id).where(sql`${t.kind} = 'purchase'`),
    // Partial: most entries are never resolved, and every index entry costs each movement a write.
    uniqueIndex('ledger_entries_resolution_key').on(t.resolutionKey).where(sql`${t.resolutionKey} is not null`),
    check('ledger_entries_status', sql`${t.status} in ('posted', 'pending', 'voided')`),
  ],
);

/** Lines of an entry: a signed amount on one account (+ credit, − debit); an entry's lines sum to zero. */
export const ledgerLines = pgTable(
  'ledger_lines',
  {
    id: id(),
    entryId: bigint('entry_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerEntries.id),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerAccounts.id),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    /** The account's posted balance once this line was posted (null while pending or voided). */
    balanceAfter: bigint('balance_after', { mode: 'bigint' }),
    /** Copied from the account and the entry (both never change): a user's records are one index range. */
    userId: bigint('user_id', { mode: 'number' }),
    kind: text('kind'),
  },
  (t) => [
    // Only the indexes a request reads: records and wallet figures by user, pending resolution by
    // entry. No (account_id, id): verification scans everything, and each index costs every line.
    index('ledger_lines_entry_idx').on(t.entryId),
    index('ledger_lines_user_idx').on(t.userId, t.id),
    index('ledger_lines_user_kind_idx').on(t.userId, t.kind, t.id),
    check('ledger_lines_amount_non_zero', sql`${t.amount} <> 0`),
  ],
);

/** Wallet record exports (pg-boss job `wallet-export`): exporting → exported | failed; files kept 3 days. */
export const walletExports = pgTable(
  'wallet_exports',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** csv | xlsx */
    format: text('format').notNull(),
    fromMs: bigint('from_ms', { mode: 'number' }),
    toMs: bigint('to_ms', { mode: 'number' }),
    /** exporting | exported | failed */
    status: text('status').notNull(),
    rows: integer('rows'),
    /** File name under <DATA_DIR>/exports (null until exported). */
    file: text('file'),
    error: text('error'),
    /** The language of the request: the file's column headers (null: the user's profile language). */
    locale: text('locale'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('wallet_exports_user_idx').on(t.userId, t.id), check('wallet_exports_status', sql`${t.status} in ('exporting', 'exported', 'failed')`)],
);

/**
 * Deposit addresses: one per user and network, derived from the operator's extended public key at
 * `0/<user id>`. BEP20 and TRC20 share the 20 bytes; the chain watcher matches transfers by them.
 */
export const depositAddresses = pgTable(
  'deposit_addresses',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** BEP20 | TRC20 */
    network: text('network').notNull(),
    derivationIndex: bigint('derivation_index', { mode: 'number' }).notNull(),
    /** As the user sees it: an EVM checksum address (BEP20) or a Tron base58check address (TRC20). */
    address: text('address').notNull(),
    /** The 20 address bytes as lowercase 0x hex. */
    addressHex: text('address_hex').notNull(),
    /** BIP32 fingerprint of the extended key it came from (the key may be rotated; old addresses stay watched). */
    keyFingerprint: bigint('key_fingerprint', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.network] }),
    uniqueIndex('deposit_addresses_network_hex_key').on(t.network, t.addressHex),
    check('deposit_addresses_network', sql`${t.network} in ('BEP20', 'TRC20')`),
  ],
);

/** Per network, where the deposit watcher reads the chain next, and how its last attempt went. */
export const chainCursors = pgTable('chain_cursors', {
  /** BEP20 | TRC20 */
  network: text('network').primaryKey(),
  /** The first block not yet final for us: every block below it was scanned with its confirmations complete. */
  nextBlock: bigint('next_block', { mode: 'number' }).notNull(),
  /** The chain's head at the last successful scan (confirmations are counted from it). */
  lastHead: bigint('last_head', { mode: 'number' }),
  chainId: bigint('chain_id', { mode: 'number' }),
  scannedAt: timestamp('scanned_at', { withTimezone: true }),
  /** Consecutive failed scans (the watcher backs off) and the last error, for the operator. */
  failures: integer('failures').notNull().default(0),
  lastError: text('last_error'),
  lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
});

/**
 * USDT transfers to deposit addresses, one per (network, tx hash, log index): pending while
 * unconfirmed (dropped if a reorganisation removes it), confirmed once deep enough, credited by
 * one ledger entry per batch (a batch gathers transfers below the minimum until they reach it).
 */
export const chainDeposits = pgTable(
  'chain_deposits',
  {
    id: id(),
    network: text('network').notNull(),
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    blockHash: text('block_hash').notNull(),
    fromAddress: text('from_address').notNull(),
    /** The deposit address's 20 bytes (lowercase 0x hex). */
    toHex: text('to_hex').notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** The token's own units as sent (18 decimals on BSC, 6 on Tron), exact. */
    rawAmount: numeric('raw_amount', { precision: 78, scale: 0 }).notNull(),
    /** Micro-USDT credited: the raw amount rounded down to 6 decimals. */
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    /** pending | dropped | confirmed | credited */
    status: text('status').notNull(),
    /** The ledger entry's idempotency key, set before it is posted (a crash re-posts the same batch). */
    batchKey: text('batch_key'),
    entryId: bigint('entry_id', { mode: 'number' }),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    creditedAt: timestamp('credited_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('chain_deposits_transfer_key').on(t.network, t.txHash, t.logIndex),
    index('chain_deposits_user_idx').on(t.userId, t.id),
    index('chain_deposits_open_idx').on(t.network, t.status, t.blockNumber).where(sql`${t.status} in ('pending', 'confirmed')`),
    index('chain_deposits_batch_idx').on(t.batchKey),
    check('chain_deposits_status', sql`${t.status} in ('pending', 'dropped', 'confirmed', 'credited')`),
    check('chain_deposits_amount', sql`${t.amount} >= 0`),
  ],
);

/** Card deposits through a hosted checkout: open → paid (credited once) | expired | failed. */
export const cardCheckouts = pgTable(
  'card_checkouts',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** The client's key for this checkout: a retried create answers the same checkout. */
    idempotencyKey: text('idempotency_key').notNull(),
    provider: text('provider').notNull(),
    /** The provider's session id (null until the provider answered). */
    providerSession: text('provider_session'),
    checkoutUrl: text('checkout_url'),
    /** Micro-USDT to credit. */
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    /** open | paid | expired | failed */
    status: text('status').notNull(),
    entryId: bigint('entry_id', { mode: 'number' }),
    error: text('error'),
    createdAt: createdAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('card_checkouts_user_key').on(t.userId, t.idempotencyKey),
    uniqueIndex('card_checkouts_session_key').on(t.provider, t.providerSession),
    index('card_checkouts_user_idx').on(t.userId, t.id),
    check('card_checkouts_status', sql`${t.status} in ('open', 'paid', 'expired', 'failed')`),
    check('card_checkouts_amount', sql`${t.amount} > 0`),
  ],
);

/** Payment webhooks received, one per (provider, event id): a replayed delivery is answered, not applied again. */
export const cardEvents = pgTable(
  'card_events',
  {
    id: id(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    checkoutId: bigint('checkout_id', { mode: 'number' }).references(() => cardCheckouts.id),
    /** What it did: credited, expired, ignored, or why it was refused. */
    outcome: text('outcome').notNull(),
    receivedAt: createdAt(),
  },
  (t) => [uniqueIndex('card_events_event_key').on(t.provider, t.eventId)],
);

/**
 * Withdrawals: amount + fee held by a pending ledger entry at request, posted once paid out or
 * voided when rejected or failed. pendingReview → processing → completed | rejected | failed.
 */
/**
 * The withdrawal address book: withdrawals go only to a live entry whose `usableFrom` has passed.
 * `addressHex` is the address's 20 bytes (lowercase 0x hex), one entry per address however written.
 */
export const withdrawAddresses = pgTable(
  'withdraw_addresses',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    network: text('network').notNull(),
    address: text('address').notNull(),
    addressHex: text('address_hex').notNull(),
    label: text('label').notNull().default(''),
    createdAt: createdAt(),
    usableFrom: timestamp('usable_from', { withTimezone: true }).notNull(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('withdraw_addresses_live_key').on(t.userId, t.network, t.addressHex).where(sql`${t.removedAt} is null`),
    index('withdraw_addresses_user_idx').on(t.userId, t.id),
    check('withdraw_addresses_network', sql`${t.network} in ('BEP20', 'TRC20')`),
  ],
);

export const withdrawals = pgTable(
  'withdrawals',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** The client's key: the same request answers the same withdrawal; another body under it is refused. */
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** BEP20 | TRC20 */
    network: text('network').notNull(),
    address: text('address').notNull(),
    /** Micro-Lightning: what arrives, and the fee on top. */
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    fee: bigint('fee', { mode: 'bigint' }).notNull(),
    /** pendingReview | processing | completed | rejected | failed */
    status: text('status').notNull(),
    holdEntryId: bigint('hold_entry_id', { mode: 'number' }),
    txHash: text('tx_hash'),
    reason: text('reason'),
    /** Who let it through: `auto` (below the operator's limit) or `operator`; when. */
    reviewedBy: text('reviewed_by'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    /** How it was paid: `manual` (the operator sent it and entered the hash) or `hot-wallet`. */
    payout: text('payout'),
    /** The last look at the payout on chain, in the operator's words ("12/15 confirmations", "pays 9 …"). */
    payoutCheck: text('payout_check'),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** Hot-wallet payouts: the signed transaction, kept before it is sent (a restart re-sends it, never signs another), its sender and nonce. */
    payoutRaw: text('payout_raw'),
    payoutFrom: text('payout_from'),
    payoutNonce: bigint('payout_nonce', { mode: 'number' }),
    /** The chain's head when the hot wallet first signed this payout: where a search for what it paid starts. */
    payoutSignedBlock: bigint('payout_signed_block', { mode: 'number' }),
    /**
     * Passes in a row that found the kept transaction nowhere, and since when: a lagging node says
     * "not found" for a mined one, so the payout is never signed again on one such answer.
     */
    payoutAbsentReads: smallint('payout_absent_reads').notNull().default(0),
    payoutAbsentSince: timestamp('payout_absent_since', { withTimezone: true }),
    /** The kept transaction's gas price (wei, decimal text) and when it was signed: a payout stuck unmined is replaced at the same nonce with a higher one. */
    payoutGasPrice: text('payout_gas_price'),
    payoutSignedAt: timestamp('payout_signed_at', { withTimezone: true }),
    /** Hashes of the transactions it replaced at the same nonce: any one of them may be the one mined. */
    payoutEarlierHashes: text('payout_earlier_hashes').array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('withdrawals_user_key').on(t.userId, t.idempotencyKey),
    index('withdrawals_user_idx').on(t.userId, t.id),
    index('withdrawals_status_idx').on(t.status, t.id),
    // One transaction pays one withdrawal: a hash entered twice is refused.
    uniqueIndex('withdrawals_tx_key').on(t.network, t.txHash),
    // One nonce of the hot wallet signs one payout: two signed with the same could not both land.
    uniqueIndex('withdrawals_payout_nonce_key').on(t.payoutFrom, t.payoutNonce),
    check('withdrawals_status', sql`${t.status} in ('pendingReview', 'processing', 'completed', 'rejected', 'failed', 'cancelled')`),
    check('withdrawals_amounts', sql`${t.amount} > 0 and ${t.fee} >= 0`),
  ],
);

// ---------------------------------------------------------------- benefits

/**
 * The benefits catalogue (business.md "Benefits, seats and slots"): the price of the basic unlock
 * and of one seat or slot per month, in micro-Lightning, set by the operator (`npm run ops -- price:set`).
 */
export const benefitPrices = pgTable(
  'benefit_prices',
  {
    /** unlock | seat | slot */
    item: text('item').primaryKey(),
    price: bigint('price', { mode: 'bigint' }).notNull(),
    /** Who set it last: `seed` (the migration) or the operator's note. */
    updatedBy: text('updated_by').notNull().default('seed'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('benefit_prices_item', sql`${t.item} in ('unlock', 'seat', 'slot')`), check('benefit_prices_price', sql`${t.price} > 0`)],
);

/**
 * The referral tree as a closure table: one row per (ancestor, descendant) at depth ≥ 1, written
 * when the descendant registers (its referrer is bound once). Team = rows of an ancestor; upline =
 * rows of a descendant by depth.
 */
export const userTree = pgTable(
  'user_tree',
  {
    ancestorId: bigint('ancestor_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    descendantId: bigint('descendant_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    depth: integer('depth').notNull(),
  },
  (t) => [
    primaryKey({ name: 'user_tree_pkey', columns: [t.ancestorId, t.descendantId] }),
    // Migration 0033 adds INCLUDE (ancestor_id): uplines are read from the index alone.
    uniqueIndex('user_tree_upline_key').on(t.descendantId, t.depth),
    check('user_tree_depth', sql`${t.depth} >= 1`),
  ],
);

/** Each user's VIP figures of the last computation (referrals/vip.ts), rewritten by every run. */
export const vipProgress = pgTable('vip_progress', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id),
  asOf: date('as_of').notNull(),
  windowFrom: timestamp('window_from', { withTimezone: true }).notNull(),
  windowTo: timestamp('window_to', { withTimezone: true }).notNull(),
  ownVolume: numeric('own_volume', { precision: 30, scale: 2 }).notNull(),
  teamVolume: numeric('team_volume', { precision: 30, scale: 2 }).notNull(),
  activeDirect: integer('active_direct').notNull(),
  teamActive: integer('team_active').notNull(),
  /** The tier these figures reach ('none': none). */
  reached: text('reached').notNull(),
  computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
  /** The team page's figures over the statistics window of the same day (not cut at the 1st). */
  teamVolume30d: numeric('team_volume_30d', { precision: 30, scale: 2 }).notNull().default('0'),
  teamActive30d: integer('team_active_30d').notNull().default(0),
});

/** Every change of a user's level: reached by the figures, or set by an operator. */
export const userLevelChanges = pgTable(
  'user_level_changes',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    fromLevel: text('from_level').notNull(),
    toLevel: text('to_level').notNull(),
    /** reached | operator */
    reason: text('reason').notNull(),
    /** The day computed (reached), null for an operator's change. */
    asOf: date('as_of'),
    /** An operator's change: who set it (console operator's mail, or the shell's actor). */
    requestedBy: text('requested_by'),
    /** A grant of VIP2 and above from the console: the second operator who approved it. */
    approvedBy: text('approved_by'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_level_changes_user_idx').on(t.userId, t.id), check('user_level_changes_reason', sql`${t.reason} in ('reached', 'operator')`)],
);

/**
 * One purchase paid from the balance wallet: the basic unlock (once per user, never expires) or a
 * pack of `quantity` seats or slots of one market for `months` months. Written in the same
 * transaction as its ledger entry (the one keyed `benefit:<id>`), under the client's key.
 */
export const benefitPurchases = pgTable(
  'benefit_purchases',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** unlock | seat | slot */
    item: text('item').notNull(),
    /** forex | crypto; null for the unlock */
    market: text('market'),
    quantity: integer('quantity').notNull(),
    /** null for the unlock */
    months: integer('months'),
    /** Micro-Lightning paid: the catalogue's price × quantity × months when bought. */
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    autoRenew: boolean('auto_renew').notNull().default(false),
    /** Micro-Lightning per seat or slot and month a renewal pays: the price shown when auto-renew was switched on (the agreement's). */
    renewPrice: bigint('renew_price', { mode: 'bigint' }),
    /** A higher price the owner was told of (pack.priceChange), and the first renewal time it may reach (told + 7 days). */
    renewPriceNext: bigint('renew_price_next', { mode: 'bigint' }),
    renewPriceNextFrom: timestamp('renew_price_next_from', { withTimezone: true }),
    /** Periods added by auto-renew (each a row of benefit_renewals). */
    renewals: integer('renewals').notNull().default(0),
    purchasedAt: timestamp('purchased_at', { withTimezone: true }).notNull().defaultNow(),
    /** null: never (the unlock) */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('benefit_purchases_user_key').on(t.userId, t.idempotencyKey),
    // The unlock is bought once: two requests at once cannot both pay for it.
    uniqueIndex('benefit_purchases_one_unlock').on(t.userId).where(sql`${t.item} = 'unlock'`),
    index('benefit_purchases_user_idx').on(t.userId, t.id),
    index('benefit_purchases_expiry_idx').on(t.expiresAt),
    index('benefit_purchases_renew_idx').on(t.expiresAt).where(sql`${t.autoRenew}`),
    check('benefit_purchases_item', sql`${t.item} in ('unlock', 'seat', 'slot')`),
    check(
      'benefit_purchases_shape',
      sql`(${t.item} = 'unlock' and ${t.market} is null and ${t.months} is null and ${t.expiresAt} is null and ${t.quantity} = 1)
        or (${t.item} <> 'unlock' and ${t.market} in ('forex', 'crypto') and ${t.months} between 1 and 12 and ${t.expiresAt} is not null and ${t.quantity} between 1 and 1000)`,
    ),
    check('benefit_purchases_amount', sql`${t.amount} > 0`),
  ],
);

/**
 * One auto-renewal attempt of a pack: period n (1 = the first renewal) is tried once, whatever
 * happens — `renewed` with its ledger entry (key `benefit-renew:<purchase>:<n>`), or `failed` (too
 * little balance: the pack expires). The unique (purchase, period) key makes the job safe to run
 * twice or to kill at any line (Lago keys charges by period the same way).
 */
export const benefitRenewals = pgTable(
  'benefit_renewals',
  {
    id: id(),
    purchaseId: bigint('purchase_id', { mode: 'number' })
      .notNull()
      .references(() => benefitPurchases.id),
    period: integer('period').notNull(),
    /** renewed | failed */
    status: text('status').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    entryId: bigint('entry_id', { mode: 'number' }),
    reason: text('reason'),
    /** Failed: what the balance wallet held (micro-Lightning). */
    balance: bigint('balance', { mode: 'bigint' }),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    /** When the user was told of a failed renewal (mailed at least once). */
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('benefit_renewals_period_key').on(t.purchaseId, t.period),
    index('benefit_renewals_unnotified_idx').on(t.id).where(sql`${t.status} = 'failed' and ${t.notifiedAt} is null`),
    check('benefit_renewals_status', sql`${t.status} in ('renewed', 'failed')`),
  ],
);

/** Which version of an agreement a user accepted, and when (spec §2 agreements; issue 29). */
export const agreementAcceptances = pgTable(
  'agreement_acceptances',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** monthEquity | autoSubscribe */
    agreement: text('agreement').notNull(),
    version: text('version').notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.agreement, t.version] }), check('agreement_acceptances_agreement', sql`${t.agreement} in ('monthEquity', 'autoSubscribe')`)],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type SessionRow = typeof sessions.$inferSelect;
export type BacktestRow = typeof backtests.$inferSelect;
export type RecommendationRow = typeof recommendations.$inferSelect;
export type CandleChunkRow = typeof candleChunks.$inferSelect;
export type TradingAccountRow = typeof tradingAccounts.$inferSelect;
export type RobotRow = typeof robots.$inferSelect;
export type RobotIntentRow = typeof robotIntents.$inferSelect;
export type RobotFillRow = typeof robotFills.$inferSelect;
export type LedgerAccountRow = typeof ledgerAccounts.$inferSelect;
export type LedgerEntryRow = typeof ledgerEntries.$inferSelect;

/**
 * Rebate settlement (referrals/rebates.ts; business.md "Settlement, precisely"): one row per source
 * payment settled — a posted ledger entry of kind purchase — written in the transaction that posts
 * its rebates (the ledger entry keyed `rebate:<entry_id>`, none when nobody earned). The row is the
 * claim: a payment is settled once, however often or however killed the job runs.
 */
export const rebatePayments = pgTable('rebate_payments', {
  entryId: bigint('entry_id', { mode: 'number' })
    .primaryKey()
    .references(() => ledgerEntries.id),
  payerId: bigint('payer_id', { mode: 'number' })
    .notNull()
    .references(() => users.id),
  /** Micro-Lightning paid. */
  amount: bigint('amount', { mode: 'bigint' }).notNull(),
  paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
  /** Micro-Lightning paid out in rebates on it (what is rounded away stays with the platform). */
  rebateTotal: bigint('rebate_total', { mode: 'bigint' }).notNull(),
  settledAt: timestamp('settled_at', { withTimezone: true }).notNull().defaultNow(),
});

/** What one referrer earned on one payment: the differential of their level, or a same-level share. */
export const rebates = pgTable(
  'rebates',
  {
    id: id(),
    paymentEntryId: bigint('payment_entry_id', { mode: 'number' })
      .notNull()
      .references(() => rebatePayments.entryId),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    payerId: bigint('payer_id', { mode: 'number' }).notNull(),
    /** 1 = the payer's referrer. */
    depth: integer('depth').notNull(),
    /** The level the earner held when the payment was made. */
    level: text('level').notNull(),
    /** differential | share */
    kind: text('kind').notNull(),
    /** Basis points of the payment (differential) or of the referral's differential (share). */
    rate: integer('rate').notNull(),
    paymentAmount: bigint('payment_amount', { mode: 'bigint' }).notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
    /** When it reached the rebate wallet. */
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('rebates_payment_user_key').on(t.paymentEntryId, t.userId, t.kind),
    // Migration 0029 adds INCLUDE (amount): today/month/total sums read the index alone.
    index('rebates_user_idx').on(t.userId, t.createdAt, t.id),
    check('rebates_kind', sql`${t.kind} in ('differential', 'share')`),
    check('rebates_amount', sql`${t.amount} > 0`),
  ],
);

/** Leaderboards (referrals/rankings.ts): each board's ranked users of the last daily computation. */
export const rankingEntries = pgTable(
  'ranking_entries',
  {
    /** volume | team | rebate */
    board: text('board').notNull(),
    rank: integer('rank').notNull(),
    /** A user's id; no foreign key (migration 0033): the boards are rewritten whole from users daily. */
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    value: numeric('value', { precision: 30, scale: 6 }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'ranking_entries_pkey', columns: [t.board, t.rank] }),
    uniqueIndex('ranking_entries_user_key').on(t.board, t.userId),
    check('ranking_entries_board', sql`${t.board} in ('volume', 'team', 'rebate')`),
  ],
);

/**
 * Dividends (referrals/dividends.ts): one row per month settled — the claim, written in the
 * transaction that pays it (the ledger entry keyed `dividend:<month>`) — and one per user paid.
 */
export const dividendMonths = pgTable('dividend_months', {
  /** YYYY-MM, months of the platform timezone. */
  month: text('month').primaryKey(),
  /** Micro-Lightning paid for purchases in the month. */
  revenue: bigint('revenue', { mode: 'bigint' }).notNull(),
  /** Basis points of the revenue shared. */
  rate: integer('rate').notNull(),
  pool: bigint('pool', { mode: 'bigint' }).notNull(),
  recipients: integer('recipients').notNull(),
  perUser: bigint('per_user', { mode: 'bigint' }).notNull(),
  settledAt: timestamp('settled_at', { withTimezone: true }).notNull().defaultNow(),
});

export const dividends = pgTable(
  'dividends',
  {
    month: text('month')
      .notNull()
      .references(() => dividendMonths.month),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** The level held at the month's end. */
    level: text('level').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ name: 'dividends_pkey', columns: [t.month, t.userId] })],
);

/**
 * Notices and news (notices/): written by operators, one text per locale. `status` is draft,
 * published or unpublished; a published notice whose publish_at is still to come reads as
 * scheduled (nothing has to run at that time).
 */
export const notices = pgTable(
  'notices',
  {
    id: id(),
    /** notice | news */
    category: text('category').notNull(),
    /** draft | published | unpublished */
    status: text('status').notNull().default('draft'),
    pinned: boolean('pinned').notNull().default(false),
    /** Set when published (the time given, or the moment of publishing). */
    publishAt: timestamp('publish_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last user id the fan-out to notification channels has handed a row (migration 0038). */
    fanoutCursor: bigint('fanout_cursor', { mode: 'number' }).notNull().default(0),
    /** When the fan-out finished (set for notices live before 0038: they are not sent). */
    fannedOutAt: timestamp('fanned_out_at', { withTimezone: true }),
  },
  (t) => [
    index('notices_fanout_idx').on(t.publishAt).where(sql`${t.fannedOutAt} is null and ${t.status} = 'published'`),
    check('notices_category', sql`${t.category} in ('notice', 'news')`),
    check('notices_status', sql`${t.status} in ('draft', 'published', 'unpublished')`),
    check('notices_published_at', sql`${t.status} = 'draft' or ${t.publishAt} is not null`),
  ],
);

export const noticeTexts = pgTable(
  'notice_texts',
  {
    noticeId: bigint('notice_id', { mode: 'number' })
      .notNull()
      .references(() => notices.id, { onDelete: 'cascade' }),
    locale: text('locale').notNull(),
    title: text('title').notNull(),
    /** Markdown, rendered on the server when read. */
    body: text('body').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'notice_texts_pkey', columns: [t.noticeId, t.locale] })],
);

/** Which user opened which notice (absent: unread). */
export const noticeReads = pgTable(
  'notice_reads',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    noticeId: bigint('notice_id', { mode: 'number' })
      .notNull()
      .references(() => notices.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'notice_reads_pkey', columns: [t.userId, t.noticeId] })],
);

/**
 * The notification centre and its outbox: one row per event a user is told of, raised by the
 * triggers of migration 0035 in the transaction of the change itself (event_key unique), read by
 * the centre (read_at) and by the delivery job (delivered_at).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** robot.stopped | robot.error | robot.mt5Offline | withdraw.* | deposit.credited | pack.renewalFailed | account.frozen */
    kind: text('kind').notNull(),
    eventKey: text('event_key').notNull(),
    params: jsonb('params').notNull().default({}),
    /** The app route the item opens. */
    link: text('link'),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('notifications_event_key').on(t.eventKey),
    index('notifications_user_idx').on(t.userId, t.id),
    index('notifications_unread_idx').on(t.userId).where(sql`${t.readAt} is null`),
    index('notifications_undelivered_idx').on(t.id).where(sql`${t.deliveredAt} is null`),
  ],
);

/** A user's choice for one kind of notification on one channel; no row: the kind's default (all on but robot.filled). */
export const notificationPrefs = pgTable(
  'notification_prefs',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    kind: text('kind').notNull(),
    /** email | telegram | push */
    channel: text('channel').notNull(),
    enabled: boolean('enabled').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'notification_prefs_pkey', columns: [t.userId, t.kind, t.channel] }),
    index('notification_prefs_kind_user_idx').on(t.kind, t.userId).where(sql`${t.enabled}`),
  ],
);

/**
 * The Telegram chat a user receives notifications in. Linking: a one-time token (its SHA-256 kept,
 * 15 minutes) opened as t.me/<bot>?start=<token>; the bot's /start with it sets chat_id.
 */
export const telegramLinks = pgTable(
  'telegram_links',
  {
    userId: bigint('user_id', { mode: 'number' })
      .primaryKey()
      .references(() => users.id),
    chatId: text('chat_id'),
    tokenHash: text('token_hash'),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
    linkedAt: timestamp('linked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('telegram_links_token_key').on(t.tokenHash), index('telegram_links_chat_idx').on(t.chatId)],
);

/**
 * One notification on one channel: pending (due at next_at; a claim moves next_at past its lease),
 * sent, failed (attempts used up or refused for good) or skipped (the channel went away).
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    notificationId: bigint('notification_id', { mode: 'number' })
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    /** E-mail: the mail_outbox row written by the first attempt (a retry re-sends it, never writes another). */
    mailId: bigint('mail_id', { mode: 'number' }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'notification_deliveries_pkey', columns: [t.notificationId, t.channel] }),
    index('notification_deliveries_due_idx').on(t.nextAt).where(sql`${t.status} = 'pending'`),
  ],
);

/** A device a user turned Web Push on for: the push service's endpoint and the browser's keys (removed on 404/410). */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint_key').on(t.endpoint), index('push_subscriptions_user_idx').on(t.userId)],
);

/** Operators (migration 0039): a role of their own, signing in to the console with a password and TOTP. */
export const operators = pgTable(
  'operators',
  {
    id: id(),
    mail: text('mail').notNull(),
    /** argon2id */
    passwordHash: text('password_hash').notNull(),
    /** The TOTP secret, sealed (console/totp.ts). */
    totpSecret: text('totp_secret').notNull(),
    /** The last TOTP time step accepted: a code is good once. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }).notNull().default(0),
    /** Wrong second-factor codes in a row, over all sessions; SECOND_FACTOR_OPERATOR_MAX pause it. */
    secondFactorFailures: integer('second_factor_failures').notNull().default(0),
    secondFactorLockedUntil: timestamp('second_factor_locked_until', { withTimezone: true }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('operators_mail_key').on(t.mail)],
);

/** Recovery codes (SHA-256), each good once instead of a TOTP code. */
export const operatorRecoveryCodes = pgTable(
  'operator_recovery_codes',
  {
    operatorId: bigint('operator_id', { mode: 'number' })
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ name: 'operator_recovery_codes_pkey', columns: [t.operatorId, t.codeHash] })],
);

/** Console sessions: bearer tokens (SHA-256), shorter than users', with the last second factor's time. */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: id(),
    operatorId: bigint('operator_id', { mode: 'number' })
      .notNull()
      .references(() => operators.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    secondFactorAt: timestamp('second_factor_at', { withTimezone: true }),
    /** Wrong second-factor codes on this session; the 5th ends it. */
    secondFactorFailures: integer('second_factor_failures').notNull().default(0),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [uniqueIndex('operator_sessions_token_key').on(t.tokenHash)],
);

/** Wrong console passwords, per (operator, address): the lock-out is per address (migration 0050). */
export const operatorLoginFailures = pgTable(
  'operator_login_failures',
  {
    id: id(),
    operatorId: bigint('operator_id', { mode: 'number' })
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    ip: text('ip').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('operator_login_failures_idx').on(t.operatorId, t.ip, t.createdAt)],
);

/** Every operator action, from the console and from `npm run ops`; append-only (triggers refuse the rest). */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** console | ops */
    source: text('source').notNull(),
    operatorId: bigint('operator_id', { mode: 'number' }).references(() => operators.id),
    /** The operator's e-mail (console), or `ops:<system user>` (command line). */
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    objectType: text('object_type'),
    objectId: text('object_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    /** The command's arguments or the request's body, secrets left out. */
    detail: jsonb('detail'),
    /** done | refused | failed */
    outcome: text('outcome').notNull().default('done'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at, t.id),
    index('audit_log_object_idx').on(t.objectType, t.objectId),
    check('audit_log_source', sql`${t.source} in ('console', 'ops')`),
    check('audit_log_outcome', sql`${t.outcome} in ('done', 'refused', 'failed')`),
  ],
);

/**
 * Two people for big money (business.md): a wallet adjustment or withdrawal approval above the
 * operator-set amount waits here for a second operator; the database refuses an approval decided by
 * the operator who asked for it.
 */
export const operatorApprovals = pgTable(
  'operator_approvals',
  {
    id: id(),
    /** wallet.adjust | withdraw.approve | settings.change | user.level */
    kind: text('kind').notNull(),
    /** The user whose wallet is adjusted or level granted, or the withdrawal; none for a settings change. */
    objectId: bigint('object_id', { mode: 'number' }),
    /** Micro-Lightning moved (without sign); 0 for a settings change or a level grant. */
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    /** What the first operator asked for (an adjustment's wallet and signed amount; a settings group's values before and after). */
    request: jsonb('request').notNull(),
    reason: text('reason').notNull(),
    requestedBy: bigint('requested_by', { mode: 'number' })
      .notNull()
      .references(() => operators.id),
    /** The first operator's idempotency key: the same request twice is one approval. */
    requestKey: text('request_key').notNull(),
    /** pending | approved | rejected | cancelled */
    status: text('status').notNull().default('pending'),
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => operators.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decisionNote: text('decision_note'),
    /** What the approval did (the ledger entry, the withdrawal's state). */
    result: jsonb('result'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('operator_approvals_request_key').on(t.requestedBy, t.requestKey),
    uniqueIndex('operator_approvals_withdraw_pending').on(t.objectId).where(sql`${t.kind} = 'withdraw.approve' and ${t.status} = 'pending'`),
    uniqueIndex('operator_approvals_level_pending').on(t.objectId).where(sql`${t.kind} = 'user.level' and ${t.status} = 'pending'`),
    uniqueIndex('operator_approvals_settings_pending').on(sql`(${t.request}->>'group')`).where(sql`${t.kind} = 'settings.change' and ${t.status} = 'pending'`),
    index('operator_approvals_status_idx').on(t.status, t.id),
    check('operator_approvals_kind', sql`${t.kind} in ('wallet.adjust', 'withdraw.approve', 'settings.change', 'user.level')`),
    check('operator_approvals_status', sql`${t.status} in ('pending', 'approved', 'rejected', 'cancelled')`),
    check('operator_approvals_amount', sql`${t.amount} > 0 or ${t.kind} in ('settings.change', 'user.level')`),
    check('operator_approvals_object', sql`${t.objectId} is not null or ${t.kind} = 'settings.change'`),
    check('operator_approvals_two_people', sql`${t.status} <> 'approved' or (${t.decidedBy} is not null and ${t.decidedBy} <> ${t.requestedBy})`),
  ],
);

/**
 * What one operator moved alone (issue 53 item 1): a direct wallet adjustment or a withdrawal
 * approved without a second operator, written in the movement's transaction. Summed per user over
 * 24 hours and per platform day against `twoPersonAbove` and `soloDailyLimit`.
 */
export const operatorSoloMoves = pgTable(
  'operator_solo_moves',
  {
    id: id(),
    operatorId: bigint('operator_id', { mode: 'number' })
      .notNull()
      .references(() => operators.id),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    /** Micro-Lightning moved (without sign). */
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    /** wallet.adjust | withdraw.approve */
    kind: text('kind').notNull(),
    /** The adjustment's idempotency key or `withdraw:<id>`: a replay is not counted twice. */
    moveKey: text('move_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('operator_solo_moves_key').on(t.operatorId, t.moveKey),
    index('operator_solo_moves_operator_at').on(t.operatorId, t.createdAt),
    check('operator_solo_moves_kind', sql`${t.kind} in ('wallet.adjust', 'withdraw.approve')`),
    check('operator_solo_moves_amount', sql`${t.amount} > 0`),
  ],
);

/**
 * The drift monitor's shadow backtest of a robot (issue 33): where it has got to (`cursor`, the
 * open time of the last 1m candle stepped), built from `spec` (strategy, parameters, instrument,
 * capital, leverage, first candle; another spec starts it again), with its balance and equity.
 */
export const robotShadows = pgTable('robot_shadows', {
  robotId: bigint('robot_id', { mode: 'number' })
    .primaryKey()
    .references(() => robots.id, { onDelete: 'cascade' }),
  spec: text('spec').notNull(),
  fromMs: bigint('from_ms', { mode: 'number' }).notNull(),
  cursor: bigint('cursor', { mode: 'number' }).notNull(),
  fills: integer('fills').notNull().default(0),
  balance: doublePrecision('balance').notNull(),
  equity: doublePrecision('equity').notNull(),
  /** The gap is past the owner's threshold now, and this crossing was told of. */
  alertOver: boolean('alert_over').notNull().default(false),
  /** Missed trades already told of. */
  alertedMissed: integer('alerted_missed').notNull().default(0),
  /** Crossings of the threshold so far (each alert's key). */
  crossings: integer('crossings').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The shadow backtest's fills, in order (`seq`): what the backtest would have traded. */
export const robotShadowFills = pgTable(
  'robot_shadow_fills',
  {
    robotId: bigint('robot_id', { mode: 'number' })
      .notNull()
      .references(() => robots.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    /** The client order id the robot gives the same intent: the leg a live fill pairs with. */
    clientOrderId: text('client_order_id').notNull(),
    tag: text('tag').notNull(),
    ticket: text('ticket').notNull(),
    action: text('action').notNull(),
    side: text('side').notNull(),
    qty: doublePrecision('qty').notNull(),
    price: doublePrecision('price').notNull(),
    fee: doublePrecision('fee').notNull(),
    pnl: doublePrecision('pnl').notNull(),
    maker: boolean('maker').notNull(),
    reason: text('reason'),
    filledAt: bigint('filled_at', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'robot_shadow_fills_pkey', columns: [t.robotId, t.seq] }), index('robot_shadow_fills_order_idx').on(t.robotId, t.clientOrderId)],
);

/** Funding a live robot paid (negative) or received, as its venue reports it: once per payment. */
export const robotFunding = pgTable(
  'robot_funding',
  {
    robotId: bigint('robot_id', { mode: 'number' })
      .notNull()
      .references(() => robots.id, { onDelete: 'cascade' }),
    /** The venue's id of the payment. */
    venueId: text('venue_id').notNull(),
    amount: numeric('amount', { precision: 30, scale: 12 }).notNull(),
    /** ms */
    paidAt: bigint('paid_at', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'robot_funding_pkey', columns: [t.robotId, t.venueId] }), index('robot_funding_time_idx').on(t.robotId, t.paidAt)],
);
