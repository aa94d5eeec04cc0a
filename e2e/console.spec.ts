// The operator console on a phone and a desktop: an operator added with `npm run ops` signs in
// with the password and the authenticator's code, sees the dashboard, finds a user by e-mail,
// freezes them (the user's session ends and sign-in is refused), and finds the freeze in the audit
// log. The users' app around it (tab bar, side menu) is not there.
import { expect, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { login, ops, PASSWORD, register } from './support/users';

const totp = (mail: string, secret: string) =>
  new TOTP({ issuer: 'Lightning Quant console', label: mail, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate();

test('an operator signs in with TOTP, freezes a user and finds it in the audit log', async ({ page, request, browser }, info) => {
  const stamp = `${info.project.name}.${Date.now()}`;
  const operator = `op.${stamp}@lightning-quant.example`;
  const out = ops('operator:add', operator);
  const password = /password:\s+(\S+)/.exec(out)![1];
  const secret = /TOTP secret:\s+(\S+)/.exec(out)![1];
  const userMail = `frozen.${stamp}@example.com`;
  await register(request, userMail);
  // The user is signed in elsewhere: freezing ends that session.
  const userContext = await browser.newContext();
  const userPage = await userContext.newPage();
  await login(userPage, userMail);

  await page.goto('/#/console');
  await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
  await page.reload();
  await expect(page.getByTestId('console-login')).toBeVisible();
  await expect(page.locator('.tabbar, .sidemenu')).toHaveCount(0);
  await page.getByTestId('console-mail').fill(operator);
  await page.getByTestId('console-password').fill(password);
  await page.getByTestId('console-login-submit').click();
  await expect(page.getByTestId('console-second-factor')).toBeVisible();
  await page.getByTestId('console-code').fill('000000');
  await page.getByTestId('console-code-submit').click();
  await expect(page.getByTestId('code-error')).toBeVisible();
  await page.getByTestId('console-code').fill(totp(operator, secret));
  await page.getByTestId('console-code-submit').click();

  await expect(page.getByTestId('dash-users-value')).toHaveText(/^\d+$/);
  await expect(page.getByTestId('console-operator')).toHaveText(operator);
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/console-dashboard.png`, fullPage: true });

  await page.getByTestId('console-nav-users').click();
  await page.getByTestId('users-search').fill(userMail);
  const row = page.getByTestId('user-row');
  await expect(row).toHaveCount(1);
  await expect(page.getByTestId('users-table')).toHaveAttribute('data-total', '1');
  await row.getByTestId('user-manage').click();
  const panel = page.getByTestId('user-panel');
  await expect(panel.getByTestId('panel-state')).toHaveAttribute('data-frozen', 'false');
  await panel.getByTestId('panel-tab-freeze').click();
  await panel.getByTestId('freeze-submit').click();
  await expect(panel.getByTestId('reason-error')).toBeVisible();
  await panel.getByTestId('action-reason').fill('chargeback under review');
  await panel.getByTestId('freeze-submit').click();
  await expect(panel.getByTestId('panel-state')).toHaveAttribute('data-frozen', 'true');
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/console-user-panel.png` });
  await panel.getByTestId('sheet-close').click();
  await expect(row.getByTestId('user-frozen')).toBeVisible();

  // The user's session has ended, and signing in again is refused with the reason.
  const info401 = await userPage.evaluate(async () => (await fetch('/user/api/info', { headers: { authorization: `Bearer ${localStorage.getItem('token') ?? ''}` } })).status);
  expect(info401).toBe(401);
  const again = await request.post('/user/api/login', { data: { userMail, password: PASSWORD } });
  expect(((await again.json()) as { code: string }).code).toBe('A0217');
  await userContext.close();

  await page.getByTestId('console-nav-audit').click();
  await page.getByTestId('audit-actor').fill(operator);
  await expect(page.getByTestId('audit-action').filter({ hasText: 'users.freeze' })).toHaveCount(1);
  await expect(page.getByTestId('audit-action').filter({ hasText: 'console.secondFactor' }).first()).toBeVisible();
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/console-audit.png`, fullPage: true });
  // Nothing on the page is wider than the screen: a table scrolls inside its own box.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
