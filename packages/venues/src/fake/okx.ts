// Fake OKX v5 REST (USDT swaps) on the shared fake-venue server: `{code, msg, data}` answers with
// numbers as strings, amounts in contracts (coins = sz × ctVal), OK-ACCESS-* signatures.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BinanceApiError, BinanceBook, fmt, type FakeMarket, type FakeOrder } from './binance';
import { FakeVenueServer, barMs, type FakeExchangeOptions, type FaultAction } from './server';

interface OkxInstrument {
  symbol: string;
  instId: string;
  base: string;
  ctVal: number;
  lotSz: string;
  minSz: string;
  tickSz: string;
}

export const OKX_INSTRUMENTS: OkxInstrument[] = [
  { symbol: 'BTCUSDT', instId: 'BTC-USDT-SWAP', base: 'BTC', ctVal: 0.01, lotSz: '0.01', minSz: '0.01', tickSz: '0.1' },
  { symbol: 'ETHUSDT', instId: 'ETH-USDT-SWAP', base: 'ETH', ctVal: 0.1, lotSz: '0.01', minSz: '0.01', tickSz: '0.01' },
];

export const DEFAULT_PASSPHRASES: Record<string, string> = { 'fake-key': 'fake-pass' };

/** Book (Binance) codes → OKX codes (venues.md §4). */
const CODE_MAP: Record<number, string> = {
  [-2019]: '51008',
  [-4164]: '51020',
  [-4003]: '51020',
  [-4023]: '51121',
  [-4014]: '51000',
  [-2022]: '51169',
  [-4116]: '51016',
  [-2013]: '51603',
  [-2011]: '51400',
  [-1121]: '51001',
  [-1100]: '51000',
  [-1116]: '51000',
  [-1117]: '51000',
};

const PER_ORDER = new Set(['/api/v5/trade/batch-orders', '/api/v5/trade/order', '/api/v5/trade/cancel-order']);

export class FakeOkx extends FakeVenueServer {
  private passphrases(): Record<string, string> {
    return (this.opts as FakeExchangeOptions & { passphrases?: Record<string, string> }).passphrases ?? DEFAULT_PASSPHRASES;
  }

  private inst(symbolOrInstId: string): OkxInstrument {
    const i = OKX_INSTRUMENTS.find((x) => x.instId === symbolOrInstId || x.symbol === symbolOrInstId);
    if (!i) throw new BinanceApiError(200, -1121, "Instrument ID doesn't exist.");
    return i;
  }

  protected newBook(balance: number): BinanceBook {
    const markets: FakeMarket[] = OKX_INSTRUMENTS.map((i) => ({
      symbol: i.symbol,
      baseAsset: i.base,
      quoteAsset: 'USDT',
      tickSize: i.tickSz,
      stepSize: String(Number(i.lotSz) * i.ctVal),
      minQty: String(Number(i.minSz) * i.ctVal),
      maxQty: '100000',
      minNotional: '0',
    }));
    const b = new BinanceBook(markets, balance);
    b.prices.set('BTCUSDT', 60_000);
    b.prices.set('ETHUSDT', 3_000);
    return b;
  }

  protected parseParams(method: string, url: URL, body: string): Record<string, string> {
    if (method === 'GET' || method === 'DELETE' || body === '') return Object.fromEntries(url.searchParams);
    const json = JSON.parse(body) as unknown;
    const first = (Array.isArray(json) ? json[0] : json) as Record<string, unknown> | undefined;
    return Object.fromEntries(Object.entries(first ?? {}).map(([k, v]) => [k, String(v)]));
  }

  protected isPublic(path: string): boolean {
    return path.startsWith('/api/v5/public/') || path.startsWith('/api/v5/market/');
  }

  protected authenticate(req: IncomingMessage, method: string, _url: URL, body: string): void {
    const h = (name: string): string | undefined => {
      const v = req.headers[name];
      return typeof v === 'string' ? v : undefined;
    };
    const key = h('ok-access-key');
    const secret = key !== undefined ? this.keys[key] : undefined;
    if (key === undefined || secret === undefined) throw new OkxError(401, '50111', 'Invalid OK-ACCESS-KEY');
    if (h('ok-access-passphrase') !== this.passphrases()[key]) throw new OkxError(401, '50105', 'Invalid OK-ACCESS-PASSPHRASE');
    const ts = h('ok-access-timestamp') ?? '';
    const prehash = ts + method + (req.url ?? '') + (method === 'GET' ? '' : body);
    const expected = Buffer.from(createHmac('sha256', secret).update(prehash).digest('base64'));
    const given = Buffer.from(h('ok-access-sign') ?? '');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new OkxError(401, '50113', 'Invalid Sign');
    const t = Date.parse(ts);
    if (!Number.isFinite(t) || Math.abs(this.now() - t) > 30_000) throw new OkxError(401, '50102', 'Timestamp request expired');
  }

