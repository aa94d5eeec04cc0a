// Market data: the candle store, its importers (files, ccxt, Dukascopy) and the reference calls.
import fp from 'fastify-plugin';
import { platformDeps } from '../platform/deps';
import { startMarketJobs } from './jobs';
import { marketRoutes } from './routes';

export const marketPlugin = fp(
  async (app) => {
    marketRoutes(app, platformDeps(app));
    app.jobs.add('market', startMarketJobs);
    return Promise.resolve();
  },
  { name: 'market' },
);

export { MARKET_OPS } from './ops';
export { isLiveSource, listSeries, liveSourceOf, loadCandleRange, loadRecordedRange, writeCandles, type SeriesKey } from './store';
export { latestImportRuns, MarketImportError } from './imports';
export { createExchangeRun } from './exchange';
export { createDukascopyRun } from './dukascopy';
export { MARKET_QUEUES } from './jobs';
