// In-memory Binance USDⓈ-M futures account: markets, wallet, net-mode positions and orders. Pure
// state machine; the HTTP layer (server.ts) signs, routes and injects faults around it.

export interface FakeMarket {
  symbol: string;
  baseAsset: string;
  quoteAsset: string;
  tickSize: string;
  stepSize: string;
  minQty: string;
  maxQty: string;
  minNotional: string;
}

export type OrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED' | 'REJECTED';

export interface FakeOrder {
  orderId: number;
  clientOrderId: string;
  symbol: string;
  status: OrderStatus;
  side: 'BUY' | 'SELL';
  type: 'MARKET' | 'LIMIT';
  price: number;
  origQty: number;
  executedQty: number;
  cumQuote: number;
  reduceOnly: boolean;
  time: number;
  updateTime: number;
  /** Fault `slippage`: a market fill this many basis points worse than the mark. */
  slippageBps?: number;
  /** Fault `latency` with `marketMs`: the order reaches the book at this market time. */
  notBefore?: number;
}

export interface FakeTrade {
  id: number;
  orderId: number;
  symbol: string;
  side: 'BUY' | 'SELL';
  price: number;
  qty: number;
  commission: number;
  maker: boolean;
  time: number;
}

/** A funding payment (Binance's income record, incomeType FUNDING_FEE): negative when paid. */
export interface FakeFunding {
  id: number;
  symbol: string;
  amount: number;
  time: number;
}

export interface FakePosition {
  /** Signed amount in coins (net mode). */
  amt: number;
  entryPrice: number;
}

/** Binance-style rejection: HTTP status, venue code and message. */
export class BinanceApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export const DEFAULT_MARKETS: FakeMarket[] = [
  { symbol: 'BTCUSDT', baseAsset: 'BTC', quoteAsset: 'USDT', tickSize: '0.10', stepSize: '0.001', minQty: '0.001', maxQty: '1000', minNotional: '100' },
  { symbol: 'ETHUSDT', baseAsset: 'ETH', quoteAsset: 'USDT', tickSize: '0.01', stepSize: '0.001', minQty: '0.001', maxQty: '10000', minNotional: '20' },
];

const TAKER_FEE = 0.0004;
const MAKER_FEE = 0.0002;
const CLIENT_ID = /^[.A-Z:/a-z0-9_-]{1,36}$/;

function isMultiple(x: number, step: number): boolean {
  const r = x / step;
  return Math.abs(r - Math.round(r)) < 1e-7;
}

export class BinanceBook {
  markets = new Map<string, FakeMarket>();
  /** USDT wallet balance (realised), in quote. */
  wallet = 0;
  positions = new Map<string, FakePosition>();
  leverage = new Map<string, number>();
  prices = new Map<string, number>();
  orders: FakeOrder[] = [];
  trades: FakeTrade[] = [];
  /** Funding rate per settlement, every symbol (0: none); longs pay a positive rate, shorts receive it. */
  fundingRate = 0;
  funding: FakeFunding[] = [];
  /** What a create answers with for a resting order: NEW (default) or, for market orders, FILLED. */
  private nextOrderId = 8_000_000_001;
  private nextTradeId = 1;
  private nextFundingId = 1;

  constructor(markets: FakeMarket[] = DEFAULT_MARKETS, wallet = 10_000) {
    for (const m of markets) this.markets.set(m.symbol, m);
    this.wallet = wallet;
  }

  market(symbol: string): FakeMarket {
    const m = this.markets.get(symbol);
    if (!m) throw new BinanceApiError(400, -1121, 'Invalid symbol.');
    return m;
  }

  price(symbol: string): number {
    const p = this.prices.get(symbol);
    if (p === undefined) throw new BinanceApiError(400, -1121, `No price for ${symbol}.`);
    return p;
  }

  lev(symbol: string): number {
    return this.leverage.get(symbol) ?? 20;
  }

  unrealized(): number {
    let u = 0;
    for (const [s, p] of this.positions) if (p.amt !== 0) u += (this.price(s) - p.entryPrice) * p.amt;
    return u;
  }

