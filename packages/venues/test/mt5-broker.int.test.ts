// The engine's Broker port (VenueBroker, as the robot runner uses it) over Mt5Venue and the FakeEa:
// a forex robot opens and closes through the executor, in lots, with one order per intent.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { BRIDGE_PATH } from '@lq/contracts';
import { executeIntents, getInstrument, type Fill } from '@lq/engine';
import { FakeEa, FakeMt5Broker, MemoryIntentJournal, Mt5Link, Mt5Venue, VenueBroker, clientOrderId, magicOf } from '../src/index';

let wss: WebSocketServer;
let url: string;
let link: Mt5Link;
const eas: FakeEa[] = [];

beforeAll(async () => {
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: BRIDGE_PATH });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  url = `ws://127.0.0.1:${(wss.address() as { port: number }).port}${BRIDGE_PATH}`;
  wss.on('connection', (ws: WebSocket) => {
    const h = link.attach({ send: (t) => ws.send(t), close: (c, r) => ws.close(c, r) });
    ws.on('message', (d: Buffer) => void h.receive(d.toString()));
    ws.on('close', () => h.closed());
  });
});
afterAll(async () => {
  await new Promise<void>((r) => wss.close(() => r()));
});
afterEach(() => {
  for (const ea of eas.splice(0)) ea.close();
});

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
}

describe('VenueBroker over Mt5Venue', () => {
  for (const [marginMode, deferFills] of [['hedging', false], ['netting', false], ['hedging', true]] as const) {
    it(`opens and closes a EURUSD ticket on a ${marginMode} account${deferFills ? ' (runner mode: fills at sync)' : ''}, one broker order per intent`, async () => {
      link = new Mt5Link(1);
      const fx = new FakeMt5Broker({ marginMode, suffix: '.pro', dataDir: null, prices: { EURUSD: 1.1 } });
      const ea = new FakeEa({ url, token: 't', broker: fx });
      eas.push(ea);
      await ea.connect();
      ea.heartbeat();
      await until(() => link.status() === 'online');
      const venue = new Mt5Venue({ session: link });
      const market = await venue.market('EURUSD');
      const journal = new MemoryIntentJournal();
      const broker = new VenueBroker({ venue, market, instrument: getInstrument('EURUSD'), robotId: 'fx1', journal, clock: { now: () => 1_700_000_000_000 }, deferFills });
      const fills: Fill[] = [];
      broker.setFillListener((f) => fills.push(f));

      executeIntents([{ kind: 'open', tag: 'g1', side: 'long', qty: 0.2, type: 'market' }], broker);
      await broker.flush();
      await broker.sync();
      expect(broker.tickets).toEqual([expect.objectContaining({ tag: 'g1', side: 'long', qty: 0.2, entryPrice: 1.10008 })]);
      await until(() => (link.snapshot()?.positions.length ?? 0) === 1);

      fx.setPrice('EURUSD', 1.101);
      executeIntents([{ kind: 'close', tag: 'g1c', ticket: 'g1', type: 'market', reason: 'takeProfit' }], broker);
      await broker.flush();
      await broker.sync();
      expect(broker.tickets).toEqual([]);
      expect(fills.map((f) => [f.action, f.qty, f.price])).toEqual([
        ['open', 0.2, 1.10008],
        ['close', 0.2, 1.101],
      ]);
      expect(fx.positions.size).toBe(0);
      for (const tag of ['g1', 'g1c']) {
        const id = clientOrderId('fx1', tag, tag === 'g1' ? 'open' : 'close');
        expect(fx.ordersCreated(magicOf(id))).toBe(1);
      }
    });
  }
});
