// Ports between the kernel / executor and the outside world. Backtest and paper inject the
// SimulatedBroker; live trading injects a venue adapter implementing the same Broker port.
import type { AmendIntent, CloseIntent, ExitReason, Fill, OpenIntent, PendingOrder, Ticket } from './types';

/**
 * Where intents go. Ids are the intents' tags: a ticket is identified by the tag of the OpenIntent
 * that opened it, a pending order by its intent's tag (the client order id in live trading).
 * Implementations must:
 * - reject an OpenIntent whose tag is already a live ticket or pending order (`OrderRejectedError`),
 * - treat a close / cancel / amend of an unknown (already closed) ticket or order as a no-op,
 * - call the fill listener for every fill, in order.
 */
export interface Broker {
  readonly tickets: readonly Ticket[];
  readonly pending: readonly PendingOrder[];
  submitOpen(intent: OpenIntent): void;
  submitClose(intent: CloseIntent): void;
  amend(intent: AmendIntent): void;
  cancel(tag: string): void;
  /** Cancel every pending order and close every ticket at market. */
  closeAll(reason: ExitReason): void;
  setFillListener(listener: ((fill: Fill) => void) | null): void;
}

/** Time source: the candle clock in backtests, the wall clock (injected by the runner) live. */
export interface Clock {
  now(): number;
}

export class OrderRejectedError extends Error {
  constructor(
    message: string,
    readonly tag: string,
  ) {
    super(message);
    this.name = 'OrderRejectedError';
  }
}
