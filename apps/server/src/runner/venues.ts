// One venue per trading account, by exchange: binance / okx through ccxt with the account's
// decrypted credentials and the configured origin; other exchanges (mt5) register a factory.
import type { DatabaseHandle } from '@lq/db';
import type { Venue } from '@lq/venues';
import { openVenue, readCredentials, SecretBox } from '../trading-accounts';
import type { Config } from '../platform/config';

export interface VenueContext {
  config: Config;
  database: DatabaseHandle;
  accountId: number;
  exchange: string;
}

export type VenueFactory = (ctx: VenueContext) => Promise<Venue>;

const factories = new Map<string, VenueFactory>();

/** Lets another venue (the MT5 bridge: exchange 'mt5') provide the Venue of its accounts. */
export function registerVenueFactory(exchange: string, factory: VenueFactory): void {
  factories.set(exchange, factory);
}

/** The Venue of a trading account (credentials decrypted here, never logged). */
export async function createVenue(ctx: VenueContext): Promise<Venue> {
  const own = factories.get(ctx.exchange);
  if (own) return own(ctx);
  if (ctx.exchange !== 'binance' && ctx.exchange !== 'okx') throw new Error(`no venue for exchange ${ctx.exchange}`);
  const creds = await readCredentials(ctx.database.db, SecretBox.fromConfig(ctx.config), ctx.accountId);
  return openVenue(ctx.config, creds, {
    timeoutMs: ctx.config.RUNNER_VENUE_TIMEOUT_MS,
    resolveWindowMs: ctx.config.RUNNER_RESOLVE_WINDOW_MS,
    // ccxt's own request spacing; off only against a local stand-in (the fake exchange in tests).
    enableRateLimit: ctx.config.RUNNER_CCXT_THROTTLE,
  });
}

/**
 * One open venue per trading account for the life of a process (its ccxt client keeps the
 * markets, the clock offset and the rate limiter); a venue that failed to open is asked again next time.
 */
export class VenueCache {
  private readonly venues = new Map<number, Promise<Venue>>();

  constructor(private readonly open: (accountId: number, exchange: string) => Promise<Venue>) {}

  get(accountId: number, exchange: string): Promise<Venue> {
    let v = this.venues.get(accountId);
    if (!v) {
      v = this.open(accountId, exchange);
      v.catch(() => this.venues.delete(accountId));
      this.venues.set(accountId, v);
    }
    return v;
  }
}
