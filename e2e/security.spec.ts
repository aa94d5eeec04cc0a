// The Security page under Mine, on a phone and a desktop: two-step turned on through the screen
// (the test reads the key under the QR code and computes the codes, as an authenticator app
// would), the recovery codes shown once, the lock it starts, another device ended with a recovery
// code in place of the app's (its token refused at once), and the anti-phishing phrase set.
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { login, PASSWORD, register, type Envelope } from './support/users';
import { noHorizontalScroll } from './support/layout';

async function shot(page: Page, info: TestInfo, step: string): Promise<void> {
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/security-${step}.png`, fullPage: true });
}
const codeAt = (secret: string, at: number) => new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: at });

test('the Security page: two-step on with its recovery codes, another device ended, the anti-phishing phrase', async ({ page, request }, info) => {
  test.setTimeout(120_000);
  const mail = `security.${info.project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  await login(page, mail);
  await page.goto('/#/pages/index/mine');
  await page.getByTestId('mine-security').click();
  await expect(page.getByTestId('security-page')).toBeVisible();
  await expect(page.getByTestId('security-2fa')).toHaveAttribute('data-on', 'false');
  await expect(page.getByTestId('security-lock')).toHaveAttribute('data-locked', 'false');
  await noHorizontalScroll(page);
  await shot(page, info, '01-page');

  // Two-step on: the QR code and its key; a code of the key and the password.
  await page.getByTestId('security-2fa-on').click();
  await expect(page.getByTestId('security-qr').locator('svg')).toBeVisible();
  const secret = (await page.getByTestId('security-secret').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await shot(page, info, '02-enrol');
  await page.getByTestId('security-enable-code').fill(codeAt(secret, Date.now()));
  await page.getByTestId('security-enable-password').fill(PASSWORD);
  await page.getByTestId('security-enable-submit').click();
  await expect(page.getByTestId('security-recovery-codes').locator('li')).toHaveCount(10);
  // The app's next codes come every 30 s: the steps below use recovery codes instead (each good once).
  const recovery = (await page.getByTestId('security-recovery-codes').locator('li').allTextContents()).map((c) => c.trim());
  await shot(page, info, '03-recovery');
  await page.getByTestId('security-recovery-done').click();
  await expect(page.getByTestId('security-2fa')).toHaveAttribute('data-on', 'true');
  // Turning it on started the security lock.
  await expect(page.getByTestId('security-lock')).toHaveAttribute('data-locked', 'true');

  // Another device signs in (password and a code), and is ended from here with a fresh code.
  const other = (await (await request.post('/user/api/login', { data: { userMail: mail, password: PASSWORD }, headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1' } })).json()) as Envelope<{ challenge: string }>;
  const second = (await (await request.post('/user/api/login/2fa', { data: { challenge: other.data.challenge, code: codeAt(secret, Date.now() + 30_000) }, headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1' } })).json()) as Envelope<{ token: string }>;
  expect(second.code, second.msg).toBe('00000');
  await page.reload();
  await expect(page.getByTestId('security-session')).toHaveCount(2);
  await expect(page.getByTestId('security-session').filter({ hasText: 'iOS' })).toBeVisible();
  await noHorizontalScroll(page);
  await shot(page, info, '04-sessions');
  await page.getByTestId('security-session-end').click();
  await expect(page.getByTestId('security-end-proof')).toHaveAttribute('data-step-up', 'twoFactorCode');
  await page.getByTestId('security-end-proof').fill(recovery[0]);
  await page.getByTestId('security-end-submit').click();
  await expect(page.getByTestId('security-session')).toHaveCount(1);
  await expect(page.getByTestId('security-sessions-alone')).toBeVisible();
  expect((await request.get('/user/api/info', { headers: { authorization: `Bearer ${second.data.token}` } })).status()).toBe(401);

  // The anti-phishing phrase, with a two-step code: it shows on the next read.
  await page.getByTestId('security-phrase').fill('blue heron 42');
  await page.getByTestId('security-phrase-proof').fill(recovery[1]);
  await page.getByTestId('security-phrase-save').click();
  await expect(page.getByTestId('security-phrase-proof')).toHaveValue('');
  const headers = await page.evaluate(() => ({ authorization: `Bearer ${localStorage.getItem('token')}` }));
  const security = (await (await request.get('/user/api/security', { headers })).json()) as Envelope<{ antiPhishingPhrase: string }>;
  expect(security.data.antiPhishingPhrase).toBe('blue heron 42');
  await shot(page, info, '05-phrase');
});
