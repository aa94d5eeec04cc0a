// Credentials of a trading account for the robot runner (and anything else server-side that must
// talk to the venue on the user's behalf). Usage:
//
//   import { SecretBox } from './secrets';
//   import { openVenue, readCredentials, venueOrigin } from './credentials';
//   const box = SecretBox.fromConfig(config);            // once; memoized per config
//   const creds = await readCredentials(db, box, robot.accountId);
//   const venue = openVenue(config, creds);              // CcxtVenue for binance / okx (origin from config)
//
// readCredentials is NOT scoped to a user: callers must already hold a row (a robot) that belongs
// to the account's owner. Never log or return what it gives.
import { AppError } from '@lq/contracts';
import { eq, tradingAccounts, type Database } from '@lq/db';
import { CcxtVenue, type CcxtVenueConfig } from '@lq/venues';
import { SecretDecryptError, type SecretBox } from './secrets';

export type AccountExchange = 'binance' | 'okx' | 'mt5';

export interface TradingAccountCredentials {
  exchange: AccountExchange;
  /** Empty for mt5 (the bridge authenticates by its token hash). */
  apiKey: string;
  secret: string;
  /** OKX only. */
  passphrase: string | null;
}

/**
 * The decrypted credentials of account `accountId`. Throws AppError NOT_FOUND for an unknown id
 * and SECRET_UNREADABLE when the ciphertext does not open (other master key, tampering) or was
 * erased (an unbound account: unbinding is refused while robots are running, paused or stopping).
 */
export async function readCredentials(
  db: Database,
  box: SecretBox,
  accountId: number,
): Promise<TradingAccountCredentials> {
  const [row] = await db
    .select({
      id: tradingAccounts.id,
      userId: tradingAccounts.userId,
      exchange: tradingAccounts.exchange,
      wrappedKey: tradingAccounts.wrappedKey,
      apiKeyEnc: tradingAccounts.apiKeyEnc,
      secretKeyEnc: tradingAccounts.secretKeyEnc,
      passphraseEnc: tradingAccounts.passphraseEnc,
    })
    .from(tradingAccounts)
    .where(eq(tradingAccounts.id, accountId))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  const exchange = row.exchange as AccountExchange;
  if (exchange === 'mt5') return { exchange, apiKey: '', secret: '', passphrase: null };
  try {
    const o = box.open({ userId: row.userId, accountId: row.id }, row.wrappedKey, {
      apiKey: row.apiKeyEnc,
      secretKey: row.secretKeyEnc,
      passphrase: row.passphraseEnc,
    });
    return { exchange, apiKey: o.apiKey ?? '', secret: o.secretKey ?? '', passphrase: o.passphrase };
  } catch (err) {
    if (err instanceof SecretDecryptError) throw new AppError('SECRET_UNREADABLE');
    throw err;
  }
}

/** The configured REST origin of a venue (the fake exchange in tests); undefined = the real one. */
export function venueOrigin(
  config: { EXCHANGE_BINANCE_URL?: string; EXCHANGE_OKX_URL?: string },
  exchange: string,
): string | undefined {
  if (exchange === 'binance') return config.EXCHANGE_BINANCE_URL;
  if (exchange === 'okx') return config.EXCHANGE_OKX_URL;
  return undefined;
}

/** ccxt's id of our exchange name. */
export const ccxtVenueId = (exchange: 'binance' | 'okx'): CcxtVenueConfig['venue'] =>
  exchange === 'binance' ? 'binanceusdm' : 'okx';

/** A CcxtVenue on these credentials with the configured origin (binance and okx only). */
export function openVenue(
  config: { EXCHANGE_BINANCE_URL?: string; EXCHANGE_OKX_URL?: string },
  creds: TradingAccountCredentials,
  extra: Partial<CcxtVenueConfig> = {},
): CcxtVenue {
  if (creds.exchange === 'mt5') throw new Error('mt5 accounts trade through the bridge, not ccxt');
  return new CcxtVenue({
    venue: ccxtVenueId(creds.exchange),
    apiKey: creds.apiKey,
    secret: creds.secret,
    ...(creds.passphrase ? { password: creds.passphrase } : {}),
    origin: venueOrigin(config, creds.exchange),
    ...extra,
  });
}
