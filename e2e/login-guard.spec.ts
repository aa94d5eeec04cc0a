// An address guessed at from many IPs (more than 10 wrong passwords within the hour): its owner
// still signs in, with the password and a code the screen lets them mail to themselves.
import { expect, test } from '@playwright/test';
import { codeFromScreen, PASSWORD, register, type Envelope } from './support/users';
import { noHorizontalScroll } from './support/layout';

test('a guarded address: the sign-in asks for an e-mailed code as well, and signs in with it', async ({ page, request }, info) => {
  test.setTimeout(90_000);
  const mail = `guarded.${info.project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  // Eleven wrong passwords, each from another address (the server trusts 127.0.0.1 as a proxy here).
  for (let i = 1; i <= 11; i++) {
    const res = (await (await request.post('/user/api/login', { headers: { 'x-forwarded-for': `198.51.100.${i}` }, data: { userMail: mail, password: 'Wrong-pass-1' } })).json()) as Envelope<unknown>;
    expect(res.code).toBe('A0210');
  }

  await page.goto('/#/pages/login/login');
  await page.getByTestId('login-email').fill(mail);
  await page.getByTestId('login-password').fill(PASSWORD);
  await expect(page.getByTestId('login-code')).toHaveCount(0);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-code')).toBeVisible();
  await expect(page).toHaveURL(/login/);
  await noHorizontalScroll(page);
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/login-guard-01-code.png`, fullPage: true });

  const code = await codeFromScreen(page, mail, 'login-send-code');
  await page.getByTestId('login-code').fill(code);
  await page.getByTestId('login-submit').click();
  await expect(page).not.toHaveURL(/login/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
});
