// Crash harness (the CI crash test and `npm run soak`): a live grid robot on the fake Binance, its
// runner a child process (`apps/server/src/runner/main.ts`, ROLE=runner, its own PGlite data dir or
// a scratch PostgreSQL database), SIGKILLed at random points of order placement — the fake delays
// every order by a latency fault, so kills land while orders are in flight — and restarted. At the
// end a runner restarts once more (in this process), reconciles, trades on, and the robot is
// stopped: every invariant between the database and the venue is checked.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, openDatabase } from '@lq/db';
import { FakeBinance } from '@lq/venues/fake';
import { loadConfig } from '../platform/config';
import { Runner } from '.';
import { T0, checkAgainstVenue, gridParams, robotRow, seedAccount, seedRobot, settled, waveCandles } from './test-helpers';

const serverDir = fileURLToPath(new URL('../..', import.meta.url));

export interface CrashOptions {
  kills: number;
  /** Latency of every order placement at the fake (ms): the window a kill lands in. */
  latencyMs?: number;
  /** Seed of the kill delays (deterministic runs). */
  seed?: number;
  log?: (line: string) => void;
  /**
   * How a runner process is started: Node's arguments (run in apps/server). Default: its source
   * through tsx; the crash test passes one bundled file, a third of the start-up.
   */
  runnerArgs?: string[];
}

