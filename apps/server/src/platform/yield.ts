// Background work that gives way to requests. On the embedded database every statement of a job
// waits in the same queue as the API's, so a job writing 100,000 rows in big statements holds each
// request up by a whole statement per query it makes. Jobs that move many rows (the notices'
// fan-out, notification delivery) write in small statements and, before each step, wait their turn
// (one step at a time) and, while requests come in, for none to be in flight (bounded, so steady
// traffic slows them but never stops them) and a few milliseconds more. In a worker process that
// serves no requests this never waits.
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';

/** A request within this long means traffic: background steps are spaced out. */
const TRAFFIC_WINDOW_MS = 1000;
/** The space between background steps under traffic (a step is one small statement or a few). */
const STEP_GAP_MS = 4;

export class RequestGate {
  private inFlight = 0;
  private lastRequestAt = -Infinity;
  private waiters: (() => void)[] = [];
  private turn: Promise<void> = Promise.resolve();

  enter(): void {
    this.inFlight++;
    this.lastRequestAt = performance.now();
  }

  leave(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (this.inFlight === 0) this.release();
  }

  /** Requests being answered now. */
  get busy(): number {
    return this.inFlight;
  }

  /**
   * Resolves when a background step may run. Steps go one at a time; under traffic each waits for
   * no request in flight (at most `maxWaitMs`) and then a short gap, so requests find the database
   * free most of the time; without traffic they run back to back.
   */
  quiet(maxWaitMs = 50): Promise<void> {
    const mine = this.turn.then(async () => {
      if (performance.now() - this.lastRequestAt > TRAFFIC_WINDOW_MS) return new Promise<void>((resolve) => setImmediate(resolve));
      if (this.inFlight > 0) await this.idle(maxWaitMs);
      await new Promise((resolve) => setTimeout(resolve, STEP_GAP_MS));
    });
    this.turn = mine;
    return mine;
  }

  private idle(maxWaitMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve();
      }, maxWaitMs);
      this.waiters.push(done);
    });
  }

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

/** Counts the app's requests in flight (a request leaves when answered, or when its client went away). */
export function trackRequests(app: FastifyInstance, gate: RequestGate): void {
  app.addHook('onRequest', (request, _reply, done) => {
    gate.enter();
    (request as { gateEntered?: boolean }).gateEntered = true;
    done();
  });
  const leave = (request: object) => {
    const r = request as { gateEntered?: boolean };
    if (!r.gateEntered) return;
    r.gateEntered = false;
    gate.leave();
  };
  app.addHook('onResponse', (request, _reply, done) => {
    leave(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    leave(request);
    done();
  });
}

/** For work with no requests to give way to (tests, command-line tools). */
export const noRequests = { quiet: () => new Promise<void>((resolve) => setImmediate(resolve)) };
export type Yielder = { quiet(maxWaitMs?: number): Promise<void> };
