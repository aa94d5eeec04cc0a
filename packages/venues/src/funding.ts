/**
 * Perpetual futures settle funding every 8 hours on the hour (00:00, 08:00, 16:00 UTC) on Binance
 * and OKX: the fake exchange settles then, and the drift monitor asks a venue only once one has passed.
 */
export const FUNDING_INTERVAL_MS = 8 * 3_600_000;
