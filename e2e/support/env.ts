import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 8091);
export const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 2591);
export const STATE_DIR = process.env.E2E_STATE_DIR ?? join(tmpdir(), `lq-e2e-${E2E_PORT}`);
export const MAILBOX_FILE = join(STATE_DIR, 'mailbox.jsonl');
export const PIDS_FILE = join(STATE_DIR, 'pids.json');
export const DATA_DIR = join(STATE_DIR, 'data');
/** The fake exchange (`npm run fake-exchange`): Binance on this port, OKX on the next one. */
export const FAKE_EXCHANGE_PORT = Number(process.env.E2E_FAKE_EXCHANGE_PORT ?? 18590);
/** The local EVM chain (hardhat) the e2e server's BEP20 deposits read; CHAIN_FILE holds its URL and the token. */
export const CHAIN_PORT = Number(process.env.E2E_CHAIN_PORT ?? 18545);
/**
 * The operator's deposit key in the e2e run: account m/44'/60'/0' of the seed sha256("lightning-quant
 * e2e deposits") — not the chain's development mnemonic, whose accounts send the test USDT.
 */
export const E2E_DEPOSIT_XPUB =
  'xpub6C1oG7tBietrWF2WrQhqBu7gy4XC31GVFhV7A7PvV8dpoc72d39cjpMJrjWggpGnD4EFAFJqF2kzzoHz4it6JkJ41KTDxQoecixiB5jfHYW';
export const CHAIN_FILE = join(STATE_DIR, 'chain.json');
/** The Telegram Bot API stand-in (e2e/support/telegram-main.ts) the e2e server's bot talks to, and the bot's webhook secret. */
export const TELEGRAM_PORT = Number(process.env.E2E_TELEGRAM_PORT ?? 18592);
export const TELEGRAM_WEBHOOK_SECRET = 'e2e-telegram-webhook-secret';
/** The push service stand-in (same process): the e2e server's Web Push goes there. */
export const PUSH_PORT = Number(process.env.E2E_PUSH_PORT ?? 18593);
