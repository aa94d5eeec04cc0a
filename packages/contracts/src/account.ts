import { z } from 'zod';
import { INPUT_MAX_DEFAULT } from './constants';
import { stepUpFields } from './user';

// Trading accounts (API keys): `user/api/apikey/...` (docs/api.md, "Trading accounts").
//
// Secrets travel encrypted: the client encrypts `secretKey` and `passphrase` with the server's RSA
// public key (`GET user/api/apikey/public-key`, RSA-OAEP with SHA-256, Web Crypto) and sends the
// ciphertext in base64. The `apiKey` is an identifier in the exchanges' model (it is sent in
// clear in every signed request's header) and travels in clear over HTTPS; it is still stored
// encrypted and shown masked (last 4). Secrets are write-only: no answer ever contains them.

export const ACCOUNT_MARKETS = ['forex', 'crypto'] as const;
/** Why seat expiry froze an account and stopped its robots (`frozenReason`, robots' `stopReason`). */
export const SEAT_EXPIRED = 'seatExpired';
export type AccountMarket = (typeof ACCOUNT_MARKETS)[number];
export const CRYPTO_EXCHANGES = ['binance', 'okx'] as const;
export type CryptoExchange = (typeof CRYPTO_EXCHANGES)[number];
export const ACCOUNT_EXCHANGES = ['binance', 'okx', 'mt5'] as const;
export type AccountExchange = (typeof ACCOUNT_EXCHANGES)[number];
/** Exchanges of a market, in display order. */
export const EXCHANGES_OF_MARKET: Record<AccountMarket, readonly AccountExchange[]> = {
  crypto: CRYPTO_EXCHANGES,
  forex: ['mt5'],
};
export const marketOfExchange = (exchange: AccountExchange): AccountMarket =>
  exchange === 'mt5' ? 'forex' : 'crypto';
/** The market of a data source type (mt5 → forex, binance / okx → crypto). */
export const marketOfDataSourceType = (type: string): AccountMarket =>
  type === 'mt5' ? 'forex' : 'crypto';

export const ACCOUNT_NAME_MAX = 32;
export const ACCOUNT_REMARK_MAX = INPUT_MAX_DEFAULT;
export const API_KEY_MIN = 8;
export const API_KEY_MAX = 128;
/** base64 of one RSA-2048 (or up to 4096) ciphertext. */
export const SEALED_MAX = 700;
export const ACCOUNT_LEVERAGE_MAX: Record<AccountMarket, number> = { crypto: 125, forex: 500 };
export const ACCOUNT_LEVERAGE_DEFAULT: Record<AccountMarket, number> = { crypto: 10, forex: 100 };

/**
 * Warnings a bound key can carry: the spec's "position mode other than full may prevent orders"
 * (hedge / dual-side position mode, or an isolated margin mode), and a key without IP whitelist.
 */
export const ACCOUNT_WARNINGS = ['positionMode', 'noIpRestriction'] as const;
export type AccountWarning = (typeof ACCOUNT_WARNINGS)[number];

const idParam = z.coerce.number({ error: 'validation.invalidType' }).int().positive().max(Number.MAX_SAFE_INTEGER);
const idValue = z.number({ error: 'validation.invalidType' }).int().positive().max(Number.MAX_SAFE_INTEGER);

export const accountName = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(ACCOUNT_NAME_MAX);
export const accountRemark = z.string().trim().max(ACCOUNT_REMARK_MAX);
/** The exchange's API key id: visible characters only. */
export const apiKeyValue = z
  .string({ error: 'validation.required' })
  .trim()
  .min(API_KEY_MIN)
  .max(API_KEY_MAX)
  .regex(/^[\x21-\x7e]+$/, { error: 'validation.invalidFormat' });
/** A secret encrypted with the transport public key, base64. */
export const sealedSecret = z
  .string({ error: 'validation.required' })
  .trim()
  .min(16, { error: 'validation.required' })
  .max(SEALED_MAX)
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, { error: 'errors.SECRET_UNREADABLE' });
const leverageOf = (market: AccountMarket) =>
  z
    .number({ error: 'validation.leverageRequired' })
    .int({ error: 'validation.integer' })
    .min(1, { error: market === 'crypto' ? 'validation.leverageRangeCrypto' : 'validation.leverageRangeForex' })
    .max(ACCOUNT_LEVERAGE_MAX[market], {
      error: market === 'crypto' ? 'validation.leverageRangeCrypto' : 'validation.leverageRangeForex',
    });

// ---- requests ----

export const accountListQuery = z.strictObject({
  market: z.enum(ACCOUNT_MARKETS).optional(),
});
export type AccountListQuery = z.infer<typeof accountListQuery>;

export const accountIdQuery = z.strictObject({ id: idParam });
export const accountIdBody = z.strictObject({ id: idValue });

const cryptoBindFields = {
  ...stepUpFields,
  accountName,
  remark: accountRemark.optional(),
  apiKey: apiKeyValue,
  secretKey: sealedSecret,
  leverage: leverageOf('crypto'),
};