  protected errorAnswer(e: BinanceApiError): { status: number; json: unknown } {
    if (e instanceof OkxError) return { status: e.status, json: { code: e.okxCode, msg: e.message, data: [] } };
    const code = CODE_MAP[e.code] ?? '50000';
    const last = this.journal[this.journal.length - 1];
    if (last && last.method === 'POST' && PER_ORDER.has(last.path)) {
      return { status: 200, json: { code: '1', msg: 'All operations failed', data: [{ ordId: '', clOrdId: last.params.clOrdId ?? '', sCode: code, sMsg: e.message, tag: '' }] } };
    }
    return { status: e.status === 404 ? 404 : 200, json: { code, msg: e.message, data: [] } };
  }

  protected rateLimitJson(): unknown {
    return { code: '50011', msg: 'Too Many Requests', data: [] };
  }

  protected httpFaultJson(venueCode: number | undefined, msg: string | undefined): unknown {
    return { code: String(venueCode ?? 50013), msg: msg ?? 'Systems are busy. Please try again later.', data: [] };
  }

  private ok(data: unknown[]): unknown {
    return { code: '0', msg: '', data };
  }

  protected route(method: string, path: string, p: Record<string, string>, body: string, fault: FaultAction | null): unknown {
    const b = this.book;
    const now = this.now();
    switch (`${method} ${path.replace(/^\/api\/v5/, '')}`) {
      case 'GET /public/time':
        return this.ok([{ ts: String(now) }]);
      case 'GET /public/instruments':
        return this.ok(p.instType === 'SWAP' ? OKX_INSTRUMENTS.map((i) => this.instrumentJson(i)) : []);
      case 'GET /asset/currencies':
        return this.ok([]);
      case 'GET /account/config':
        return this.ok([{ uid: '1', mainUid: '1', acctLv: '2', posMode: 'net_mode', autoLoan: false, perm: 'read_only,trade', ip: '', label: 'fake', level: 'Lv1', ...this.accountSettings }]);
      case 'GET /account/balance': {
        const u = b.unrealized();
        const eq = fmt(b.wallet + u);
        const avail = fmt(b.available());
        return this.ok([
          {
            totalEq: eq,
            uTime: String(now),
            details: [{ ccy: 'USDT', eq, cashBal: fmt(b.wallet), availEq: avail, availBal: avail, frozenBal: fmt(b.initialMargin()), upl: fmt(u), uTime: String(now) }],
          },
        ]);
      }
      case 'GET /account/positions':
        return this.ok(this.positions(p.instId));
      case 'POST /account/set-leverage': {
        const i = this.inst(p.instId);
        b.leverage.set(i.symbol, Number(p.lever));
        return this.ok([{ lever: p.lever, mgnMode: p.mgnMode ?? 'cross', instId: i.instId, posSide: '' }]);
      }
      case 'POST /account/set-position-mode':
        return this.ok([{ posMode: p.posMode }]);
      case 'POST /trade/batch-orders':
      case 'POST /trade/order':
        return this.createOrders(body, fault, now);
      case 'GET /trade/order':
        return this.ok([this.orderJson(this.lookup(p, -2013, 'Order does not exist'))]);
      case 'POST /trade/cancel-order': {
        const o = this.lookup(p, -2011, 'Order cancellation failed as the order has been filled, canceled or does not exist.');
        if (o.status !== 'NEW' && o.status !== 'PARTIALLY_FILLED') throw new BinanceApiError(200, -2011, 'Order cancellation failed as the order has been filled, canceled or does not exist.');
        b.cancel(o, now);
        return this.ok([{ ordId: String(o.orderId), clOrdId: o.clientOrderId, sCode: '0', sMsg: '' }]);
      }
      case 'GET /trade/orders-pending': {
        const symbol = p.instId ? this.inst(p.instId).symbol : undefined;
        return this.ok(b.openOrders(symbol).map((o) => this.orderJson(o)));
      }
      case 'GET /trade/fills':
      case 'GET /trade/fills-history': {
        const symbol = p.instId ? this.inst(p.instId).symbol : undefined;
        const orders = new Map(b.orders.map((o) => [o.orderId, o]));
        return this.ok(
          b.trades
            .filter((t) => (!symbol || t.symbol === symbol) && (!p.begin || t.time > Number(p.begin)) && (!p.end || t.time < Number(p.end)))
            .reverse()
            .map((t) => {
              const i = this.inst(t.symbol);
              return {
                instType: 'SWAP',
                instId: i.instId,
                tradeId: String(t.id),
                billId: String(t.id),
                ordId: String(t.orderId),
                clOrdId: orders.get(t.orderId)?.clientOrderId ?? '',
                side: t.side.toLowerCase(),
                posSide: 'net',
                fillPx: fmt(t.price),
                fillSz: fmt(t.qty / i.ctVal),
                fee: fmt(-t.commission),
                feeCcy: 'USDT',
                execType: t.maker ? 'M' : 'T',
                ts: String(t.time),
              };
            }),
        );
      }
      case 'GET /market/ticker':
        return this.ok([this.tickerJson(this.inst(p.instId))]);
      case 'GET /market/tickers':
        return this.ok(p.instType === undefined || p.instType === 'SWAP' ? OKX_INSTRUMENTS.map((i) => this.tickerJson(i)) : []);
      case 'GET /market/candles':
      case 'GET /market/history-candles': {
        // before < ts < after; newest first; rows [ts, o, h, l, c, vol (contracts), volCcy (coins), volCcyQuote, confirm].
        const i = this.inst(p.instId);
        const iv = barMs(p.bar);
        const limit = Math.min(300, Math.max(1, Number(p.limit ?? 100)));
        const before = p.before !== undefined ? Number(p.before) : undefined;
        const after = p.after !== undefined ? Number(p.after) : undefined;
        let rows = this.candleRows(i.symbol, iv, {
          fromMs: before !== undefined ? before + 1 : undefined,
          toMs: after !== undefined ? after - 1 : undefined,
          limit: before !== undefined ? 100_000 : limit + 1,
        });
        rows = rows.filter((x) => (before === undefined || x.time > before) && (after === undefined || x.time < after));
        if (rows.length > limit) rows = before !== undefined && after === undefined ? rows.slice(0, limit) : rows.slice(rows.length - limit);
        const lastTime = Math.floor(this.timeMs / iv) * iv;
        return this.ok(
          rows
            .reverse()
            .map((x) => [String(x.time), fmt(x.open), fmt(x.high), fmt(x.low), fmt(x.close), fmt(x.volume / i.ctVal), fmt(x.volume), fmt(x.volume * x.close), x.time >= lastTime ? '0' : '1']),
        );
      }
      default:
        throw new BinanceApiError(404, -5000, `Path ${path} could not be found.`);
    }
  }

