// Starts an SMTP sink and the real server (API + built SPA) on a fresh embedded database.
import { spawn } from 'node:child_process';
import { createECDH } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CHAIN_FILE, CHAIN_PORT, DATA_DIR, E2E_DEPOSIT_XPUB, E2E_PORT, FAKE_EXCHANGE_PORT, MAILBOX_FILE, PIDS_FILE, SMTP_PORT, STATE_DIR, PUSH_PORT, TELEGRAM_PORT, TELEGRAM_WEBHOOK_SECRET } from './env';
import { writeShiftedTails } from './fake-data';
import { privateKeyToAccount } from 'viem/accounts';
import { deployTestToken, HOT_KEY, startLocalChain } from '../../apps/server/test/local-chain';

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

  // The Telegram Bot API and push service stand-ins: the server's bot and Web Push talk to them.
  const telegram = spawn(process.execPath, ['--import', 'tsx', 'e2e/support/stand-ins-main.ts'], {
    stdio: ['ignore', sinkLog, sinkLog],
    env: { ...process.env, TELEGRAM_PORT: String(TELEGRAM_PORT), PUSH_PORT: String(PUSH_PORT) },
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

  // A local EVM chain (hardhat) with the test USDT (18 decimals, as on BSC): deposits on BEP20.
  const chain = await startLocalChain({ port: CHAIN_PORT, stateDir: STATE_DIR });
  const usdt = await deployTestToken(chain, 18);
  // The hot wallet (development account #3: gas on the local chain) pays withdrawals in USDT.
  await usdt.send(privateKeyToAccount(HOT_KEY).address, 1_000_000n * 10n ** 18n);
  writeFileSync(CHAIN_FILE, JSON.stringify({ url: chain.url, token: usdt.address }));

  // A VAPID key pair of this run (a P-256 key, base64url, as `web-push generate-vapid-keys` makes).
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const vapid = { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: ecdh.getPrivateKey().toString('base64url') };
  const serverLog = openSync(join(STATE_DIR, 'server.log'), 'a');
  const server = spawn(process.execPath, [...(process.env.E2E_SERVER_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.E2E_SERVER_PROF] : []), '--import', 'tsx', 'apps/server/src/main.ts'], {
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
      // Deposits: BEP20 open against a local chain; TRC20 left closed.
      DEPOSIT_XPUB: E2E_DEPOSIT_XPUB,
      BSC_RPC_URL: chain.url,
      BSC_USDT_CONTRACT: usdt.address,
      DEPOSIT_POLL_SECONDS: '1',
      TRON_API_URL: '',
      // What screens show from the operator's configuration: the privacy contact, the IPs to whitelist.
      SUPPORT_MAIL: 'privacy@lightning-quant.test',
      EGRESS_IPS: '203.0.113.7',
      // One mail code per address per second instead of the spec's 60 s: flows that ask for two
      // codes need not wait a minute (the 60 s rule itself is tested in apps/server).
      MAIL_CODE_INTERVAL_SECONDS: '1',
      // A new withdrawal address is usable at once here: the flows withdraw right after adding one
      // (the 24 h wait itself is tested in apps/server, address-book.int.test.ts).
      WITHDRAW_NEW_ADDRESS_HOURS: '0',
      // Every test user comes from 127.0.0.1: two workers register and sign in faster than one
      // person's per-IP allowance (10 codes, 30 sign-ins a minute; those limits are tested in apps/server).
      CODE_RATE_PER_MINUTE: '120',
      LOGIN_RATE_PER_MINUTE: '240',
      // As behind a proxy on this machine: a test may name the client's address in X-Forwarded-For
      // (the sign-in guard's spec plays a botnet that way); the browser sends none.
      TRUST_PROXY: '127.0.0.1',
      // The simulated card provider beside real deposits and payouts: allowed on this test stand only.
      CARD_PROVIDER: 'simulated',
      CARD_SIMULATED_WITH_REAL_MONEY: 'true',
      // Withdrawals approved with `npm run ops -- withdraw:approve` are paid by the hot wallet.
      WITHDRAW_PAYOUT: 'hot-wallet',
      HOT_WALLET_KEY: HOT_KEY,
      // Notifications by Telegram, to the stand-in (the webhook is posted to by the test itself).
      TELEGRAM_BOT_TOKEN: '424242:e2e-bot-token-abcdefghijklmnopqrstuvwxyz',
      TELEGRAM_BOT_NAME: 'lq_e2e_bot',
      TELEGRAM_API_ROOT: `http://127.0.0.1:${TELEGRAM_PORT}`,
      TELEGRAM_WEBHOOK_SECRET,
      // Web Push with a key pair of this run; subscriptions may point at the stand-in on 127.0.0.1.
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      PUSH_SERVICE_HOSTS: '127.0.0.1',
    },
  });
  writeFileSync(PIDS_FILE, JSON.stringify({ sink: sink.pid, server: server.pid, fake: fake.pid, chain: chain.pid, standIns: telegram.pid }));
  await waitForHealth(`http://127.0.0.1:${E2E_PORT}/readyz`, 90_000);
  await waitForHealth(`http://127.0.0.1:${FAKE_EXCHANGE_PORT}/fapi/v1/ping`, 30_000);
  await waitForHealth(`http://127.0.0.1:${TELEGRAM_PORT}/__calls`, 30_000);
}