export const bindBinanceBody = z.strictObject({ exchange: z.literal('binance'), ...cryptoBindFields });
export const bindOkxBody = z.strictObject({
  exchange: z.literal('okx'),
  ...cryptoBindFields,
  /** OKX's API passphrase, encrypted like secretKey. */
  passphrase: sealedSecret,
});
export const bindMt5Body = z.strictObject({
  exchange: z.literal('mt5'),
  ...stepUpFields,
  accountName,
  remark: accountRemark.optional(),
  leverage: leverageOf('forex').optional(),
});
export const accountBindBody = z.discriminatedUnion('exchange', [bindBinanceBody, bindOkxBody, bindMt5Body], {
  error: 'validation.invalidOption',
});
export type AccountBindBody = z.infer<typeof accountBindBody>;

/**
 * Edit: name, remark, leverage; optionally new secrets (then `secretKey` is required, `apiKey`
 * defaults to the bound one, OKX `passphrase` too) which are checked with the venue again.
 */
export const accountEditBody = z.strictObject({
  id: idValue,
  accountName: accountName.optional(),
  /** Empty text clears the remark. */
  remark: accountRemark.optional(),
  leverage: z.number({ error: 'validation.invalidType' }).int({ error: 'validation.integer' }).min(1).max(500).optional(),
  apiKey: apiKeyValue.optional(),
  secretKey: sealedSecret.optional(),
  passphrase: sealedSecret.optional(),
  /** New keys only: the step-up, as binding asks (`twoFactorCode`, or an API_KEY e-mail `code`). */
  ...stepUpFields,
});
export type AccountEditBody = z.infer<typeof accountEditBody>;
/** MT5: a new bridge token, with the step-up binding asks. */
export const accountRotateBody = z.strictObject({ id: idValue, ...stepUpFields });

// ---- answers ----

export const accountKeyCheck = z.object({
  canTrade: z.boolean(),
  canWithdraw: z.boolean(),
  ipRestricted: z.boolean(),
  oneWay: z.boolean(),
  /** null on OKX (cross is chosen per order). */
  crossMargin: z.boolean().nullable(),
  /** ISO time of the check. */
  checkedAt: z.string(),
});
export type AccountKeyCheck = z.infer<typeof accountKeyCheck>;

export const BRIDGE_STATUSES = ['never', 'online', 'offline'] as const;
export type BridgeStatus = (typeof BRIDGE_STATUSES)[number];
/** A bridge silent for longer than this is offline (mt5-bridge.md: 60 s). */
export const BRIDGE_OFFLINE_AFTER_MS = 60_000;

export const accountBridge = z.object({
  status: z.enum(BRIDGE_STATUSES),
  seenAt: z.string().nullable(),
  login: z.string().nullable(),
  server: z.string().nullable(),
  balance: z.number().nullable(),
  equity: z.number().nullable(),
});
export type AccountBridge = z.infer<typeof accountBridge>;

export const accountItem = z.object({
  id: z.number(),
  market: z.enum(ACCOUNT_MARKETS),
  exchange: z.enum(ACCOUNT_EXCHANGES),
  accountName: z.string(),
  remark: z.string().nullable(),
  /** "****abcd" (last 4 of the API key); null for MT5. */
  apiKeyMasked: z.string().nullable(),
  leverage: z.number(),
  frozen: z.boolean(),
  frozenReason: z.string().nullable(),
  keyCheck: accountKeyCheck.nullable(),
  warnings: z.array(z.enum(ACCOUNT_WARNINGS)),
  /** Robots on it with status running, paused or stopping. */
  robotsRunning: z.number(),
  /** MT5 only. */
  bridge: accountBridge.nullable(),
  createdAt: z.string(),
});
export type AccountItem = z.infer<typeof accountItem>;

export const accountList = z.object({ list: z.array(accountItem) });
export type AccountList = z.infer<typeof accountList>;

/** Per-market overview of the entry page. */
export const accountOverview = z.object({
  markets: z.array(
    z.object({
      market: z.enum(ACCOUNT_MARKETS),
      exchanges: z.array(z.enum(ACCOUNT_EXCHANGES)),
      accounts: z.number(),
      frozen: z.number(),
      robotsRunning: z.number(),
    }),
  ),
});
export type AccountOverview = z.infer<typeof accountOverview>;

/** Bind / rotate answer. `bridgeToken` (MT5) is shown once: only its hash is stored. */
export const accountBindResult = z.object({
  account: accountItem,
  bridgeToken: z.string().nullable(),
});
export type AccountBindResult = z.infer<typeof accountBindResult>;

export const accountPublicKey = z.object({
  /** SPKI DER, base64: `crypto.subtle.importKey('spki', …, {name:'RSA-OAEP', hash:'SHA-256'})`. */
  spki: z.string(),
  pem: z.string(),
  algorithm: z.literal('RSA-OAEP-256'),
});
export type AccountPublicKey = z.infer<typeof accountPublicKey>;
