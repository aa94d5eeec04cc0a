// Funding (issue 33): a live robot holding a perpetual pays or gets funding at each settlement
// (every 8 hours); the backtest models none, so all of it is drift. The drift check reads the
// venue's funding payments on the robot's symbol from its first candle (or the last recorded one)
// up to its last candle (or its stop), and records each once (`robot_funding`, the venue's id as
// key). The venue is asked only when a settlement has passed since the last time it was asked (and
// once after a restart), and one venue is kept per trading account. Paper robots pay no funding;
// MT5 accounts' swap is not read (the bridge does not report it).
import { CcxtVenue, FUNDING_INTERVAL_MS, type Venue } from '@lq/venues';
import { rowsOf, sql, type DatabaseHandle } from '@lq/db';
import type { Config } from '../platform/config';
import { createVenue, firstCandleSql, VenueCache } from '../runner';

type VenueOf = (accountId: number, exchange: string) => Promise<Venue>;

export class FundingRecorder {
  private readonly venues: VenueCache;
  /** Per robot: the last settlement time the venue was asked about. */
  private readonly asked = new Map<number, number>();

  constructor(
    private readonly database: DatabaseHandle,
    config: Config,
    venueOf?: VenueOf,
  ) {
    this.venues = new VenueCache(venueOf ?? ((accountId, exchange) => createVenue({ config, database, accountId, exchange })));
  }

  /** Records a live robot's new funding payments; answers how many were new (0 when nothing was due). */
  async record(robotId: number): Promise<number> {
    const [r] = rowsOf<{ mode: string; symbol: string; account_id: string; exchange: string; last_candle_at: string | null; stopped_at: string | null; from_ms: string | null; last_paid: string | null }>(
      await this.database.db.execute(sql`select r.mode, r.symbol, r.account_id::text as account_id, a.exchange, r.last_candle_at::text as last_candle_at,
          (extract(epoch from r.stopped_at) * 1000)::bigint::text as stopped_at,
          ${firstCandleSql('r')} as from_ms,
          (select max(f.paid_at)::text from robot_funding f where f.robot_id = r.id) as last_paid
        from robots r join trading_accounts a on a.id = r.account_id where r.id = ${robotId}`),
    );
    if (!r || r.mode !== 'live' || r.from_ms === null || r.last_candle_at === null) return 0;
    const until = r.stopped_at !== null ? Math.min(Number(r.stopped_at), Number(r.last_candle_at) + 60_000) : Number(r.last_candle_at) + 60_000;
    const settled = Math.floor(until / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS;
    if (settled <= Number(r.from_ms) || this.asked.get(robotId) === settled) return 0;
    const v = await this.venues.get(Number(r.account_id), r.exchange);
    if (!(v instanceof CcxtVenue)) return 0;
    const since = r.last_paid !== null ? Number(r.last_paid) + 1 : Number(r.from_ms);
    const paid = (await v.fetchFunding(r.symbol, since)).filter((f) => f.time >= Number(r.from_ms) && f.time < until);
    // One statement for the lot; a payment already recorded (a pass run twice) is kept as it was.
    const recorded =
      paid.length === 0
        ? 0
        : rowsOf(
            await this.database.db.execute(sql`insert into robot_funding (robot_id, venue_id, amount, paid_at)
              values ${sql.join(paid.map((f) => sql`(${robotId}, ${f.id}, ${String(f.amount)}, ${f.time})`), sql`, `)}
              on conflict do nothing returning 1 as ok`),
          ).length;
    this.asked.set(robotId, settled);
    return recorded;
  }
}
