import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AppError,
  contractInfo,
  contractInfoQuery,
  currencyList as currencyListSchema,
  currencyListQuery,
  dictList,
  dictTypeQuery,
  envelopeOf,
  marketDataStatus,
  tacticsSelection,
  tacticsSelectionQuery,
} from '@lq/contracts';
import { runsWorker } from '../platform/config';
import { errorResponses, ok } from '../platform/http';
import { importMarketDataDir } from './jobs';
import {
  ContractInfoCache,
  currencyList,
  marketOfDataSource,
  marketStatus,
  tacticsFor,
  tacticsIntervals,
  type Market,
} from './reference';
import type { PlatformDeps } from '../platform/deps';
import { venueOf } from '../strategy-setup';

/** An open data source's market; DATA_SOURCE_UNKNOWN / MARKET_NOT_OPEN otherwise. */
function marketOf(dataSource: string): Market {
  const m = marketOfDataSource(dataSource);
  if (!m) throw new AppError('DATA_SOURCE_UNKNOWN', {}, 'dataSource');
  if (!m.open) throw new AppError('MARKET_NOT_OPEN', {}, 'dataSource');
  return m.market;
}

/**
 * Market data and reference calls (spec §7): tactics-selection, dict-type list, currency-list,
 * contract info, market data status. None needs a login: they describe the product, not a user.
 * Also starts the MARKET_DATA_DIR import (worker role) once the app and pg-boss are ready.
 */
export function marketRoutes(app: FastifyInstance, deps: PlatformDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const contracts = new ContractInfoCache();

  r.get(
    '/order/api/backtest/tactics-selection',
    {
      schema: {
        tags: ['market'],
        summary: 'Strategies a market offers (dataSource mt5 = forex, binance = crypto), with their create-order page',
        querystring: tacticsSelectionQuery,
        response: { 200: envelopeOf(tacticsSelection), ...errorResponses },
      },
    },
    (req) => Promise.resolve(ok(req, tacticsFor(marketOf(req.query.dataSource)))),
  );

  r.get(
    '/user/common/dict-type/list',
    {
      schema: {
        tags: ['market'],
        summary: 'A dictionary by label; tacticsInterval = the decision intervals 1m … 1d',
        querystring: dictTypeQuery,
        response: { 200: envelopeOf(dictList), ...errorResponses },
      },
    },
    (req) => Promise.resolve(ok(req, tacticsIntervals())),
  );

  r.get(
    '/order/api/currency-list',
    {
      schema: {
        tags: ['market'],
        summary: 'Symbols of a market with candles in the store: data ranges and instrument facts',
        querystring: currencyListQuery,
        response: { 200: envelopeOf(currencyListSchema), ...errorResponses },
      },
    },
    async (req) =>
      ok(req, await currencyList(app.database, marketOf(req.query.dataSource), req.query.exchangeType, venueOf(req.query.dataSource))),
  );

  r.get(
    '/order/api/contract-info',
    {
      schema: {
        tags: ['market'],
        summary: 'Contract info of an instrument (ctVal, ctMult, minSz), cached one day; null when unknown',
        querystring: contractInfoQuery,
        response: { 200: envelopeOf(contractInfo), ...errorResponses },
      },
    },
    (req) => {
      const { value, cached } = contracts.get(req.query.instId);
      if (value === null && !cached) req.log.warn({ instId: req.query.instId }, 'contract info: unknown instrument, answering null');
      return Promise.resolve(ok(req, value));
    },
  );

  r.get(
    '/order/api/market-data/status',
    {
      schema: {
        tags: ['market'],
        summary: 'Candle series in the store, the latest import runs and each source’s latest outcome',
        response: { 200: envelopeOf(marketDataStatus), ...errorResponses },
      },
    },
    async (req) => ok(req, await marketStatus(app.database)),
  );

  // MARKET_DATA_DIR: queue the import of every file not yet imported (worker role only).
  app.addHook('onReady', (done) => {
    const dir = deps.config.MARKET_DATA_DIR;
    if (dir && app.boss && runsWorker(deps.config.ROLE)) {
      void importMarketDataDir(app.boss, app.database, app.log, dir);
    }
    done();
  });
}
