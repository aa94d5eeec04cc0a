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
export async function register(request: APIRequestContext, mail: string, inviteCode?: string): Promise<void> {
  const since = Date.now();
  const sent = (await (await request.post('/user/api/verify-code/send', { data: { userMail: mail, codeType: 'REGISTER' } })).json()) as Envelope<unknown>;
  expect(sent.code, sent.msg).toBe('00000');
  const code = await waitForCode(mail, since - 1000);
  const body = { userMail: mail, password: PASSWORD, code, country: 'US', ...(inviteCode ? { inviteCode } : {}) };
  const reg = (await (await request.post('/user/api/register', { data: body })).json()) as Envelope<unknown>;
  expect(reg.code, reg.msg).toBe('00000');
}

export async function login(page: Page, mail: string): Promise<void> {
  await page.goto('/#/pages/login/login');
  await page.getByTestId('login-email').fill(mail);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page).not.toHaveURL(/login/);
}

/**
 * Opens the app signed in as `mail`, as a returning user's app is: a session made through the API
 * and kept where the app keeps it (localStorage `token` and `user`) before its first page loads.
 * The sign-in screen itself is walked by account.spec.ts, login-guard.spec.ts, two-factor.spec.ts
 * and session-language.spec.ts; the flows start signed in (what `login` took 2–3 s a test for). Put
 * once per tab, so a logout in the test stays a logout.
 */
export async function signIn(page: Page, request: APIRequestContext, mail: string, path = '/#/'): Promise<void> {
  const headers = await apiLogin(request, mail);
  const info = (await (await request.get('/user/api/info', { headers })).json()) as Envelope<unknown>;
  expect(info.code, info.msg).toBe('00000');
  const token = headers.authorization.slice('Bearer '.length);
  await page.addInitScript(
    ([t, user]) => {
      if (sessionStorage.getItem('lq-e2e-signed-in')) return;
      sessionStorage.setItem('lq-e2e-signed-in', '1');
      localStorage.setItem('token', t);
      localStorage.setItem('user', user);
    },
    [token, JSON.stringify(info.data)] as const,
  );
  await page.goto(path);
  await expect(page).not.toHaveURL(/login/);
}

/** Logs in through the API: the headers of that session. */
export async function apiLogin(request: APIRequestContext, mail: string): Promise<{ authorization: string }> {
  const login = (await (await request.post('/user/api/login', { data: { userMail: mail, password: PASSWORD } })).json()) as Envelope<{ token: string }>;
  expect(login.code, login.msg).toBe('00000');
  return { authorization: `Bearer ${login.data.token}` };
}

/**
 * Runs the operator command (`npm run ops -- …args`) on the e2e server's DATA_DIR (ops reaches its
 * PGlite through the socket); answers its output. Started as npm's script line is, without npm
 * itself: a second Node boot per call that the flows paid a few dozen times.
 */
export function ops(...args: string[]): string {
  return execFileSync(process.execPath, ['--import', 'tsx', 'apps/server/src/ops/main.ts', ...args], {
    env: { ...process.env, DATA_DIR, DATABASE_URL: '' },
    stdio: 'pipe',
    encoding: 'utf8',
    timeout: 2 * MINUTE,
  });
}

/** Grants VIP1 (backtests) and the basic rights (a seat and a backtest slot per market) with the operator commands. */
export function grantVip(mail: string): void {
  ops('user:set-level', mail, 'VIP1');
  grantUnlock(mail);
}

/** The basic rights without payment, as an operator grants them (`benefit:unlock`). */
export function grantUnlock(mail: string): void {
  ops('benefit:unlock', mail, '--reason', 'e2e');
}

/** Credits (or debits) a wallet with the operator command, once per key. */
export function adjustWallet(mail: string, amount: string, wallet: 'balance' | 'rebate', key: string): void {
  ops('wallet:adjust', mail, amount, '--wallet', wallet, '--reason', 'e2e credit', '--key', key);
}

