// The console in browser tests: operators added with `npm run ops` and signed in with their TOTP.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { ops } from './users';

export const totp = (mail: string, secret: string) =>
  new TOTP({ issuer: 'Lightning Quant console', label: mail, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate();

/** A new operator through ops, signed in on a page of its own browser context. */
export async function operatorPage(browser: Browser, mail: string): Promise<Page> {
  const out = ops('operator:add', mail);
  const password = /password:\s+(\S+)/.exec(out)![1];
  const secret = /TOTP secret:\s+(\S+)/.exec(out)![1];
  const context = await browser.newContext({ viewport: test.info().project.use.viewport ?? undefined, isMobile: test.info().project.use.isMobile, hasTouch: test.info().project.use.hasTouch });
  const page = await context.newPage();
  await page.goto('/#/console');
  await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
  await page.reload();
  await page.getByTestId('console-mail').fill(mail);
  await page.getByTestId('console-password').fill(password);
  await page.getByTestId('console-login-submit').click();
  await page.getByTestId('console-code').fill(totp(mail, secret));
  await page.getByTestId('console-code-submit').click();
  await expect(page.getByTestId('dash-users-value')).toHaveText(/^\d+$/);
  return page;
}

