import { accessSync, constants, statSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { CODE_RESEND_SECONDS, MONEY_MAX_MICRO, parseMoney } from '@lq/contracts';
import { isEvmAddress, parseExtendedPublicKey, tronAddressBytes } from './chain-address';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

const ROLES = ['api', 'worker', 'runner', 'all'] as const;
export type Role = (typeof ROLES)[number];

const csv = z
  .string()
  .default('')
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );
const positiveInt = (def: number) => z.coerce.number().int().positive().default(def);
const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(def ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');
const optionalUrl = (protocols: RegExp) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || (URL.canParse(v) && protocols.test(new URL(v).protocol)), {
      error: `must be a URL (${protocols.source})`,
    });

/**
 * TRUST_PROXY: who may write `X-Forwarded-For`. `false` (none), the proxies' addresses or CIDRs
 * (comma-separated), or a hop count. `true` is refused: Fastify would then take the left-most
 * entry, which the client writes, and every per-IP limit would be the client's to choose.
 */
const isCidrOrIp = (v: string) => {
  const [addr, bits, extra] = v.split('/');
  const family = isIP(addr);
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
};
const trustProxy = z
  .string()
  .trim()
  .default('false')
  .transform((v, ctx): false | number | string[] => {
    const lower = v.toLowerCase();
    if (lower === '' || lower === 'false' || lower === '0' || lower === 'no') return false;
    if (lower === 'true' || lower === 'yes') {
      ctx.addIssue({ code: 'custom', message: "true would trust the client's own X-Forwarded-For (anyone could pick their IP); give the proxies' addresses or CIDRs (127.0.0.1,10.0.0.0/8) or their number (1)" });
      return z.NEVER;
    }
    if (/^\d+$/.test(v)) {
      const hops = Number(v);
      if (hops >= 1 && hops <= 10) return hops;
      ctx.addIssue({ code: 'custom', message: 'a hop count is 1 to 10' });
      return z.NEVER;
    }
    const entries = v.split(',').map((x) => x.trim()).filter(Boolean);
    const bad = entries.filter((x) => !isCidrOrIp(x));
    if (bad.length > 0) {
      ctx.addIssue({ code: 'custom', message: `not an IP address or CIDR: ${bad.join(', ')}` });
      return z.NEVER;
    }
    return entries;
  });

/** An amount of money, parsed exactly by the wallet's parser into micro-units (never a JS number). */
const money = (def: string) =>
  z
    .string()
    .trim()
    .default(def)
    .transform((v, ctx) => {
      const micro = parseMoney(v);
      if (micro === undefined || micro <= 0n || micro > MONEY_MAX_MICRO) {
        ctx.addIssue({ code: 'custom', message: 'must be an amount above 0 with at most 6 decimals, like 10 or 2500.5' });
        return z.NEVER;
      }
      return micro;
    });

