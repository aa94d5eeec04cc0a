// Venue errors, classified by what the caller must do. ccxt's classes never leave this package:
// the adapter translates them at the boundary (see README.md for the table).

/**
 * - `retry`: nothing happened at the venue; the same call may be made again (after `retryAfterMs`).
 * - `resolve`: an order call's outcome is unknown; query by client order id, never resend blindly.
 * - `reject`: the venue refused this order (funds, size, price…); pause the robot with the reason.
 * - `fault`: a bug or configuration error (unknown symbol, unsupported call); fault the strategy.
 * - `stop`: the account cannot be used (authentication, permissions); stop every robot on it.
 */
export type VenueAction = 'retry' | 'resolve' | 'reject' | 'fault' | 'stop';

export abstract class VenueError extends Error {
  abstract readonly action: VenueAction;
  constructor(
    message: string,
    /** The venue's own error code when it sent one (Binance `-2019`, OKX `51008`). */
    readonly venueCode: string | null = null,
    /** Name of the ccxt class it was translated from. */
    readonly source: string | null = null,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class VenueRetryableError extends VenueError {
  readonly action = 'retry' as const;
  constructor(
    message: string,
    venueCode: string | null = null,
    source: string | null = null,
    /** Wait at least this long before the next call (429 / 418 Retry-After). */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message, venueCode, source);
  }
}

export class VenueUnknownOutcomeError extends VenueError {
  readonly action = 'resolve' as const;
  constructor(
    message: string,
    readonly clientOrderId: string,
    venueCode: string | null = null,
    source: string | null = null,
  ) {
    super(message, venueCode, source);
  }
}

export type RejectReason = 'insufficientFunds' | 'invalidOrder' | 'badRequest' | 'operationRejected';

export class VenueRejectedError extends VenueError {
  readonly action = 'reject' as const;
  constructor(
    message: string,
    readonly reason: RejectReason,
    venueCode: string | null = null,
    source: string | null = null,
  ) {
    super(message, venueCode, source);
  }
}

export class VenueFaultError extends VenueError {
  readonly action = 'fault' as const;
}

export class VenueStopError extends VenueError {
  readonly action = 'stop' as const;
}
