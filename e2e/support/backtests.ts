// Backtests the specs need, made through the API.
import { expect, type APIRequestContext } from '@playwright/test';
import { apiLogin, type Envelope } from './users';

const MINUTE = 60_000;

/** A grid backtest on ETHUSDT 5m that trades about two thousand times in its first days. */
export async function denseBacktest(request: APIRequestContext, mail: string): Promise<number> {
  const headers = await apiLogin(request, mail);
  const params = { market: 'crypto', symbol: 'ETHUSDT', interval: '5m', capital: 5000, leverage: 10, side: 'long', useAiIndicator: false, addImmediately: false, unit: 'ZHANG', start: '2020-12-01', end: '2020-12-08', timezone: 'UTC', gridNumber: 10, gap: 0.05, lotsPerGrid: 1.25 };
  const created = (await (await request.post('/order/api/backtest/create', { headers, data: { strategy: 'grid', dataSource: 'binance', symbol: 'ETHUSDT', params } })).json()) as Envelope<{ backtest: { id: number } }>;
  expect(created.code, created.msg).toBe('00000');
  const id = created.data.backtest.id;
  await expect
    .poll(async () => ((await (await request.get(`/order/api/backtest/detail?id=${id}`, { headers })).json()) as Envelope<{ status: number }>).data.status, { timeout: 3 * MINUTE })
    .toBe(2);
  return id;
}


/** A finished grid recommendation on ETHUSDT (a small search): its id, for `/#/?rec=<id>`. */
export async function finishedRecommendation(request: APIRequestContext, mail: string): Promise<number> {
  const headers = await apiLogin(request, mail);
  const body = { strategy: 'grid', dataSource: 'binance', symbol: 'ETHUSDT', capital: 10000, start: '2020-11-01', end: '2020-12-31', params: { leverage: 10, side: 'long' }, budget: 12, seed: 7 };
  const created = (await (await request.post('/order/api/backtest/recommend/create', { headers, data: body })).json()) as Envelope<{ id: number }>;
  expect(created.code, created.msg).toBe('00000');
  const id = created.data.id;
  await expect
    .poll(async () => ((await (await request.get(`/order/api/backtest/recommend/detail?id=${id}`, { headers })).json()) as Envelope<{ status: string }>).data.status, { timeout: 3 * MINUTE })
    .toBe('done');
  return id;
}