  private tickerJson(i: OkxInstrument): Record<string, string> {
    const t = this.ticker24h(i.symbol);
    const last = this.book.price(i.symbol);
    return {
      instType: 'SWAP',
      instId: i.instId,
      last: fmt(last),
      lastSz: '0',
      bidPx: fmt(last),
      bidSz: '0',
      askPx: fmt(last),
      askSz: '0',
      open24h: fmt(t?.open ?? last),
      high24h: fmt(t?.high ?? last),
      low24h: fmt(t?.low ?? last),
      vol24h: fmt((t?.volume ?? 0) / i.ctVal),
      volCcy24h: fmt(t?.volume ?? 0),
      sodUtc0: fmt(t?.open ?? last),
      sodUtc8: fmt(t?.open ?? last),
      ts: String(this.timeMs),
    };
  }

  private lookup(p: Record<string, string>, code: number, msg: string): FakeOrder {
    const i = this.inst(p.instId);
    const o = this.book.find(i.symbol, p.ordId ? Number(p.ordId) : undefined, p.clOrdId);
    if (!o) throw new BinanceApiError(200, code, msg);
    return o;
  }

  private createOrders(body: string, fault: FaultAction | null, now: number): unknown {
    const parsed = JSON.parse(body) as unknown;
    const reqs = (Array.isArray(parsed) ? parsed : [parsed]) as Record<string, unknown>[];
    const out: unknown[] = [];
    for (const r of reqs) {
      const i = this.inst(String(r.instId));
      const order = this.book.create(
        {
          symbol: i.symbol,
          side: String(r.side).toUpperCase(),
          type: String(r.ordType).toUpperCase(),
          quantity: Number(r.sz) * i.ctVal,
          price: r.px !== undefined && r.px !== '' ? Number(r.px) : undefined,
          clientOrderId: typeof r.clOrdId === 'string' ? r.clOrdId : undefined,
          reduceOnly: r.reduceOnly === true || r.reduceOnly === 'true',
        },
        now,
      );
      const mark = this.book.price(i.symbol);
      if (fault?.type === 'partial') {
        this.book.fill(order, fault.fillQty * i.ctVal, order.type === 'LIMIT' ? order.price : mark, order.type === 'LIMIT', now);
        if (fault.then !== 'rest') this.book.cancel(order, now, 'CANCELED');
      } else if (order.type === 'MARKET' || (order.side === 'BUY' ? mark <= order.price : mark >= order.price)) {
        this.book.fill(order, order.origQty, order.type === 'MARKET' ? mark : order.price, false, now);
      }
      out.push({ ordId: String(order.orderId), clOrdId: order.clientOrderId, sCode: '0', sMsg: 'Order placed', tag: '', ts: String(now) });
    }
    return this.ok(out);
  }