/** A code of `codeType` mailed to the signed-in user (`headers`), read from the SMTP sink. */
export async function mailedCode(request: APIRequestContext, headers: { authorization: string }, mail: string, codeType: string): Promise<string> {
  // One code per address per MAIL_CODE_INTERVAL_SECONDS (1 s here), REGISTER's included: ask until it is sent.
  let since = 0;
  for (let tries = 0; ; tries++) {
    await new Promise((r) => setTimeout(r, 1100));
    since = Date.now();
    const sent = (await (await request.post('/user/api/verify-code/send', { headers, data: { userMail: mail, codeType } })).json()) as Envelope<unknown>;
    if (sent.code === '00000') break;
    if (tries >= 30) expect(sent.code, sent.msg).toBe('00000');
  }
  // The sink stamps a mail when it arrives, after `since`; the mail before came at least 1.1 s before.
  return waitForCode(mail, since);
}

/**
 * A code sent by a form's "send code" button (`sendTestId`), read from the SMTP sink: pressed
 * again while the server answers that the last code went out under the resend interval (1 s here).
 */
export async function codeFromScreen(page: Page, mail: string, sendTestId: string): Promise<string> {
  for (let tries = 0; ; tries++) {
    await new Promise((r) => setTimeout(r, 1100));
    const since = Date.now();
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/user/api/verify-code/send')),
      page.getByTestId(sendTestId).click(),
    ]);
    const sent = (await res.json()) as Envelope<unknown>;
    if (sent.code === '00000') return waitForCode(mail, since);
    if (tries >= 30) expect(sent.code, sent.msg).toBe('00000');
    // the failed send re-enabled the button ("resend")
    await expect(page.getByTestId(sendTestId)).toBeEnabled();
  }
}

/** Sets the payment password through the API, with a MAIL_PAID_PWD_RESET code read from the SMTP sink. */
export async function setPayPassword(request: APIRequestContext, mail: string, paidPwd: string): Promise<void> {
  const headers = await apiLogin(request, mail);
  const code = await mailedCode(request, headers, mail, 'MAIL_PAID_PWD_RESET');
  const set = (await (await request.post('/user/api/paid-pwd/edit', { headers, data: { code, paidPwd, paidPwdAgain: paidPwd } })).json()) as Envelope<unknown>;
  expect(set.code, set.msg).toBe('00000');
}

/** Adds an address to the user's withdrawal book through the API (a WITHDRAW_ADDRESS code from the SMTP sink); usable at once here (WITHDRAW_NEW_ADDRESS_HOURS=0). */
export async function bookAddress(request: APIRequestContext, headers: { authorization: string }, mail: string, network: 'BEP20' | 'TRC20', address: string): Promise<void> {
  const code = await mailedCode(request, headers, mail, 'WITHDRAW_ADDRESS');
  const added = (await (await request.post('/user/api/withdraw/addresses/add', { headers, data: { network, address, code } })).json()) as Envelope<unknown>;
  expect(added.code, added.msg).toBe('00000');
}

const PAYEE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/** A withdrawal of 20 Lightning the user asks for (payment password `paidPwd`) and the operator rejects with `reason`: an event every notification channel carries. Answers its id. */
export async function rejectedWithdrawal(request: APIRequestContext, mail: string, paidPwd: string, reason: string): Promise<number> {
  const headers = await apiLogin(request, mail);
  // In the book once per user (an earlier call may have added it).
  const book = (await (await request.get('/user/api/withdraw/addresses', { headers })).json()) as Envelope<{ list: { address: string }[] }>;
  if (!book.data.list.some((a) => a.address === PAYEE)) await bookAddress(request, headers, mail, 'BEP20', PAYEE);
  const created = (await (
    await request.post('/user/api/withdraw/create', {
      headers,
      data: { network: 'BEP20', address: PAYEE, amount: '20', paidPwd, idempotencyKey: `rejected-${Date.now()}-${Math.random().toString(36).slice(2)}` },
    })
  ).json()) as Envelope<{ id: number }>;
  expect(created.code, created.msg).toBe('00000');
  ops('withdraw:reject', String(created.data.id), '--reason', reason);
  return created.data.id;
}