/** Environment keys the server reads, with defaults. Parsed once at boot. */
function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** PEM certificate chain and key: set both and the server speaks HTTPS, HTTP/2 with HTTP/1.1 beside it. */
  TLS_CERT_FILE: z.string().min(1).optional(),
  TLS_KEY_FILE: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl(/^postgres(ql)?:$/),
  ROLE: z.enum(ROLES).default('all'),
  SMTP_URL: optionalUrl(/^smtps?:$/),
  /** Redis for the rate limits every API process shares; unset: each process keeps its own in memory. */
  REDIS_URL: optionalUrl(/^rediss?:$/),
  /** Prefix of this deployment's keys in that Redis (two deployments or test runs on one Redis). */
  REDIS_KEY_PREFIX: z.string().trim().min(1).max(64).default('lq:'),
  MAIL_FROM: z.string().min(3).default('Lightning Quant <no-reply@lightning-quant.local>'),
  CORS_ORIGINS: csv,
  /** The platform's day (business.md: team, VIP and ranking windows end at today 00:00 here): an IANA zone. */
  PLATFORM_TIMEZONE: z
    .string()
    .trim()
    .default('Asia/Shanghai')
    .refine((tz) => isTimeZone(tz), { error: 'must be an IANA time zone such as Asia/Shanghai or UTC' }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().min(1).default(path.join(repoRoot, 'apps/web/dist')),
  TOKEN_TTL_HOURS: positiveInt(24 * 7),
  /** Lifetime of an operator's console session (shorter than users'). */
  CONSOLE_SESSION_HOURS: positiveInt(8),
  /** How long a second factor (TOTP or recovery code) keeps a console session allowed. */
  CONSOLE_SECOND_FACTOR_MINUTES: positiveInt(60),
  /** How long an authenticated token stays in the in-process cache (0 disables it). */
  AUTH_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  /** The reverse proxies whose X-Forwarded-For is believed: addresses/CIDRs or a hop count; unset: none. */
  TRUST_PROXY: trustProxy,
  /**
   * The most of a payment rebates may pay (basis points; 5000 = 50 %): rates whose worst case (the
   * top rate plus the same-level share of it) pays more are refused. Set where the process is
   * deployed, not in the console: the operators whose rates it bounds cannot raise it.
   */
  REBATE_PAYOUT_MAX_BP: z.coerce.number().int().min(0).max(10_000).default(5_000),
  /** Per-IP request budgets per minute on sensitive routes. */
  LOGIN_RATE_PER_MINUTE: positiveInt(30),
  CODE_RATE_PER_MINUTE: positiveInt(10),
  /** Per-user budget per minute on sensitive logged-in endpoints (password, payment password, money). */
  USER_RATE_PER_MINUTE: positiveInt(20),
  /** Failed logins per user (or per IP ×10) in the lock window before login is refused. */
  LOGIN_MAX_FAILURES: positiveInt(5),
  /** Seconds before another code may be mailed to the same address (the spec's 60; shorter only for test runs). */
  MAIL_CODE_INTERVAL_SECONDS: positiveInt(CODE_RESEND_SECONDS),
  LOGIN_LOCK_MINUTES: positiveInt(15),
  /** Candle files (CSV / CSV.gz) imported at start by the worker when not yet imported. */
  MARKET_DATA_DIR: z.string().trim().optional(),
  /** Origins of the exchanges' REST APIs for candle imports (a proxy or a local stand-in). */
  MARKET_BINANCE_URL: optionalUrl(/^https?:$/),
  MARKET_OKX_URL: optionalUrl(/^https?:$/),
  MARKET_DUKASCOPY_URL: optionalUrl(/^https?:$/),
  /** Master key of the trading-account secrets and the payment passwords' pepper (base64 of 32 bytes); default: <DATA_DIR>/secrets.key (0600). */
  SECRETS_KEY: z
    .string()
    .trim()
    .optional()
    .refine((v) => v === undefined || Buffer.from(v, 'base64').length === 32, { error: 'must be base64 of 32 bytes' }),
  /** RSA private key (PKCS#8 PEM) the web client encrypts secrets for; default: <DATA_DIR>/transport-rsa.pem (0600). */
  SECRETS_TRANSPORT_KEY: z.string().trim().optional(),
  /** Origins of the live venues' REST APIs (the fake exchange on 127.0.0.1 in tests and demos); unset: the real exchanges. */
  EXCHANGE_BINANCE_URL: optionalUrl(/^https?:$/),
  EXCHANGE_OKX_URL: optionalUrl(/^https?:$/),
  /** Robot runner: row lease length, heartbeat, candle poll interval, robots per process. */
  RUNNER_LEASE_MS: positiveInt(15_000),
  RUNNER_HEARTBEAT_MS: positiveInt(5_000),
  RUNNER_POLL_MS: positiveInt(2_000),
  RUNNER_MAX_ROBOTS: positiveInt(2_000),
  /** How long after an order was journalled a venue that does not know it proves it was never received (recvWindow + margin). */
  RUNNER_RESOLVE_WINDOW_MS: positiveInt(15_000),
  /** Timeout of one venue request of the runner. */
  RUNNER_VENUE_TIMEOUT_MS: positiveInt(10_000),
  /** ccxt's request spacing (rate limit) on the runner's venue calls; false only against a local fake exchange. */
  RUNNER_CCXT_THROTTLE: bool(true),
  /** `runner/main.ts` only: `stdin` waits, once loaded, for a line on its stdin before it takes the database (a supervisor's warm standby). */
  RUNNER_STANDBY: z.enum(['off', 'stdin']).default('off'),
  /** Deposits: the operator's extended public key (BIP32, an m/44'/60'/0' style account); deposit keys are its `0/<user id>`. Unset: deposits not open. */
  DEPOSIT_XPUB: z
    .string()
    .trim()
    .optional()
    .superRefine((v, ctx) => {
      const parsed = v === undefined ? undefined : parseExtendedPublicKey(v);
      if (parsed && 'error' in parsed) ctx.addIssue({ code: 'custom', message: parsed.error });
    }),
  /** BEP20: a BNB Smart Chain JSON-RPC endpoint (unset: BEP20 deposits not open), USDT's contract, confirmations before a credit. */
  BSC_RPC_URL: optionalUrl(/^https?:$/),
  BSC_USDT_CONTRACT: z
    .string()
    .trim()
    .default('0x55d398326f99059fF775485246999027B3197955')
    .refine(isEvmAddress, { error: 'must be an EVM address (0x and 40 hex digits, its EIP-55 checksum if in mixed case)' }),
  BSC_CONFIRMATIONS: positiveInt(15),
  /** TRC20: a TronGrid-compatible HTTP API (unset: TRC20 deposits not open), USDT's contract, confirmations before a credit. */
  TRON_API_URL: optionalUrl(/^https?:$/),
  TRON_USDT_CONTRACT: z
    .string()
    .trim()
    .default('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')
    .refine((v) => tronAddressBytes(v) !== undefined, { error: 'must be a Tron base58check address (T…)' }),
  TRON_CONFIRMATIONS: positiveInt(20),
  /** TronGrid's API key (header TRON-PRO-API-KEY), if the endpoint needs one. */
  TRON_API_KEY: z.string().trim().optional(),
  /** The Telegram bot that sends notifications (from @BotFather); never logged nor shown. Unset: no Telegram channel. */
  TELEGRAM_BOT_TOKEN: z
    .string()
    .trim()
    .optional()
    .refine((v) => v === undefined || /^\d+:[\w-]{20,}$/.test(v), { error: 'must be a bot token from @BotFather, like 123456:ABC… (the value is not shown)' }),
  /** The bot's username (without @), for the t.me deep links users link their chat with. */
  TELEGRAM_BOT_NAME: z.string().trim().regex(/^\w{5,32}$/, { error: 'must be the bot username without @' }).optional(),
  /** The Bot API's address (a local Bot API server, or a stand-in in tests). */
  TELEGRAM_API_ROOT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default('https://api.telegram.org'),
  /** The secret Telegram sends back in X-Telegram-Bot-Api-Secret-Token with each update of the webhook (set with the webhook at boot when PUBLIC_URL is set). */
  TELEGRAM_WEBHOOK_SECRET: z.string().trim().regex(/^[\w-]{16,256}$/, { error: 'must be 16 to 256 letters, digits, _ or - (the value is not shown)' }).optional(),
  /** Web Push: the VAPID key pair (base64url, as `npx web-push generate-vapid-keys` prints it); unset: no push channel. The private key is never logged nor shown. */
  VAPID_PUBLIC_KEY: z.string().trim().regex(/^[A-Za-z0-9_-]{86,88}$/, { error: 'must be a VAPID public key (base64url, 87 characters)' }).optional(),
  VAPID_PRIVATE_KEY: z.string().trim().regex(/^[A-Za-z0-9_-]{42,44}$/, { error: 'must be a VAPID private key (base64url, 43 characters; the value is not shown)' }).optional(),
  /** Who push services may contact about our pushes (mailto: or https:). */
  VAPID_SUBJECT: z.string().trim().regex(/^(mailto:|https:\/\/)\S+$/, { error: 'must be a mailto: or https: URL' }).default('mailto:no-reply@lightning-quant.local'),
  /** Hosts a push subscription's endpoint may be on (`*.` for any subdomain): the browsers' push services. Anything else is refused (the server would post to it). */
  PUSH_SERVICE_HOSTS: csv.transform((hosts) => (hosts.length > 0 ? hosts : ['fcm.googleapis.com', 'updates.push.services.mozilla.com', 'web.push.apple.com', '*.notify.windows.com'])),
  /** Seconds between two passes of the notification delivery job. */
  NOTIFY_POLL_SECONDS: positiveInt(1),
  /**
   * Card deposits: the hosted checkout provider (`simulated`: served by this server, no card is
   * charged and every "payment" credits the wallet; `none`: closed). Unset: `simulated` on the
   * embedded demo, `none` on a server that can receive or pay out real money (see crossCheck).
   */
  CARD_PROVIDER: z.enum(['simulated', 'none']).optional(),
  /** Lets `CARD_PROVIDER=simulated` run on a server that can receive or pay out real money: a test stand only (docs/operations.md). */
  CARD_SIMULATED_WITH_REAL_MONEY: bool(false),
  /** The secret the provider signs webhooks with (simulated: a fresh one per process when unset). */
  CARD_WEBHOOK_SECRET: z.string().trim().min(16).optional(),
  /** Amounts one card checkout may have, USDT (exact: micro-units). */
  CARD_DEPOSIT_MIN: money('10'),
  CARD_DEPOSIT_MAX: money('5000'),
  /** Where users write about their data and account (the privacy policy names it); unset: the policy says to answer any of our e-mails. */
  SUPPORT_MAIL: z.email({ error: 'must be an e-mail address' }).optional(),
  /** The addresses our requests to exchanges leave from, for users to whitelist with their API key (comma-separated IPv4/IPv6); unset: no such advice is shown. */
  EGRESS_IPS: csv.refine((ips) => ips.every((ip) => isIP(ip) !== 0), { error: 'must be IP addresses, comma-separated' }),
  /** The origin users reach this server at (the simulated provider's page and webhooks); default http://127.0.0.1:<port>. */
  PUBLIC_URL: optionalUrl(/^https?:$/),
  /** The WebAuthn relying party of passkeys: a domain (no IP address, no port); default PUBLIC_URL's host, else localhost. */
  PASSKEY_RP_ID: z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .refine((v) => v === undefined || (isIP(v) === 0 && /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(v)), { error: 'must be a domain name (browsers refuse passkeys for IP addresses)' }),
  /** Origins passkeys may be used from (comma-separated); default PUBLIC_URL's origin, else http://localhost:<PORT>. */
  PASSKEY_ORIGINS: csv.refine((list) => list.every((o) => URL.canParse(o) && /^https?:$/.test(new URL(o).protocol)), { error: 'must be origins such as https://app.example.com' }),
  /** Seconds between two scans of a deposit watcher (failures back off from it, up to 5 minutes). */
  DEPOSIT_POLL_SECONDS: positiveInt(10),
  /** How approved withdrawals are paid: `manual` (the operator sends and enters the hash) or `hot-wallet` (BEP20 sent by this server; TRC20 stays manual). */
  WITHDRAW_PAYOUT: z.enum(['manual', 'hot-wallet']).default('manual'),
  /** Hours a new address of the withdrawal address book waits before withdrawals to it are accepted (0: at once). */
  WITHDRAW_NEW_ADDRESS_HOURS: z.coerce.number().int().min(0).max(720).default(24),
  /** A hot-wallet payout still unmined this long after it was signed is replaced at the same nonce with a gas price 12.5 % higher. */
  HOT_WALLET_REPLACE_AFTER_SECONDS: positiveInt(180),
  /** The highest gas price a replacement may offer, in gwei: above it the payout waits and the operator is told. */
  HOT_WALLET_MAX_GAS_GWEI: z.coerce.number().positive().max(10_000).default(20),
  /** The hot wallet's private key (0x + 64 hex digits) for WITHDRAW_PAYOUT=hot-wallet; never logged nor shown. */
  HOT_WALLET_KEY: z
    .string()
    .trim()
    .optional()
    .refine((v) => v === undefined || /^0x[0-9a-fA-F]{64}$/.test(v), { error: 'must be a private key: 0x and 64 hex digits (the value is not shown)' }),
});

