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