  private instrumentJson(i: OkxInstrument): Record<string, string> {
    return {
      instType: 'SWAP',
      instId: i.instId,
      uly: `${i.base}-USDT`,
      instFamily: `${i.base}-USDT`,
      baseCcy: '',
      quoteCcy: '',
      settleCcy: 'USDT',
      ctVal: String(i.ctVal),
      ctMult: '1',
      ctValCcy: i.base,
      ctType: 'linear',
      lotSz: i.lotSz,
      minSz: i.minSz,
      tickSz: i.tickSz,
      lever: '100',
      maxMktSz: '10000',
      maxLmtSz: '100000',
      state: 'live',
      listTime: '1611916828000',
      expTime: '',
      optType: '',
      stk: '',
      alias: '',
    };
  }

  private orderJson(o: FakeOrder): Record<string, string> {
    const i = this.inst(o.symbol);
    const state = o.status === 'NEW' ? 'live' : o.status === 'PARTIALLY_FILLED' ? 'partially_filled' : o.status === 'FILLED' ? 'filled' : 'canceled';
    const fee = this.book.trades.filter((t) => t.orderId === o.orderId).reduce((s, t) => s + t.commission, 0);
    return {
      instType: 'SWAP',
      instId: i.instId,
      ordId: String(o.orderId),
      clOrdId: o.clientOrderId,
      tag: '',
      px: o.type === 'LIMIT' ? fmt(o.price) : '',
      sz: fmt(o.origQty / i.ctVal),
      ordType: o.type.toLowerCase(),
      side: o.side.toLowerCase(),
      posSide: 'net',
      tdMode: 'cross',
      accFillSz: fmt(o.executedQty / i.ctVal),
      fillPx: '',
      fillSz: '',
      avgPx: o.executedQty > 0 ? fmt(o.cumQuote / o.executedQty) : '',
      state,
      lever: String(this.book.lev(o.symbol)),
      fee: fmt(-fee),
      feeCcy: 'USDT',
      reduceOnly: String(o.reduceOnly),
      cTime: String(o.time),
      uTime: String(o.updateTime),
    };
  }

  private positions(instId?: string): unknown[] {
    const b = this.book;
    const ids = instId ? instId.split(',') : null;
    const out: unknown[] = [];
    for (const [symbol, p] of b.positions) {
      if (p.amt === 0) continue;
      const i = this.inst(symbol);
      if (ids && !ids.includes(i.instId)) continue;
      const mark = b.price(symbol);
      out.push({
        instType: 'SWAP',
        instId: i.instId,
        posId: String(i.instId.length),
        posSide: 'net',
        pos: fmt(p.amt / i.ctVal),
        avgPx: fmt(p.entryPrice),
        markPx: fmt(mark),
        upl: fmt((mark - p.entryPrice) * p.amt),
        lever: String(b.lev(symbol)),
        mgnMode: 'cross',
        imr: fmt((Math.abs(p.amt) * mark) / b.lev(symbol)),
        mmr: fmt(Math.abs(p.amt) * mark * 0.004),
        notionalUsd: fmt(Math.abs(p.amt) * mark),
        liqPx: '',
        ccy: 'USDT',
        margin: '',
        cTime: String(this.now()),
        uTime: String(this.now()),
      });
    }
    return out;
  }
}

/** An OKX-only refusal (authentication, clock) with its own code. */
class OkxError extends BinanceApiError {
  constructor(
    status: number,
    readonly okxCode: string,
    message: string,
  ) {
    super(status, 0, message);
  }
}
