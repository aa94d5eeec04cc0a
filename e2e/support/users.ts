// Test users shared by the specs: registration through the API (code read from the SMTP sink),
// login through the screen, VIP through the operator command.
import { execFileSync } from 'node:child_process';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { DATA_DIR } from './env';
import { waitForCode } from './mailbox';

export const PASSWORD = 'Trader2026x';
const MINUTE = 60_000;

export interface Envelope<T> {
  code: string;
  msg: string;
  data: T;
}

/** Registers through the API, reading the code from the SMTP sink. */
export async function register(request: APIRequestContext, mail: string): Promise<void> {
  const since = Date.now();
  const sent = (await (await request.post('/user/api/verify-code/send', { data: { userMail: mail, codeType: 'REGISTER' } })).json()) as Envelope<unknown>;
  expect(sent.code, sent.msg).toBe('00000');
  const code = await waitForCode(mail, since - 1000);
  const reg = (await (await request.post('/user/api/register', { data: { userMail: mail, password: PASSWORD, code, country: 'US' } })).json()) as Envelope<unknown>;
  expect(reg.code, reg.msg).toBe('00000');
}

export async function login(page: Page, mail: string): Promise<void> {
  await page.goto('/#/pages/login/login');
  await page.getByTestId('login-email').fill(mail);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page).not.toHaveURL(/login/);
}

/** Grants VIP1 with the operator command, on the e2e server's DATA_DIR (ops reaches its PGlite through the socket). */
export function grantVip(mail: string): void {
  execFileSync('npm', ['run', '--silent', 'ops', '--', 'user:set-level', mail, 'VIP1'], {
    env: { ...process.env, DATA_DIR, DATABASE_URL: '' },
    stdio: 'pipe',
    timeout: 2 * MINUTE,
  });
}
