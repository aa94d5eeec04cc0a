// Two-step verification on a phone and on a desktop: a user turns it on (through the API until the
// Security page lands; the test computes the codes from the secret, as an authenticator app
// would), signs in through the screen's second step (a wrong code refused in place, then the right
// one), and binds an MT5 account, whose form now asks for a two-step code (a recovery code here).
// Turning two-step off starts the security lock: the withdrawal form says for how long, and sends nothing.
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { apiLogin, type Envelope, PASSWORD, register } from './support/users';
import { noHorizontalScroll } from './support/layout';

async function shot(page: Page, info: TestInfo, step: string): Promise<void> {
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/two-factor-${step}.png`, fullPage: true });
}

/** The code an authenticator app shows at `at` (SHA-1, 6 digits, 30 s). */
const codeAt = (secret: string, at: number) => new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: at });


test('two-step on: the sign-in asks for the code, and binding an account asks for a fresh one', async ({ page, request }, info) => {
  test.setTimeout(120_000);
  const mail = `twostep.${info.project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  const headers = await apiLogin(request, mail);
  const setup = (await (await request.post('/user/api/2fa/setup', { headers })).json()) as Envelope<{ secret: string; otpauthUrl: string }>;
  expect(setup.code, setup.msg).toBe('00000');
  expect(setup.data.otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
  const { secret } = setup.data;
  const enabled = (await (await request.post('/user/api/2fa/enable', { headers, data: { code: codeAt(secret, Date.now()), password: PASSWORD } })).json()) as Envelope<{ recoveryCodes: string[] }>;
  expect(enabled.code, enabled.msg).toBe('00000');
  expect(enabled.data.recoveryCodes).toHaveLength(10);

  // The password alone gives no session: the second step.
  await page.goto('/#/pages/login/login');
  await page.getByTestId('login-email').fill(mail);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-2fa-form')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await noHorizontalScroll(page);
  await shot(page, info, '01-second-step');

  // A wrong code is refused in place; the step stays.
  await page.getByTestId('login-2fa-code').fill('000000' === codeAt(secret, Date.now()) ? '111111' : '000000');
  await page.getByTestId('login-2fa-submit').click();
  await expect(page.getByTestId('code-error')).toBeVisible();
  await expect(page).toHaveURL(/login/);
  await shot(page, info, '02-wrong-code');

  // The enabling code's step is used: the app's next code (within the ±30 s the server allows) signs in.
  await page.getByTestId('login-2fa-code').fill(codeAt(secret, Date.now() + 30_000));
  await page.getByTestId('login-2fa-submit').click();
  await expect(page).not.toHaveURL(/login/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();

  // Binding asks for a two-step code (no e-mail code); a recovery code does, once.
  await page.goto('/#/pages/apikey/bindMarket?market=forex');
  await page.getByTestId('bind-exchange-mt5').click();
  await page.getByTestId('bind-next').click();
  await expect(page.getByTestId('apikey-form')).toHaveAttribute('data-exchange', 'mt5');
  await expect(page.getByTestId('add-proof')).toHaveAttribute('data-step-up', 'twoFactorCode');
  await expect(page.getByTestId('add-proof-send')).toHaveCount(0);
  await page.getByTestId('add-accountName').fill('FX two-step');
  await page.getByTestId('add-proof').fill(enabled.data.recoveryCodes[0].toLowerCase());
  await noHorizontalScroll(page);
  await shot(page, info, '03-bind-step-up');
  await page.getByTestId('add-submit').click();
  await expect(page.getByTestId('bridge-token-panel')).toBeVisible();

  // The same recovery code is spent.
  const again = (await (
    await request.post('/user/api/apikey/bind', { headers, data: { exchange: 'mt5', accountName: 'FX again', twoFactorCode: enabled.data.recoveryCodes[0] } })
  ).json()) as Envelope<unknown>;
  expect(again.code).toBe('A0225');

  // Two-step off (a recovery code and the password): withdrawals wait 24 hours, and the form says so.
  const off = (await (await request.post('/user/api/2fa/disable', { headers, data: { code: enabled.data.recoveryCodes[1], password: PASSWORD } })).json()) as Envelope<unknown>;
  expect(off.code, off.msg).toBe('00000');
  await page.goto('/#/pages/withdraw/withdraw');
  await expect(page.getByTestId('wd-locked')).toBeVisible();
  await expect(page.getByTestId('wd-locked')).toContainText(/(23|24) h \d+ min/);
  await expect(page.getByTestId('wd-submit')).toBeDisabled();
  await noHorizontalScroll(page);
  await shot(page, info, '04-withdraw-locked');
});