  initialMargin(): number {
    let m = 0;
    for (const [s, p] of this.positions) m += (Math.abs(p.amt) * this.price(s)) / this.lev(s);
    for (const o of this.openOrders()) if (!o.reduceOnly) m += ((o.origQty - o.executedQty) * (o.price || this.price(o.symbol))) / this.lev(o.symbol);
    return m;
  }

  available(): number {
    return this.wallet + this.unrealized() - this.initialMargin();
  }

  openOrders(symbol?: string): FakeOrder[] {
    return this.orders.filter((o) => (o.status === 'NEW' || o.status === 'PARTIALLY_FILLED') && (!symbol || o.symbol === symbol));
  }

  find(symbol: string, orderId?: number, clientOrderId?: string): FakeOrder | undefined {
    for (let i = this.orders.length - 1; i >= 0; i--) {
      const o = this.orders[i];
      if (o.symbol !== symbol) continue;
      if (orderId !== undefined && o.orderId === orderId) return o;
      if (clientOrderId !== undefined && o.clientOrderId === clientOrderId) return o;
    }
    return undefined;
  }

  /** Validates and stores a new order; market orders fill at the mark unless `fillQty` limits them. */
  create(
    req: { symbol: string; side: string; type: string; quantity: number; price?: number; clientOrderId?: string; reduceOnly: boolean },
    now: number,
  ): FakeOrder {
    const m = this.market(req.symbol);
    if (req.side !== 'BUY' && req.side !== 'SELL') throw new BinanceApiError(400, -1117, 'Invalid side.');
    if (req.type !== 'MARKET' && req.type !== 'LIMIT') throw new BinanceApiError(400, -1116, 'Invalid orderType.');
    const clientOrderId = req.clientOrderId ?? `fake${this.nextOrderId}`;
    if (!CLIENT_ID.test(clientOrderId)) throw new BinanceApiError(400, -1100, "Illegal characters found in parameter 'newClientOrderId'.");
    if (this.openOrders(req.symbol).some((o) => o.clientOrderId === clientOrderId)) {
      throw new BinanceApiError(400, -4116, 'ClientOrderId is duplicated.');
    }
    const qty = req.quantity;
    if (!(qty > 0) || !isMultiple(qty, Number(m.stepSize))) throw new BinanceApiError(400, -4023, 'Quantity not increased by step size.');
    if (qty < Number(m.minQty) || qty > Number(m.maxQty)) throw new BinanceApiError(400, -4003, 'Quantity less than or equal to zero.');
    let price = 0;
    if (req.type === 'LIMIT') {
      price = req.price ?? 0;
      if (!(price > 0) || !isMultiple(price, Number(m.tickSize))) throw new BinanceApiError(400, -4014, 'Price not increased by tick size.');
    }
    const mark = this.price(req.symbol);
    const notional = qty * (price || mark);
    if (!req.reduceOnly && notional < Number(m.minNotional)) {
      throw new BinanceApiError(400, -4164, `Order's notional must be no smaller than ${m.minNotional} (unless you choose reduce only).`);
    }
    const pos = this.positions.get(req.symbol)?.amt ?? 0;
    const signed = req.side === 'BUY' ? qty : -qty;
    if (req.reduceOnly && (pos === 0 || Math.sign(pos) === Math.sign(signed) || Math.abs(signed) > Math.abs(pos) + 1e-12)) {
      throw new BinanceApiError(400, -2022, 'ReduceOnly Order is rejected.');
    }
    if (!req.reduceOnly && notional / this.lev(req.symbol) > this.available() + 1e-9) {
      throw new BinanceApiError(400, -2019, 'Margin is insufficient.');
    }
    const order: FakeOrder = {
      orderId: this.nextOrderId++,
      clientOrderId,
      symbol: req.symbol,
      status: 'NEW',
      side: req.side,
      type: req.type,
      price,
      origQty: qty,
      executedQty: 0,
      cumQuote: 0,
      reduceOnly: req.reduceOnly,
      time: now,
      updateTime: now,
    };
    this.orders.push(order);
    return order;
  }

