import { existsSync, readFileSync } from 'node:fs';
import { MAILBOX_FILE } from './env';
import type { SinkMail } from './smtp-sink';

/** Waits for a mail to `address` received after `since` and returns the 6-digit code in it. */
export async function waitForCode(
  address: string,
  since: number,
  timeoutMs = 20_000,
  mailboxFile = MAILBOX_FILE,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const wanted = address.toLowerCase();
  while (Date.now() < deadline) {
    const mails = (existsSync(mailboxFile) ? readFileSync(mailboxFile, 'utf8') : '')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as SinkMail)
      .filter((m) => m.to.includes(wanted) && m.receivedAt >= since);
    const last = mails.at(-1);
    const code = last ? /\b(\d{6})\b/.exec(last.text)?.[1] : undefined;
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code mailed to ${address} within ${timeoutMs} ms`);
}
