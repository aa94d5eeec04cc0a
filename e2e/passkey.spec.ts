// Passkeys on a phone and a desktop, with Chromium's virtual authenticator (DevTools' WebAuthn
// domain) standing in for a fingerprint: added on the Security page (a name and a fresh two-step
// code, here a recovery code), the sign-in's second step signed with it instead of a code, an
// action's step-up signed with it, and removed again (that step-up signed too). WebAuthn wants a domain, not an IP address: the page runs on http://localhost,
// the origin the e2e server accepts passkeys from (PASSKEY_ORIGINS' default).
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { E2E_PORT } from './support/env';
import { noHorizontalScroll } from './support/layout';
import { apiLogin, PASSWORD, register, type Envelope } from './support/users';

const ORIGIN = `http://localhost:${E2E_PORT}`;
const codeAt = (secret: string, at: number) => new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: at });

async function shot(page: Page, info: TestInfo, step: string): Promise<void> {
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/passkey-${step}.png`, fullPage: true });
}

async function passwordStep(page: Page, mail: string): Promise<void> {
  await page.goto(`${ORIGIN}/#/pages/login/login`);
  await page.getByTestId('login-email').fill(mail);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-2fa-form')).toBeVisible();
}

test('a passkey added on the Security page signs the second step, and is removed', { tag: '@phone' }, async ({ page, request }, info) => {
  test.setTimeout(120_000);
  const mail = `passkey.${info.project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  const headers = await apiLogin(request, mail);
  const setup = (await (await request.post('/user/api/2fa/setup', { headers })).json()) as Envelope<{ secret: string }>;
  const enabled = (await (await request.post('/user/api/2fa/enable', { headers, data: { code: codeAt(setup.data.secret, Date.now()), password: PASSWORD } })).json()) as Envelope<{ recoveryCodes: string[] }>;
  expect(enabled.code, enabled.msg).toBe('00000');
  const recovery = enabled.data.recoveryCodes;

  // The authenticator: a platform one that verifies its user (a fingerprint) without a prompt.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });

  // Signed in with a code; the account has no passkey yet, so the second step offers none.
  await passwordStep(page, mail);
  await expect(page.getByTestId('login-2fa-passkey')).toHaveCount(0);
  await page.getByTestId('login-2fa-code').fill(recovery[0]);
  await page.getByTestId('login-2fa-submit').click();
  await expect(page).not.toHaveURL(/login/);

  // Add one: a name and a fresh code, then the browser makes the key.
  await page.goto(`${ORIGIN}/#/pages/security/security`);
  await expect(page.getByTestId('security-passkeys')).toBeVisible();
  await expect(page.getByTestId('security-passkey')).toHaveCount(0);
  await page.getByTestId('security-passkey-add').click();
  await page.getByTestId('security-passkey-submit').click();
  await expect(page.getByTestId('security-passkey-sheet').locator('.field-error').first()).toBeVisible();
  await page.getByTestId('security-passkey-name').fill('Test phone');
  await page.getByTestId('security-passkey-proof').fill('000000');
  await page.getByTestId('security-passkey-submit').click();
  // A wrong code is refused in place; the next try sends the key made already, with the right code.
  await expect(page.getByTestId('security-passkey-sheet')).toBeVisible();
  await expect(page.getByTestId('security-passkey-sheet').locator('.field-error')).toHaveCount(1);
  await shot(page, info, '01-add-refused');
  await page.getByTestId('security-passkey-proof').fill(recovery[1]);
  await page.getByTestId('security-passkey-submit').click();
  await expect(page.getByTestId('security-passkey-sheet')).toHaveCount(0);
  await expect(page.getByTestId('security-passkey')).toHaveCount(1);
  await expect(page.getByTestId('security-passkey')).toContainText('Test phone');
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  await noHorizontalScroll(page);
  await shot(page, info, '02-added');

  // Signed out and in again: the second step signed by the passkey, no code typed.
  await page.evaluate(() => localStorage.removeItem('token'));
  await passwordStep(page, mail);
  await shot(page, info, '03-second-step');
  await page.getByTestId('login-2fa-passkey').click();
  await expect(page).not.toHaveURL(/login/);
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  const passkeys = (await (await request.get('/user/api/passkeys', { headers: { authorization: `Bearer ${token}` } })).json()) as Envelope<Array<{ lastUsedAt: string | null }>>;
  expect(passkeys.data[0].lastUsedAt).not.toBeNull();

  // The step-up of an action signed by the passkey instead of a code: the anti-phishing phrase.
  await page.goto(`${ORIGIN}/#/pages/security/security`);
  await expect(page.getByTestId('security-passkey')).toHaveCount(1);
  await page.getByTestId('security-phrase').fill('blue heron');
  await page.getByTestId('security-phrase-proof-passkey').click();
  await expect.poll(async () => ((await (await request.get('/user/api/security', { headers: { authorization: `Bearer ${token}` } })).json()) as Envelope<{ antiPhishingPhrase: string | null }>).data.antiPhishingPhrase).toBe('blue heron');
  await noHorizontalScroll(page);
  await shot(page, info, '04-phrase-signed');

  // Removed, the sheet's step-up signed by the passkey too: the next sign-in offers no passkey.
  await page.getByTestId('security-passkey-remove').click();
  await shot(page, info, '05-remove');
  await page.getByTestId('security-passkey-remove-proof-passkey').click();
  await expect(page.getByTestId('security-passkey')).toHaveCount(0);
  await page.evaluate(() => localStorage.removeItem('token'));
  await passwordStep(page, mail);
  await expect(page.getByTestId('login-2fa-passkey')).toHaveCount(0);
});
