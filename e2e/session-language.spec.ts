// Language and sessions as a new user meets them, on a phone and on a desktop:
// - a first visit follows the browser's languages when one is ours (ja-JP → Japanese; else zh-CN);
//   login and register offer the language picker on every screen size;
// - one session per browser: a logout in one tab reaches the other, a login there is taken over,
//   and a stale tab's 401 never clears the newer session another tab stored.
import { expect, test, type Page } from '@playwright/test';
import { type Envelope, login, PASSWORD, register } from './support/users';

const visible = (page: Page, testId: string) => page.getByTestId(testId).filter({ visible: true }).first();
const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

test("a first visit speaks the browser's language when it is ours; login and register have the picker", async ({ browser, baseURL }, info) => {
  const project = info.project.use;
  const open = async (locale: string) => {
    const context = await browser.newContext({ ...project, baseURL, locale });
    const page = await context.newPage();
    await page.goto('/#/pages/login/login');
    await expect(page.getByTestId('login-form')).toBeVisible();
    return { context, page };
  };

  const ja = await open('ja-JP');
  await expect.poll(() => htmlLang(ja.page)).toBe('ja-JP');
  expect(await ja.page.evaluate(() => localStorage.getItem('locale'))).toBe('ja-JP');
  await ja.page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/language-01-ja-first-visit.png` });
  // The picker is on the login page (in the nav bar on a phone, the top bar on a desktop) …
  await visible(ja.page, 'language-picker').click();
  await ja.page.getByTestId('language-option-en-US').click();
  await expect.poll(() => htmlLang(ja.page)).toBe('en-US');
  await expect(ja.page.getByTestId('login-submit')).toHaveText(/log in/i);
  // … and on the register page.
  await ja.page.goto('/#/pages/rigister/register');
  await visible(ja.page, 'language-picker').click();
  await ja.page.getByTestId('language-option-vi-VN').click();
  await expect.poll(() => htmlLang(ja.page)).toBe('vi-VN');
  await ja.context.close();

  // None of the browser's languages is ours: Simplified Chinese, as the spec says.
  const fr = await open('fr-FR');
  await expect.poll(() => htmlLang(fr.page)).toBe('zh-CN');
  await fr.context.close();
});

test('one session across tabs: logout reaches the other tab, a login is taken over, a stale 401 keeps the newer session', async ({ page, request, context }, info) => {
  const mail = `tabs.${info.project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  await login(page, mail);
  const other = await context.newPage();
  await other.goto('/#/pages/index/mine');
  await expect(other.getByTestId('mine-mail')).toHaveText(mail);

  // Logging out in the other tab ends the session here too.
  await visible(other, 'mine-logout').click();
  await expect(other).toHaveURL(/login/);
  await expect(page).toHaveURL(/login/);

  // Logging in there: this tab takes the new session over.
  await login(other, mail);
  await page.goto('/#/pages/index/mine');
  await expect(page.getByTestId('mine-mail')).toHaveText(mail);

  // A stale tab: its request carries a token the server revoked, while storage already holds a
  // newer one (written without telling this tab). Its 401 must keep that newer session.
  const stale = await page.evaluate(() => localStorage.getItem('token'));
  const fresh = ((await (await request.post('/user/api/login', { data: { userMail: mail, password: PASSWORD } })).json()) as Envelope<{ token: string }>).data.token;
  await request.post('/user/api/logout', { headers: { authorization: `Bearer ${stale}` }, data: {} });
  await page.evaluate((token) => localStorage.setItem('token', token), fresh);
  await page.evaluate(() => (window.location.hash = '#/pages/backtest/backtestRecord'));
  await page.waitForTimeout(1500);
  await expect(page).not.toHaveURL(/login/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(fresh);
  await page.goto('/#/pages/index/mine');
  await expect(page.getByTestId('mine-mail')).toHaveText(mail);
  await other.close();
});
