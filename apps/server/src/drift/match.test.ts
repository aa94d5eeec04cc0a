// Matching live trades with the shadow's, on generated trade lists (fast-check): pairing is
// one-to-one, every trade is paired or explained, pairs by time stay within the tolerance, and a
// robot that traded exactly as its shadow has every trade paired by leg with nothing to explain.
// Then the causes, one by one, from a robot's record.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchTrades, tradesOf, withFunding, withMarketMove, type RobotRecord, type TradeFill } from './match';

const MIN = 60_000;
const empty: RobotRecord = { intents: new Map(), gates: [], errors: [], reconciles: [], stoppedAt: null };
const opts = { toleranceMs: 5 * MIN, point: 0.1, contractSize: 1 };

const fillArb = fc.record({
  clientOrderId: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'),
  action: fc.constantFrom('open' as const, 'close' as const),
  side: fc.constantFrom('long' as const, 'short' as const),
  qty: fc.double({ min: 0.001, max: 5, noNaN: true }),
  price: fc.double({ min: 100, max: 100_000, noNaN: true }),
  fee: fc.double({ min: 0, max: 5, noNaN: true }),
  pnl: fc.double({ min: -50, max: 50, noNaN: true }),
  time: fc.integer({ min: 0, max: 600 }).map((m) => m * MIN),
  reason: fc.constant(null),
});
/** Fills with ids unique per (action, side) as a robot's are (one id, one order). */
const fillsArb = fc.array(fillArb, { maxLength: 24 }).map((fills) => fills.map((f, i) => ({ ...f, clientOrderId: `${f.clientOrderId}${i}` })));

