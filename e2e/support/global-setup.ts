// Starts an SMTP sink and the real server (API + built SPA) on a fresh embedded database.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DATA_DIR, E2E_PORT, FAKE_EXCHANGE_PORT, MAILBOX_FILE, PIDS_FILE, SMTP_PORT, STATE_DIR } from './env';
import { writeShiftedTails } from './fake-data';

async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not become ready at ${url} within ${timeoutMs} ms`);
}

export default async function globalSetup(): Promise<void> {
  if (process.env.E2E_BASE_URL) return; // an already running server
  rmSync(STATE_DIR, { recursive: true, force: true });
  mkdirSync(STATE_DIR, { recursive: true });
  writeFileSync(MAILBOX_FILE, '');

  const sinkLog = openSync(join(STATE_DIR, 'sink.log'), 'a');
  const sink = spawn(process.execPath, ['--import', 'tsx', 'e2e/support/smtp-sink-main.ts'], {
    stdio: ['ignore', sinkLog, sinkLog],
    env: { ...process.env, SMTP_PORT: String(SMTP_PORT), MAILBOX_FILE },
    detached: false,
  });

  // The fake Binance / OKX (trading accounts and robots talk to them instead of the real venues).
  // It replays the last days of the 1m files shifted past their end (see fake-data.ts), two
  // candles a second: a live robot on BTCUSDT sees new candles and price moves within seconds.
  const marketData = process.env.E2E_MARKET_DATA_DIR ?? resolve(import.meta.dirname, '../../../shared/data');
  const fakeData = join(STATE_DIR, 'fake-data');
  writeShiftedTails(marketData, fakeData);
  const fakeLog = openSync(join(STATE_DIR, 'fake-exchange.log'), 'a');
  const fake = spawn(process.execPath, ['--import', 'tsx', 'packages/venues/src/fake/main.ts'], {
    stdio: ['ignore', fakeLog, fakeLog],
    env: {
      ...process.env,
      FAKE_PORT: String(FAKE_EXCHANGE_PORT),
      FAKE_OKX_PORT: String(FAKE_EXCHANGE_PORT + 1),
      FAKE_DATA_DIR: fakeData,
      FAKE_TICK_MS: process.env.E2E_FAKE_TICK_MS ?? '500',
    },
    detached: false,
  });

  const serverLog = openSync(join(STATE_DIR, 'server.log'), 'a');
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    stdio: ['ignore', serverLog, serverLog],
    env: {
      ...process.env,
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      DATA_DIR,
      DATABASE_URL: '',
      SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
      // Real candles for the backtest flows: every file of ../shared/data is imported at start
      // (in the background; e2e/backtest.spec.ts waits for the symbols it needs).
      MARKET_DATA_DIR: marketData,
      LOG_LEVEL: 'info',
      EXCHANGE_BINANCE_URL: `http://127.0.0.1:${FAKE_EXCHANGE_PORT}`,
      EXCHANGE_OKX_URL: `http://127.0.0.1:${FAKE_EXCHANGE_PORT + 1}`,
      // The fake exchange is local: no ccxt request spacing for the robot runner.
      RUNNER_CCXT_THROTTLE: 'false',
    },
  });
  writeFileSync(PIDS_FILE, JSON.stringify({ sink: sink.pid, server: server.pid, fake: fake.pid }));
  await waitForHealth(`http://127.0.0.1:${E2E_PORT}/readyz`, 90_000);
  await waitForHealth(`http://127.0.0.1:${FAKE_EXCHANGE_PORT}/fapi/v1/ping`, 30_000);
}
