// The gate background jobs give way to requests through: counts requests in flight (answered or
// abandoned), holds a step while one is in flight and lets it go when none is (or after the bound),
// and lets steps through one at a time in the order they asked.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { RequestGate, trackRequests } from './yield';

describe('RequestGate', () => {
  it('counts the requests in flight, answered or failed', async () => {
    const app = Fastify();
    const gate = new RequestGate();
    trackRequests(app, gate);
    const seen: number[] = [];
    app.get('/ok', (_req, reply) => {
      seen.push(gate.busy);
      setImmediate(() => void reply.send({ ok: true }));
      return reply;
    });
    app.get('/fail', () => {
      seen.push(gate.busy);
      throw new Error('boom');
    });
    await app.inject({ method: 'GET', url: '/ok' });
    await app.inject({ method: 'GET', url: '/fail' });
    await Promise.all([app.inject({ method: 'GET', url: '/ok' }), app.inject({ method: 'GET', url: '/ok' })]);
    expect(seen.slice(0, 2)).toEqual([1, 1]);
    expect(Math.max(...seen.slice(2))).toBe(2);
    expect(gate.busy).toBe(0);
    await app.close();
  });

  it('holds a step while a request is in flight and lets it go when none is', async () => {
    const gate = new RequestGate();
    gate.enter();
    let ran = false;
    const step = gate.quiet(60_000).then(() => {
      ran = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(ran).toBe(false);
    gate.leave();
    await step;
    expect(ran).toBe(true);
  });

  it('does not hold a step longer than its bound however busy it stays', async () => {
    const gate = new RequestGate();
    gate.enter();
    await gate.quiet(5);
    expect(gate.busy).toBe(1);
  });

  it('lets steps through one at a time, in the order they asked', async () => {
    const gate = new RequestGate();
    gate.enter();
    const order: number[] = [];
    const steps = [1, 2, 3].map((n) => gate.quiet(60_000).then(() => order.push(n)));
    gate.leave();
    await Promise.all(steps);
    expect(order).toEqual([1, 2, 3]);
  });

  it('runs steps back to back when no request came lately', async () => {
    const gate = new RequestGate();
    const order: number[] = [];
    await Promise.all([1, 2].map((n) => gate.quiet().then(() => order.push(n))));
    expect(order).toEqual([1, 2]);
  });
});