  /** Fills `qty` of an order at `price`, updating the position and the wallet. */
  fill(order: FakeOrder, qty: number, price: number, maker: boolean, now: number): void {
    const q = Math.min(qty, order.origQty - order.executedQty);
    if (q <= 0) return;
    const signed = order.side === 'BUY' ? q : -q;
    const pos = this.positions.get(order.symbol) ?? { amt: 0, entryPrice: 0 };
    if (pos.amt === 0 || Math.sign(pos.amt) === Math.sign(signed)) {
      const amt = pos.amt + signed;
      pos.entryPrice = (pos.entryPrice * Math.abs(pos.amt) + price * q) / Math.abs(amt);
      pos.amt = amt;
    } else {
      const closing = Math.min(Math.abs(pos.amt), q);
      this.wallet += (price - pos.entryPrice) * closing * Math.sign(pos.amt);
      const amt = pos.amt + signed;
      if (Math.abs(amt) < 1e-12) {
        pos.amt = 0;
        pos.entryPrice = 0;
      } else if (Math.sign(amt) !== Math.sign(pos.amt)) {
        pos.amt = amt;
        pos.entryPrice = price;
      } else pos.amt = amt;
    }
    this.positions.set(order.symbol, pos);
    const fee = q * price * (maker ? MAKER_FEE : TAKER_FEE);
    this.wallet -= fee;
    order.executedQty += q;
    order.cumQuote += q * price;
    order.status = order.executedQty >= order.origQty - 1e-12 ? 'FILLED' : 'PARTIALLY_FILLED';
    order.updateTime = now;
    this.trades.push({ id: this.nextTradeId++, orderId: order.orderId, symbol: order.symbol, side: order.side, price, qty: q, commission: fee, maker, time: now });
  }

  /** A funding settlement at `time`: every open position pays (or gets) rate × its notional at the mark. */
  settleFunding(time: number): void {
    if (this.fundingRate === 0) return;
    for (const [symbol, p] of this.positions) {
      if (p.amt === 0) continue;
      const amount = Number((-this.fundingRate * p.amt * this.price(symbol)).toFixed(8));
      this.wallet += amount;
      this.funding.push({ id: this.nextFundingId++, symbol, amount, time });
    }
  }

  cancel(order: FakeOrder, now: number, status: 'CANCELED' | 'EXPIRED' = 'CANCELED'): void {
    order.status = status;
    order.updateTime = now;
  }

  /** A market order's price at `mark`: worse by its slippage (fault), to the tick. */
  slipped(order: FakeOrder, mark: number): number {
    if (!order.slippageBps) return mark;
    const tick = Number(this.market(order.symbol).tickSize);
    const worse = mark * (1 + ((order.side === 'BUY' ? 1 : -1) * order.slippageBps) / 10_000);
    return Number((Math.round(worse / tick) * tick).toFixed(10));
  }

  /**
   * Moves the mark; resting limit orders crossed by [low, high] fill at their price (maker), market
   * orders still waiting (ack NEW, or late by a latency fault) at the mark.
   */
  setPrice(symbol: string, price: number, now: number, low = price, high = price): void {
    this.prices.set(symbol, price);
    for (const o of this.openOrders(symbol)) {
      if (o.notBefore !== undefined && now < o.notBefore) continue;
      if (o.type === 'MARKET') this.fill(o, o.origQty, this.slipped(o, price), false, now);
      else if ((o.side === 'BUY' && low <= o.price) || (o.side === 'SELL' && high >= o.price)) {
        this.fill(o, o.origQty, o.price, true, now);
      }
    }
  }
}

const num = (x: number): string => (Number.isFinite(x) ? String(Math.round(x * 1e8) / 1e8) : '0');

export function orderJson(o: FakeOrder): Record<string, unknown> {
  return {
    orderId: o.orderId,
    symbol: o.symbol,
    status: o.status,
    clientOrderId: o.clientOrderId,
    price: num(o.price),
    avgPrice: num(o.executedQty > 0 ? o.cumQuote / o.executedQty : 0),
    origQty: num(o.origQty),
    executedQty: num(o.executedQty),
    cumQuote: num(o.cumQuote),
    timeInForce: o.type === 'LIMIT' ? 'GTC' : 'GTC',
    type: o.type,
    origType: o.type,
    reduceOnly: o.reduceOnly,
    closePosition: false,
    side: o.side,
    positionSide: 'BOTH',
    stopPrice: '0',
    workingType: 'CONTRACT_PRICE',
    priceProtect: false,
    time: o.time,
    updateTime: o.updateTime,
  };
}

export { num as fmt };
