// A new user on a phone and on a desktop: the guard, register (code read from the SMTP sink),
// log in, change nickname, set a payment password, switch market and language, log out.
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { waitForCode } from './support/mailbox';

const PASSWORD = 'Trader2026x';

async function shot(page: Page, info: TestInfo, step: string): Promise<void> {
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/${step}.png`, fullPage: true });
}

const visible = (page: Page, testId: string) => page.getByTestId(testId).filter({ visible: true }).first();

test('a new user registers, edits the profile, switches market and language, and logs out', async ({ page }, info) => {
  test.setTimeout(120_000);
  const mail = `trader.${info.project.name}.${Date.now()}@example.com`;

  // The login guard sends a guest to the login page.
  await page.goto('/#/pages/index/mine');
  await expect(page).toHaveURL(/#\/pages\/login\/login/);
  await expect(page.getByTestId('login-form')).toBeVisible();
  await shot(page, info, '01-guard-login');

  // Register, reading the code from the mail.
  await page.getByTestId('link-register').click();
  await expect(page).toHaveURL(/#\/pages\/rigister\/register/);
  await page.getByTestId('register-email').fill(mail);
  const sentAt = Date.now();
  await page.getByTestId('register-send-code').click();
  await expect(page.getByTestId('register-send-code')).toBeDisabled();
  const code = await waitForCode(mail, sentAt - 1000);
  await page.getByTestId('register-code').fill(code);
  await page.getByTestId('register-password').fill(PASSWORD);
  await page.getByTestId('register-password-again').fill(PASSWORD);
  await page.getByTestId('register-agree').check();
  // Users from China are refused by the server with a clear message.
  await page.getByTestId('register-country').selectOption('CN');
  await page.getByTestId('register-submit').click();
  await expect(page.getByTestId('toast').first()).toBeVisible();
  await expect(page).toHaveURL(/register/);
  // … and under the country field, which takes the focus.
  await expect(page.getByTestId('country-error')).toBeVisible();
  await expect(page.getByTestId('register-country')).toBeFocused();
  await shot(page, info, '02-register-refused-country');
  await page.getByTestId('register-country').selectOption('US');
  await page.getByTestId('register-submit').click();
  await expect(page).toHaveURL(/#\/pages\/login\/login/);
  await shot(page, info, '03-registered');

  // Log in: the e-mail typed on register is already there.
  await expect(page.getByTestId('login-email')).toHaveValue(mail);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page).not.toHaveURL(/login/);
  await shot(page, info, '04-logged-in');

  // Mine shows the profile.
  await page.goto('/#/pages/index/mine');
  await expect(page.getByTestId('mine-mail')).toHaveText(mail);
  await expect(page.getByTestId('mine-invite-code')).not.toBeEmpty();
  await shot(page, info, '05-mine');

  // Change the nickname (at most 8 characters, as the user sees them: a family emoji is one).
  await page.goto('/#/pages/personal/personal');
  const family = '👨‍👩‍👧‍👦';
  await page.getByTestId('nickname-input').fill(family.repeat(9));
  await expect(page.getByTestId('nickname-input')).toHaveValue(family.repeat(9)); // never cut into pieces
  await page.getByTestId('nickname-save').click();
  await expect(page.getByTestId('nickname-form').getByRole('alert')).toContainText('8');
  await page.getByTestId('nickname-input').fill(`${family}Trader`);
  await page.getByTestId('nickname-save').click();
  await expect(page.getByTestId('toast').first()).toBeVisible();
  await page.goto('/#/pages/index/mine');
  await expect(page.locator('.avatar').first()).toHaveText(family);
  await page.goto('/#/pages/personal/personal');
  await page.getByTestId('nickname-input').fill('Trader 1');
  await page.getByTestId('nickname-save').click();
  await expect(page.getByTestId('toast').first()).toBeVisible();
  await page.goto('/#/pages/index/mine');
  await expect(page.getByTestId('mine-name')).toHaveText('Trader 1');
  await shot(page, info, '06-nickname');

  // Set a payment password (the dialog opens in "set" mode, code by mail).
  await page.getByTestId('mine-paypwd').click();
  await expect(page.getByTestId('paypwd-form')).toHaveAttribute('data-mode', 'set');
  // One code per address per MAIL_CODE_INTERVAL_SECONDS (1 s in the e2e server; REGISTER's included).
  await page.waitForTimeout(Math.max(0, sentAt + 2_000 - Date.now()));
  const paySentAt = Date.now();
  await page.getByTestId('paypwd-send-code').click();
  const payCode = await waitForCode(mail, paySentAt - 1000);
  await page.getByTestId('paypwd-code').fill(payCode);
  await page.getByTestId('paypwd-new').fill('246810');
  await page.getByTestId('paypwd-again').fill('246810');
  await shot(page, info, '07-paypwd-form');
  await expect(page.getByTestId('mine-paypwd')).toHaveAttribute('data-set', 'false');
  const setLabel = await page.getByTestId('mine-paypwd').innerText();
  await page.getByTestId('paypwd-submit').click();
  await expect(page.getByTestId('paypwd-form')).toBeHidden();
  // The row says "change" at once, without a reload.
  await expect(page.getByTestId('mine-paypwd')).toHaveAttribute('data-set', 'true');
  await expect(page.getByTestId('mine-paypwd')).not.toHaveText(setLabel);
  await page.getByTestId('mine-paypwd').click();
  await expect(page.getByTestId('paypwd-form')).toHaveAttribute('data-mode', 'change');
  await page.getByTestId('sheet-close').filter({ visible: true }).first().click();
  await shot(page, info, '08-paypwd-set');

  // Switch the market: crypto gives the purple theme, persisted across a reload.
  await visible(page, 'market-switcher').click();
  await page.getByTestId('market-option-binance').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'crypto');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'crypto');
  await shot(page, info, '09-market-crypto');
  // A market that is not open yet says so and changes nothing.
  await visible(page, 'market-switcher').click();
  const closed = page.locator('[data-testid^="market-option-"][data-open="false"]').first();
  await closed.click();
  await expect(page.getByTestId('toast').first()).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'crypto');
  await page.keyboard.press('Escape');

  // Switch the language: labels change, and the choice is kept.
  await page.goto('/#/pages/index/mine');
  await visible(page, 'language-picker').click();
  await page.getByTestId('language-option-en-US').click();
  await expect(visible(page, 'current-language')).toHaveText('English');
  const englishTitle = await page.getByTestId('page-title').first().textContent();
  await visible(page, 'language-picker').click();
  await page.getByTestId('language-option-ja-JP').click();
  await expect(visible(page, 'current-language')).toHaveText('日本語');
  await expect(page.getByTestId('page-title').first()).not.toHaveText(englishTitle ?? '');
  await shot(page, info, '10-language-ja');
  await page.reload();
  await expect(visible(page, 'current-language')).toHaveText('日本語');

  if (info.project.name === 'desktop') {
    // The top-bar user menu opens on hover and shows the account.
    await page.getByTestId('user-menu-trigger').hover();
    await expect(page.getByTestId('user-menu')).toBeVisible();
    await expect(page.getByTestId('user-menu-mail')).toHaveText(mail);
    await shot(page, info, '11-user-menu');
  }

  // Log out: back to the login page, and the guard applies again.
  await visible(page, 'mine-logout').click();
  await expect(page).toHaveURL(/#\/pages\/login\/login/);
  await page.goto('/#/pages/index/mine');
  await expect(page).toHaveURL(/#\/pages\/login\/login/);
  await shot(page, info, '12-logged-out');
});
