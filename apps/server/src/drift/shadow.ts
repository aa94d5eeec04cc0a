// The shadow backtest of a robot (issue 33, slice 1): the backtest's own paper robot — the same
// strategy factory, parameters, instrument rules, fees, capital and leverage, the same per-candle
// loop the paper robots run — fed the 1m candles the robot saw, from its first one. It never
// pauses and no venue refuses it: what it trades is what the backtest says the robot should have
// traded. Incremental: `advance` takes only the candles after its cursor, so a check costs the new
// candles, not the robot's whole history.
import { createHash } from 'node:crypto';
import { getInstrument, type Fill } from '@lq/engine';
import type { PaperRobot } from '@lq/venues';
import { venueOf } from '../strategy-setup';
import { MINUTE, paperRobotOf, robotStrategyOf, seededAiStream, type Bar } from '../runner';

/** What a shadow is built from (a robot's row, its account's exchange and its first candle). */
export interface ShadowSpec {
  strategy: string;
  params: unknown;
  symbol: string;
  exchange: string;
  capital: number;
  leverage: number;
  /** Open time of the robot's first 1m candle. */
  fromMs: number;
}

/** A spec as one string: a robot whose spec changed (e.g. new parameters) gets a new shadow. */
export const specKey = (s: ShadowSpec): string =>
  createHash('sha256').update(JSON.stringify([s.strategy, s.params, s.symbol, s.exchange, s.capital, s.leverage, s.fromMs])).digest('hex').slice(0, 32);

export class ShadowBacktest {
  /** Open time of the last 1m candle stepped (`fromMs − 1 min` before the first). */
  cursor: number;
  /** Fills booked so far, in order. */
  fillCount = 0;
  /** Input candles stepped by the last `advance` (what a check cost). */
  lastStepped = 0;
  private lastClose = NaN;
  private halted = false;
  readonly key: string;

  private constructor(
    readonly spec: ShadowSpec,
    private readonly robot: PaperRobot,
  ) {
    this.cursor = spec.fromMs - MINUTE;
    this.key = specKey(spec);
  }

  /**
   * Builds the shadow. `range` reads stored 1m candles (AI strategies seed their signal from the
   * decision candles before the first one, as the robot did).
   */
  static async create(spec: ShadowSpec, range: (fromMs: number, toMs: number) => Promise<Bar[]>): Promise<ShadowBacktest> {
    const instrument = getInstrument(spec.symbol, venueOf(spec.exchange));
    const { strategy, settings: s } = robotStrategyOf({ strategy: spec.strategy, params: spec.params, leverage: spec.leverage }, instrument);
    const robot = paperRobotOf(strategy, instrument, spec.capital, s);
    if (s.ai) {
      const offsetMs = s.intervalMs >= 86_400_000 ? -s.utcOffsetMinutes * 60_000 : 0;
      robot.kernel.attachAi(await seededAiStream(range, spec.fromMs, s.intervalMs, offsetMs));
    }
    return new ShadowBacktest(spec, robot);
  }

  /** Steps the candles after the cursor (older ones are skipped), in order; answers the fills they booked. */
  advance(bars: readonly Bar[]): Fill[] {
    const feed = this.robot.feed;
    const fills = this.robot.kernel.fills;
    const booked: Fill[] = [];
    this.lastStepped = 0;
    for (const b of bars) {
      if (b.time <= this.cursor || this.halted) continue;
      const halt = feed.onInputCandle(b.time, b.open, b.high, b.low, b.close, b.volume);
      this.cursor = b.time;
      this.lastClose = b.close;
      this.lastStepped++;
      if (fills.length > 0) {
        booked.push(...fills);
        fills.length = 0;
      }
      // A strategy that halts stops trading in the backtest too.
      if (halt !== null) this.halted = true;
    }
    this.fillCount += booked.length;
    return booked;
  }

  /** Balance and equity now (at the last close stepped). */
  figures(): { balance: number; equity: number } {
    const f = this.robot.kernel.figures(Number.isFinite(this.lastClose) ? this.lastClose : undefined);
    return { balance: f.balance, equity: f.equity };
  }
}
