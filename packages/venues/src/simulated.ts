// The simulated venue of paper robots: the engine's SimulatedBroker (the backtest's fill, fee,
// margin and liquidation rules) driven by a LiveKernel through a PaperFeed, fed closed 1m candles.
// Nothing is sent anywhere; a restart rebuilds the same state by feeding the same candles again.
import { LiveKernel, PaperFeed, SimulatedBroker, type AiSignal, type Instrument, type Strategy } from '@lq/engine';

export interface PaperRobotOptions {
  strategy: Strategy;
  instrument: Instrument;
  capital: number;
  leverage: number;
  makerFee: number;
  takerFee: number;
  spreadPoints?: number;
  /** Decision interval (ms), a multiple of the input interval. */
  intervalMs: number;
  inputIntervalMs?: number;
  utcOffsetMinutes?: number;
  ai?: AiSignal | null;
}

export interface PaperRobot {
  readonly broker: SimulatedBroker;
  readonly kernel: LiveKernel;
  readonly feed: PaperFeed;
}

/** A paper robot: same strategy, executor and fill rules as a backtest, one input candle at a time. */
export function createPaperRobot(o: PaperRobotOptions): PaperRobot {
  const broker = new SimulatedBroker({
    instrument: o.instrument,
    capital: o.capital,
    leverage: o.leverage,
    makerFee: o.makerFee,
    takerFee: o.takerFee,
    spreadPoints: o.spreadPoints,
    // The runner keeps the fills it books; the broker's own report arrays would grow forever.
    recordFills: false,
  });
  const kernel = new LiveKernel({
    strategy: o.strategy,
    broker,
    instrument: o.instrument,
    intervalMs: o.intervalMs,
    capital: o.capital,
    leverage: o.leverage,
    ai: o.ai ?? null,
    utcOffsetMinutes: o.utcOffsetMinutes ?? 0,
  });
  // Daily decision candles start at local midnight, as in the backtest.
  const offsetMs = o.intervalMs >= 86_400_000 ? -(o.utcOffsetMinutes ?? 0) * 60_000 : 0;
  const feed = new PaperFeed(kernel, broker, o.intervalMs, o.inputIntervalMs ?? 60_000, offsetMs);
  return { broker, kernel, feed };
}
