// The first render and a hash change: the router reads the location while it renders and listens
// only from an effect; a hash that moves in between (a goto while the first screen renders, as
// robot-flow's did under CI load) must still open its page. The init script moves the hash at the
// exact moment the router subscribes (its popstate listener), before which no event reaches it.
import { expect, test } from '@playwright/test';

test('a hash change while the app mounts opens that page', async ({ page }) => {
  await page.addInitScript(() => {
    const add = window.addEventListener.bind(window);
    let moved = false;
    window.addEventListener = ((type: string, ...rest: unknown[]) => {
      if (type === 'popstate' && !moved && window.location.hash === '#/pages/agreement/privacy/privacy') {
        moved = true;
        history.replaceState(history.state, '', '#/pages/aboutus/aboutus');
      }
      return (add as (t: string, ...r: unknown[]) => void)(type, ...rest);
    }) as typeof window.addEventListener;
  });
  await page.goto('/#/pages/agreement/privacy/privacy');
  await expect(page).toHaveURL(/pages\/aboutus\/aboutus/);
  await expect(page.getByTestId('about-version')).toBeVisible();
  await expect(page.getByTestId('agreement-privacy')).toHaveCount(0);
});

// Spec §2's addresses keep the query inside the hash (`#/path?query`), read exactly as written (an
// encoded `%25` stays a literal `%25` in the value); a link's state (the typed e-mail) reaches the
// next page; the browser's back button returns.
test('the query stays in the hash, exact, and a link carries its state', async ({ page }) => {
  await page.goto('/#/pages/rigister/register?inviteCode=AB%2525CD');
  await expect(page.getByTestId('register-invite')).toHaveValue('AB%25CD');
  await page.getByTestId('register-email').fill('carried@example.com');
  await page.getByTestId('link-login').click();
  await expect(page.getByTestId('login-email')).toHaveValue('carried@example.com');
  expect(await page.evaluate(() => [location.search, location.hash])).toEqual(['', '#/pages/login/login']);
  await page.goBack();
  await expect(page.getByTestId('register-invite')).toHaveValue('AB%25CD');
  expect(await page.evaluate(() => location.search)).toBe('');
});

// A link opened in a new tab: the tab's history already holds about:blank, so "back" from the first
// page must stay in the app (it goes home) rather than leave it; after a page of the app, back
// returns to that page.
test('the back arrow of the first page opened in a tab goes home, never out of the app', async ({ page, baseURL }, info) => {
  test.skip(info.project.name !== 'phone', 'the nav bar’s back arrow is the phone’s');
  await page.goto('about:blank');
  await page.goto('/#/pages/aboutus/aboutus');
  await expect(page.getByTestId('about-version')).toBeVisible();
  await page.getByTestId('nav-back').click();
  // Home is for members: a guest lands on the login page — in the app, not on about:blank.
  await expect(page).toHaveURL(new RegExp(`^${baseURL}/#/pages/login/login`));
  await page.evaluate(() => (location.hash = '/pages/forgetPwd/forgetPwd'));
  await expect(page.getByTestId('forget-form')).toBeVisible();
  await page.getByTestId('nav-back').click();
  await expect(page).toHaveURL(/#\/pages\/login\/login/);
});

// The privacy policy names the operator's contact (SUPPORT_MAIL), never a made-up address.
test('the privacy policy names the configured support address', async ({ page }) => {
  await page.goto('/#/pages/agreement/privacy/privacy');
  await expect(page.getByTestId('agreement-privacy')).toContainText('privacy@lightning-quant.test');
  await expect(page.getByTestId('agreement-privacy')).not.toContainText('.example');
});