/** Keys that let this server receive or pay out real money: a chain endpoint, the deposit key, a payout mode. */
const REAL_MONEY_KEYS = ['BSC_RPC_URL', 'TRON_API_URL', 'DEPOSIT_XPUB', 'WITHDRAW_PAYOUT', 'HOT_WALLET_KEY'] as const;

function isReadableFile(file: string): boolean {
  try {
    accessSync(file, constants.R_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Rules across keys, each naming the keys it needs. `given`: the keys set in the environment. */
function crossCheck(c: z.infer<typeof configSchema>, given: Record<string, string>): string[] {
  const problems: string[] = [];
  const realMoney = REAL_MONEY_KEYS.filter((k) => given[k] !== undefined);
  // The simulated card provider credits wallets for nothing: never beside real deposits or payouts
  // unless the operator says so in so many words (a test stand).
  if (c.CARD_PROVIDER === 'simulated' && realMoney.length > 0 && !c.CARD_SIMULATED_WITH_REAL_MONEY) {
    problems.push(
      `CARD_PROVIDER: simulated credits wallets without any payment, and this server can receive or pay out real money (${realMoney.join(', ')} set): ` +
        'set CARD_PROVIDER=none, or CARD_SIMULATED_WITH_REAL_MONEY=true on a test stand only',
    );
  }
  if (c.CARD_DEPOSIT_MIN > c.CARD_DEPOSIT_MAX) problems.push('CARD_DEPOSIT_MIN: is above CARD_DEPOSIT_MAX');
  if (c.TELEGRAM_BOT_TOKEN) {
    if (!c.TELEGRAM_BOT_NAME) problems.push('TELEGRAM_BOT_NAME: is required with TELEGRAM_BOT_TOKEN (the deep links name the bot)');
    if (!c.TELEGRAM_WEBHOOK_SECRET) problems.push('TELEGRAM_WEBHOOK_SECRET: is required with TELEGRAM_BOT_TOKEN (updates without it are refused)');
  }
  if ((c.TLS_CERT_FILE === undefined) !== (c.TLS_KEY_FILE === undefined)) problems.push('TLS_CERT_FILE, TLS_KEY_FILE: set both or neither (the certificate chain and its private key, PEM)');
  for (const key of ['TLS_CERT_FILE', 'TLS_KEY_FILE'] as const) {
    const file = c[key];
    if (file !== undefined && !isReadableFile(file)) problems.push(`${key}: ${file} is not a readable file`);
  }
  if ((c.VAPID_PUBLIC_KEY === undefined) !== (c.VAPID_PRIVATE_KEY === undefined)) problems.push('VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both or neither (the pair of `npx web-push generate-vapid-keys`)');
  if (c.WITHDRAW_PAYOUT === 'hot-wallet') {
    if (!c.HOT_WALLET_KEY) problems.push('HOT_WALLET_KEY: is required with WITHDRAW_PAYOUT=hot-wallet');
    if (!c.BSC_RPC_URL) problems.push('BSC_RPC_URL: is required with WITHDRAW_PAYOUT=hot-wallet (the hot wallet pays on BSC)');
  }
  return problems;
}

export type Config = Omit<z.infer<typeof configSchema>, 'CARD_PROVIDER'> & {
  /** Resolved: unset means `simulated` on the embedded demo, `none` where real money moves. */
  CARD_PROVIDER: 'simulated' | 'none';
  dataDir: string;
  webDist: string;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/** Keys that were renamed: the old name is still read when the new one is not set. */
const RENAMED_KEYS: Partial<Record<keyof z.infer<typeof configSchema>, string[]>> = {
  USER_RATE_PER_MINUTE: ['ACCOUNT_RATE_PER_MINUTE'],
};

/** Reads the configuration from environment variables; unknown values are named in one error. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const picked: Record<string, string> = {};
  for (const key of Object.keys(configSchema.shape)) {
    const v = env[key] ?? RENAMED_KEYS[key as keyof typeof RENAMED_KEYS]?.map((old) => env[old]).find((o) => o !== undefined);
    if (v !== undefined && v !== '') picked[key] = v;
  }
  const parsed = configSchema.safeParse(picked);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const problems = crossCheck(parsed.data, picked);
  if (problems.length > 0) throw new ConfigError(problems);
  const realMoney = REAL_MONEY_KEYS.some((k) => picked[k] !== undefined);
  return {
    ...parsed.data,
    CARD_PROVIDER: parsed.data.CARD_PROVIDER ?? (realMoney ? 'none' : 'simulated'),
    dataDir: path.resolve(parsed.data.DATA_DIR),
    webDist: path.resolve(parsed.data.WEB_DIST),
  };
}

export const runsApi = (role: Role) => role === 'api' || role === 'all';
export const runsWorker = (role: Role) => role === 'worker' || role === 'all';
export const runsRunner = (role: Role) => role === 'runner' || role === 'all';