describe('matching', () => {
  it('is one-to-one and every trade is paired or explained (generated lists)', () => {
    fc.assert(
      fc.property(fillsArb, fillsArb, fc.boolean(), (shadowFills, extra, shareIds) => {
        // Live: some shadow fills kept (their ids, or new ids), shifted a little; plus extra ones.
        const live: TradeFill[] = shadowFills
          .filter((_, i) => i % 3 !== 0)
          .map((f, i) => ({ ...f, clientOrderId: shareIds ? f.clientOrderId : `x${i}`, time: f.time + (i % 4) * MIN, price: f.price * 1.001 }))
          .concat(extra.map((f) => ({ ...f, clientOrderId: `extra-${f.clientOrderId}` })));
        const m = matchTrades(shadowFills, live, empty, opts);
        const shadowTrades = tradesOf(shadowFills);
        const liveTrades = tradesOf(live);
        const shadowSeen = [...m.pairs.map((p) => p.shadow), ...m.unpaired.filter((u) => u.on === 'shadow').map((u) => u.trade)];
        const liveSeen = [...m.pairs.map((p) => p.live), ...m.unpaired.filter((u) => u.on === 'live').map((u) => u.trade)];
        expect(new Set(shadowSeen).size).toBe(shadowSeen.length);
        expect(new Set(liveSeen).size).toBe(liveSeen.length);
        expect(shadowSeen.map((t) => t.clientOrderId).sort()).toEqual(shadowTrades.map((t) => t.clientOrderId).sort());
        expect(liveSeen.map((t) => t.clientOrderId).sort()).toEqual(liveTrades.map((t) => t.clientOrderId).sort());
        for (const u of m.unpaired) expect(u.cause).toBeTruthy();
        for (const p of m.pairs) {
          expect([p.live.action, p.live.side]).toEqual([p.shadow.action, p.shadow.side]);
          if (p.by === 'time') expect(Math.abs(p.offsetMs)).toBeLessThanOrEqual(opts.toleranceMs);
          else expect(p.live.clientOrderId).toBe(p.shadow.clientOrderId);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a robot that traded as its shadow: every trade paired by leg, no slippage, nothing to explain', () => {
    fc.assert(
      fc.property(fillsArb, (fills) => {
        const m = matchTrades(fills, fills, empty, opts);
        expect(m.unpaired).toEqual([]);
        expect(m.pairs.length).toBe(tradesOf(fills).length);
        for (const p of m.pairs) expect([p.by, p.offsetMs, p.movePoints, p.slippagePoints, p.feeDiff, p.qtyShort]).toEqual(['leg', 0, 0, 0, 0, 0]);
      }),
    );
  });

  it('sums a live order’s partial fills and prices slippage against the trader', () => {
    const shadow: TradeFill[] = [{ clientOrderId: 'o1', action: 'open', side: 'long', qty: 2, price: 100, fee: 0.1, pnl: 0, time: 0, reason: null }];
    const live: TradeFill[] = [
      { clientOrderId: 'o1', action: 'open', side: 'long', qty: 1, price: 100.2, fee: 0.06, pnl: 0, time: MIN, reason: null },
      { clientOrderId: 'o1', action: 'open', side: 'long', qty: 0.5, price: 100.5, fee: 0.03, pnl: 0, time: 2 * MIN, reason: null },
    ];
    const [p] = matchTrades(shadow, live, empty, opts).pairs;
    expect(p.live).toMatchObject({ qty: 1.5, fills: 2, time: MIN });
    expect(p.live.price).toBeCloseTo(100.3, 9);
    expect(p.slippagePoints).toBeCloseTo(3, 9); // bought 0.3 dearer, point 0.1
    expect(p.slippageMoney).toBeCloseTo(0.45, 9);
    expect(p.feeDiff).toBeCloseTo(-0.01, 9);
    expect(p.qtyShort).toBeCloseTo(0.5, 9);
    // Closing a long sells: a lower price is the worse one.
    const [sell] = matchTrades(
      [{ ...shadow[0], action: 'close' }],
      [{ ...shadow[0], action: 'close', price: 99.8 }],
      empty,
      opts,
    ).pairs;
    expect(sell.slippagePoints).toBeCloseTo(2, 9);
  });

  it('names why a shadow trade was missed and why a live trade is extra', () => {
    const at = (m: number, id: string, over: Partial<TradeFill> = {}): TradeFill => ({ clientOrderId: id, action: 'open', side: 'long', qty: 1, price: 100, fee: 0, pnl: 0, time: m * MIN, reason: null, ...over });
    const record: RobotRecord = {
      intents: new Map([
        ['refused', { state: 'rejected', error: 'insufficientFunds: Margin is insufficient' }],
        ['resting', { state: 'open', error: null }],
      ]),
      gates: [
        { at: 100 * MIN, mode: 'paused' },
        { at: 200 * MIN, mode: 'open' },
        { at: 500 * MIN, mode: 'stopping' },
      ],
      errors: [{ at: 300 * MIN, key: 'venueFault', message: 'bridge offline' }],
      reconciles: [400 * MIN],
      stoppedAt: 510 * MIN,
    };
    const shadow = [at(10, 'refused'), at(20, 'resting'), at(150, 's-paused'), at(301, 's-down'), at(505, 's-stopping'), at(520, 's-stopped'), at(250, 's-nothing', { side: 'short' })];
    const live = [at(401, 'l-reconciled', { action: 'close', side: 'short' }), at(502, 'l-closeout', { action: 'close', side: 'short', reason: 'manual' }), at(260, 'l-nothing', { action: 'close', side: 'short' })];
    const m = matchTrades(shadow, live, record, { ...opts, toleranceMs: 3 * MIN });
    expect(m.pairs).toEqual([]);
    expect(m.unpaired.map((u) => [u.on, u.trade.clientOrderId, u.cause, u.detail])).toEqual([
      ['shadow', 'refused', 'refused', 'insufficientFunds: Margin is insufficient'],
      ['shadow', 'resting', 'notFilled', 'open'],
      ['shadow', 's-paused', 'paused', null],
      ['shadow', 's-nothing', 'unknown', null],
      ['live', 'l-nothing', 'unknown', null],
      ['shadow', 's-down', 'venueDown', 'bridge offline'],
      ['live', 'l-reconciled', 'reconciled', null],
      ['live', 'l-closeout', 'stopCloseOut', null],
      ['shadow', 's-stopping', 'stopped', null],
      ['shadow', 's-stopped', 'stopped', null],
    ]);
  });

  it('tells the market’s move while a late order waited (timing) from the venue’s slippage', () => {
    // The shadow bought at 100 (candle 0); the live order filled 3 candles later at 100.9 while the
    // market had gone to 100.6 by then: 6 points of timing, 3 of slippage.
    const closes = new Map([[0, 100], [MIN, 100.2], [2 * MIN, 100.4], [3 * MIN, 100.6]]);
    const closeAt = (time: number) => closes.get(Math.floor(time / MIN) * MIN);
    const shadow: TradeFill[] = [{ clientOrderId: 'o1', action: 'open', side: 'long', qty: 2, price: 100, fee: 0, pnl: 0, time: 0, reason: null }];
    const live: TradeFill[] = [{ ...shadow[0], price: 100.9, time: 3 * MIN }];
    const [p] = withMarketMove(matchTrades(shadow, live, empty, opts).pairs, closeAt, opts);
    expect(p.offsetMs).toBe(3 * MIN);
    expect(p.movePoints).toBeCloseTo(6, 9);
    expect(p.moveMoney).toBeCloseTo(1.2, 9);
    expect(p.slippagePoints).toBeCloseTo(3, 9);
    expect(p.slippageMoney).toBeCloseTo(0.6, 9);
    // Without the candles all of it is slippage; a sell gains from a market that rose meanwhile.
    const [blind] = matchTrades(shadow, live, empty, opts).pairs;
    expect([blind.movePoints, blind.slippagePoints]).toEqual([0, expect.closeTo(9, 9) as number]);
    const [sell] = withMarketMove(matchTrades([{ ...shadow[0], action: 'close' }], [{ ...live[0], action: 'close', price: 100.5 }], empty, opts).pairs, closeAt, opts);
    expect(sell.movePoints).toBeCloseTo(-5, 9); // sold 5 points dearer: all of it the market's move
    expect(sell.slippagePoints).toBeCloseTo(0, 9);
    // A limit filled at its price a candle later: no timing cost, no slippage, whatever the market did.
    const [limit] = withMarketMove(matchTrades(shadow, [{ ...live[0], price: 100 }], empty, opts).pairs, closeAt, opts);
    expect([limit.movePoints, limit.slippagePoints]).toEqual([0, 0]);
    // The market moved less than the price: the rest is slippage.
    const [part] = withMarketMove(matchTrades(shadow, [{ ...live[0], price: 101 }], empty, opts).pairs, (time) => (time === 0 ? 100 : 100.2), opts);
    expect(part.movePoints).toBeCloseTo(2, 9);
    expect(part.slippagePoints).toBeCloseTo(8, 9);
  });

  it('a close whose opening was missed is missed for that reason', () => {
    const f = (id: string, m: number, over: Partial<TradeFill>): TradeFill => ({ clientOrderId: id, action: 'open', side: 'long', qty: 1, price: 100, fee: 0, pnl: 0, time: m * MIN, reason: null, ...over });
    const record: RobotRecord = { ...empty, intents: new Map([['open-1', { state: 'rejected', error: 'Margin is insufficient.' }]]) };
    const shadow = [f('open-1', 10, { ticket: 't1' }), f('close-1', 40, { action: 'close', ticket: 't1' }), f('open-2', 50, { ticket: 't2' }), f('close-2', 70, { action: 'close', ticket: 't2' })];
    const live = [f('open-2', 50, { ticket: 't2' })];
    const m = matchTrades(shadow, live, record, opts);
    expect(m.unpaired.map((u) => [u.trade.clientOrderId, u.cause, u.detail])).toEqual([
      ['open-1', 'refused', 'Margin is insufficient.'],
      ['close-1', 'openMissed', 'refused: Margin is insufficient.'],
      // Its opening was paired: nothing in the record says why the close is missing.
      ['close-2', 'unknown', null],
    ]);
  });

  it('pairs by time what the ids do not, nearest first, never beyond the tolerance', () => {
    const f = (id: string, m: number): TradeFill => ({ clientOrderId: id, action: 'open', side: 'long', qty: 1, price: 100, fee: 0, pnl: 0, time: m * MIN, reason: null });
    const m = matchTrades([f('s1', 10), f('s2', 12)], [f('l1', 13), f('l2', 11), f('l3', 30)], empty, opts);
    expect(m.pairs.map((p) => [p.shadow.clientOrderId, p.live.clientOrderId, p.by])).toEqual([
      ['s1', 'l2', 'time'],
      ['s2', 'l1', 'time'],
    ]);
    expect(m.unpaired.map((u) => u.trade.clientOrderId)).toEqual(['l3']);
  });

  it('shares each funding settlement among the live positions open then, by signed size, on the trade that opened each', () => {
    const H = 60 * MIN;
    const f = (id: string, h: number, over: Partial<TradeFill>): TradeFill => ({ clientOrderId: id, action: 'open', side: 'long', qty: 1, price: 100, fee: 0, pnl: 0, time: h * H, reason: null, ...over });
    // t1: long 1 from 1 h to 10 h; t2: long 3 from 2 h, still open; t3: short 1 from 3 h to 12 h, an extra trade (no shadow).
    const shadow = [f('o1', 1, { ticket: 't1' }), f('c1', 10, { action: 'close', ticket: 't1' }), f('o2', 2, { qty: 3, ticket: 't2' })];
    const live = [...shadow, f('o3', 3, { side: 'short', ticket: 't3' }), f('c3', 12, { action: 'close', side: 'short', ticket: 't3' })];
    const m = matchTrades(shadow, live, empty, opts);
    // At 8 h the net position is +1 +3 −1 = 3 long: −0.3 paid; at 16 h only t2 (3 long): −0.3;
    // at 0 h nothing was held (stays with the robot only).
    const funded = withFunding(m, [{ time: 0, amount: -0.5 }, { time: 8 * H, amount: -0.3 }, { time: 16 * H, amount: -0.3 }]);
    const byId = new Map(funded.pairs.map((p) => [p.live.clientOrderId, p.funding]));
    expect(byId.get('o1')).toBeCloseTo(-0.1, 12);
    expect(byId.get('o2')).toBeCloseTo(-0.3 - 0.3, 12);
    expect(byId.get('c1')).toBe(0); // a close carries none: its position's is on its opening
    const extra = funded.unpaired.find((u) => u.trade.clientOrderId === 'o3')!;
    expect(extra.funding).toBeCloseTo(0.1, 12); // the short gets what the longs pay
    expect(funded.pairs.reduce((s, p) => s + p.funding, 0) + funded.unpaired.reduce((s, u) => s + u.funding, 0)).toBeCloseTo(-0.6, 12);
    // The input is left as it was.
    expect(m.pairs.every((p) => p.funding === 0)).toBe(true);
    // A trade at the settlement's very time came after it.
    const sameTime = withFunding(matchTrades([], [f('o9', 8, { ticket: 't9' })], empty, opts), [{ time: 8 * H, amount: -1 }]);
    expect(sameTime.unpaired[0].funding).toBe(0);
  });
});