export interface CrashResult {
  kills: number;
  /** Kills that landed while an order request was in flight at the fake. */
  killsInFlight: number;
  orders: number;
  fills: number;
  duplicates: [string, number][];
  unjournalled: string[];
  mismatched: string[];
  /** After the final restart and reconcile, before the stop. */
  ledgerCoins: number;
  venueCoins: number;
  /** After the robot was stopped. */
  finalStatus: string;
  finalOpenOrders: number;
  finalVenueCoins: number;
  seconds: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function runCrashTest(o: CrashOptions): Promise<CrashResult> {
  const started = Date.now();
  const log = o.log ?? (() => undefined);
  const rand = mulberry32(o.seed ?? 42);
  const latency = o.latencyMs ?? 150;
  const target = await createTestDatabase('lq-crash-');
  const dataDir = target.dataDir;
  const fake = new FakeBinance({ candles: { BTCUSDT: waveCandles(60_000, 60_000, 0.02, 60) } });
  const origin = await fake.listen();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ROLE: 'runner',
    EXCHANGE_BINANCE_URL: origin,
    RUNNER_LEASE_MS: '700',
    RUNNER_HEARTBEAT_MS: '200',
    RUNNER_POLL_MS: '30',
    RUNNER_RESOLVE_WINDOW_MS: '1500',
    RUNNER_VENUE_TIMEOUT_MS: '2000',
    RUNNER_CCXT_THROTTLE: 'false',
    ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}),
  };
  const config = loadConfig(env);
  let robotId = 0;
  {
    const db = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.DATABASE_URL, pgliteMode: 'exclusive' });
    const owner = await seedAccount(db, config);
    robotId = await seedRobot(db, owner, { params: gridParams({ gap: 0.3, gridNumber: 8 }) });
    await db.close();
  }
  // A crest of the wave: the long grid fills on the way down and takes profits on the way up.
  fake.seed({ balance: 20_000, timeMs: T0 + 13 * 60_000 });
  fake.addFault({ method: 'POST', path: '/fapi/v1/order', times: 0, action: { type: 'latency', ms: latency } });

  let killsInFlight = 0;
  let child: ChildProcess | null = null;
  // The next runner is started while the current one runs (a warm standby, RUNNER_STANDBY=stdin:
  // it loads Node, our modules and ccxt, about 3 s of a core, then waits for "go"), so a restart
  // costs opening the database and the dead runner's lease, not a boot. One at a time: two loading
  // were faster alone (50 kills in 237 s) but took 592 s beside the browser tests in CI, every boot
  // sharing the two cores.
  let standby: ChildProcess | null = null;
  const loaded = new WeakSet<ChildProcess>();
  const spawnRunner = (): ChildProcess => {
    // --liftoff-only: each runner lives a few seconds, too short for V8's optimised WebAssembly to
    // pay back compiling PGlite's Postgres twice (opening PGlite: 1.2 s of a core, 0.75 s with it).
    const c = spawn(process.execPath, ['--liftoff-only', ...(o.runnerArgs ?? ['--import', 'tsx', 'src/runner/main.ts'])], {
      cwd: serverDir,
      env: { ...process.env, ...env, LOG_LEVEL: 'warn', RUNNER_STANDBY: 'stdin' },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    // Its first line says the modules are loaded (it then waits for "go").
    c.stdout?.on('data', () => loaded.add(c));
    return c;
  };
  try {
    for (let k = 0; k < o.kills; k++) {
      const next = standby ?? spawnRunner();
      standby = null;
      for (let w = 0; w < 3000 && !loaded.has(next); w++) await sleep(10);
      const mark = fake.journal.length;
      const since = Date.now();
      child = next;
      next.stdin?.end('go\n');
      const current = child;
      const exited = new Promise<void>((r) => {
        if (current.exitCode !== null || current.signalCode !== null) r();
        else current.once('exit', () => r());
      });
      // Up: the child reads the venue (reconcile / candles).
      while (fake.journal.length === mark && Date.now() - since < 60_000) await sleep(20);
      const up = Date.now() - since;
      if (k + 1 < o.kills) standby = spawnRunner();
      // Move the market until an order is placed, then kill at a random point of its flight.
      let post = -1;
      for (let step = 0; step < 400 && post < 0; step++) {
        const from = fake.journal.length;
        fake.advance(60_000);
        for (let w = 0; w < 6 && post < 0; w++) {
          await sleep(15);
          post = fake.journal.findIndex((j, i) => i >= from && j.method === 'POST' && j.path === '/fapi/v1/order');
        }
      }
      const delay = Math.floor(rand() * (latency + 100));
      await sleep(delay);
      const entry = post >= 0 ? fake.journal[post] : undefined;
      if (entry && Date.now() - entry.at < latency) killsInFlight++;
      current.kill('SIGKILL');
      await exited;
      child = null;
      log(`kill ${k + 1}/${o.kills} after ${Date.now() - since} ms (up after ${up} ms): ${post >= 0 ? `order posted, killed ${delay} ms later` : 'no order'}; fake orders ${fake.book.orders.length}`);
    }
    // Let in-flight requests land before the venue is read.
    await sleep(latency + 50);
    fake.clearFaults();
    // The final restart, in this process: replay, reconcile, trade on, then stop the robot.
    const db = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.DATABASE_URL, pgliteMode: 'exclusive' });
    try {
      const runner = new Runner({ database: db, config, log: { info() {}, warn() {}, error() {} } });
      const step = async () => {
        fake.advance(60_000);
        await runner.heartbeat();
        await runner.tick();
      };
      for (let k = 0; k < 100 && runner.driver(robotId)?.phase !== 'live'; k++) {
        await sleep(100);
        await runner.tick();
      }
      for (let i = 0; i < 30; i++) await step();
      const s = await settled(db, fake, robotId, step);
      await db.exec(`update robots set status = 'stopping' where id = $1`, [robotId]);
      await runner.heartbeat();
      for (let i = 0; i < 10 && (await robotRow(db, robotId)).status !== 'stopped'; i++) await step();
      const end = await checkAgainstVenue(db, fake, robotId);
      if (end.venueCoins !== 0) {
        const d = runner.driver(robotId) as unknown as { broker: { intents: Map<string, { tag: string; state: string; error: string | null }>; tickets: unknown[]; pending: unknown[] } } | null;
        log(JSON.stringify({ tickets: d?.broker.tickets, pending: d?.broker.pending, open: [...(d?.broker.intents.values() ?? [])].filter((r) => r.state !== 'filled' && r.state !== 'canceled') }));
        const tickets = (d?.broker.tickets ?? []) as { tag: string }[];
        log(JSON.stringify([...(d?.broker.intents.values() ?? [])].filter((r) => tickets.some((t) => r.tag.startsWith(t.tag)))));
        log(JSON.stringify(await db.exec(`select client_order_id, tag, state, filled, error from robot_intents where robot_id = $1 and ticket = any($2::text[])`, [robotId, `{${tickets.map((t) => t.tag).join(',')}}`])));
        log(JSON.stringify(await db.exec(`select client_order_id, action, qty, filled_at, fill_key from robot_fills where robot_id = $1 order by id`, [robotId])));
        log(JSON.stringify(fake.book.orders.map((x) => [x.clientOrderId, x.side, x.status, x.executedQty, x.reduceOnly])));
      }
      const row = await robotRow(db, robotId);
      await runner.stop();
      return {
        kills: o.kills,
        killsInFlight,
        orders: end.orders,
        fills: end.fills,
        duplicates: end.duplicates,
        unjournalled: [...new Set([...s.unjournalled, ...end.unjournalled])],
        mismatched: [...new Set([...s.mismatched, ...end.mismatched])],
        ledgerCoins: s.ledgerCoins,
        venueCoins: s.venueCoins,
        finalStatus: row.status,
        finalOpenOrders: end.openOrders,
        finalVenueCoins: end.venueCoins,
        seconds: Math.round((Date.now() - started) / 1000),
      };
    } finally {
      await db.close();
    }
  } finally {
    child?.kill('SIGKILL');
    standby?.kill('SIGKILL');
    await fake.close();
    await target.remove();
  }
}
