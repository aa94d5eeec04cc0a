// Market data of the e2e server: the MARKET_DATA_DIR imports run in the background at start.
import type { APIRequestContext } from '@playwright/test';
import type { Envelope } from './users';

const MINUTE = 60_000;

interface Series {
  symbol: string;
  source: string;
  timeframe: string;
  count: number;
}
interface Status {
  series: Series[];
  imports: { symbol: string; status: string }[];
}

/** MARKET_DATA_DIR imports run in the background at start: wait until the symbol's files are in. */
export async function waitForSymbol(request: APIRequestContext, dataSource: string, symbol: string, timeoutMs = 8 * MINUTE): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const list = (await (await request.get(`/order/api/currency-list?dataSource=${dataSource}`)).json()) as Envelope<{ symbol: string }[] | null>;
    const status = (await (await request.get('/order/api/market-data/status')).json()) as Envelope<Status | null>;
    const listed = list.code === '00000' && (list.data ?? []).some((c) => c.symbol === symbol);
    const pending = (status.data?.imports ?? []).filter((i) => i.symbol === symbol && (i.status === 'queued' || i.status === 'running'));
    last = `listed=${listed} pending=${pending.length} ${status.msg}`;
    if (listed && status.code === '00000' && pending.length === 0) return;
    await new Promise((r) => setTimeout(r, 2000));
  }
  throw new Error(`${symbol} has no imported candles after ${timeoutMs} ms (${last})`);
}

