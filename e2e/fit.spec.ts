// Every screen a user reaches fits the phone and the desktop in all seven languages: no page wider
// than the screen, no element reaching past it or across its card's border (a cut-off column is
// as bad as a page that scrolls sideways), no sheet row under the tab bar; and on the desktop the
// left menu reaches Mine and everything in it, lighting the entry of the page shown. Screens hold
// real data: a finished recommendation's three presets, a dense backtest, a 7-digit balance.
import { expect, test, type Page } from '@playwright/test';
import { denseBacktest, finishedRecommendation } from './support/backtests';
import { waitForSymbol } from './support/market';
import { adjustWallet, grantVip, ops, register, signIn } from './support/users';

const LOCALES = ['en-US', 'zh-TW', 'th-TH', 'vi-VN', 'zh-CN', 'ja-JP', 'in_ID'];

/** Requests of the page still in flight (its data, its lazy chunks), counted from the page's events. */
const inFlight = new WeakMap<Page, { n: number }>();
function countRequests(page: Page): void {
  const c = { n: 0 };
  inFlight.set(page, c);
  page.on('request', () => c.n++);
  page.on('requestfinished', () => c.n--);
  page.on('requestfailed', () => c.n--);
}
const twoFrames = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/**
 * Opens a screen as the app does (by the hash) and waits until its page is in and drawn: its
 * requests answered (data, lazy chunks) and two frames drawn after — what a fixed 300 ms wait
 * guessed at, 203 times a run.
 */
async function open(page: Page, screen: string): Promise<void> {
  await page.evaluate((hash) => (location.hash = hash), screen);
  await page.waitForFunction((hash) => decodeURIComponent(location.hash) === `#${hash}`, screen);
  await twoFrames(page);
  await expect(page.getByTestId('page-loading')).toHaveCount(0);
  // The full-screen chart hides the nav bar (and its title) once its page is in.
  await expect(page.getByTestId(screen.includes('fullScreenKline') ? 'kline-page' : 'page-title')).toBeVisible();
  const requests = inFlight.get(page)!;
  await expect.poll(() => requests.n, { intervals: [25, 50, 100] }).toBe(0);
  await twoFrames(page);
}

/** The crypto market, where the recommendation was made (one of another market is not shown). */
async function chooseCrypto(page: Page): Promise<void> {
  await page.getByTestId('market-switcher').first().click();
  await page.getByTestId('market-option-binance').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'crypto');
}

async function useLocale(page: Page, locale: string): Promise<void> {
  await page.evaluate((l) => localStorage.setItem('locale', l), locale);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', locale === 'in_ID' ? 'id-ID' : locale);
}

/**
 * What does not fit: the page's own width past the viewport, and each visible element that reaches
 * past the viewport or past the border of the card it sits in — except inside a deliberate
 * horizontal scroller (a wide table, a chart), which scrolls rather than cuts.
 */
async function misfits(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width) out.push(`page ${document.documentElement.scrollWidth} px wide`);
    const name = (el: Element) => {
      const id = el.closest('[data-testid]')?.getAttribute('data-testid');
      return `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''}${id ? ` in ${id}` : ''} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
    };
    const scrolls = (el: Element) => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        const x = getComputedStyle(p).overflowX;
        if (x === 'auto' || x === 'scroll') return true;
      }
      return false;
    };
    for (const el of Array.from(document.querySelectorAll<Element>('body *'))) {
      const r = el.getBoundingClientRect();
      if (r.width < 2 || r.height < 2 || getComputedStyle(el).visibility === 'hidden' || scrolls(el)) continue;
      if (r.right > width + 1 || r.left < -1) {
        out.push(`${name(el)} spans ${Math.round(r.left)}–${Math.round(r.right)} px`);
        continue;
      }
      const card = el.parentElement?.closest('.card');
      if (card) {
        const c = card.getBoundingClientRect();
        if (r.right > c.right + 1 || r.left < c.left - 1) out.push(`${name(el)} crosses its card (${Math.round(r.left)}–${Math.round(r.right)} in ${Math.round(c.left)}–${Math.round(c.right)})`);
      }
    }
    return out.slice(0, 5);
  });
}

/** Every row of the market sheet is tappable: what a tap at its centre hits is the row, not the tab bar. */
async function marketSheetRowsTappable(page: Page): Promise<string[]> {
  await page.getByTestId('market-switcher').first().click();
  const sheet = page.getByTestId('market-sheet');
  await expect(sheet).toBeVisible();
  const covered: string[] = [];
  for (const option of await sheet.getByRole('radio').all()) {
    await option.scrollIntoViewIfNeeded();
    const hit = await option.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return top !== null && el.contains(top);
    });
    if (!hit) covered.push((await option.getAttribute('data-testid')) ?? '?');
  }
  await page.getByTestId('sheet-close').click();
  return covered;
}

test('each screen fits 360 px in every language, and the home screen 390 px; sheets cover the tab bar', async ({ page, request }, info) => {
  test.skip(info.project.name !== 'phone', 'phones only');
  test.setTimeout(10 * 60_000);
  await page.setViewportSize({ width: 360, height: 740 });
  const mail = `fit.${Date.now()}@example.com`;
  await register(request, mail);
  grantVip(mail);
  // Above the two-person amount the shell refuses an adjustment: raised for this one, then back.
  ops('wallet:two-person', '2000000');
  adjustWallet(mail, '1234567.891234', 'rebate', `fit-${mail}`);
  ops('wallet:two-person', '10000');
  await waitForSymbol(request, 'binance', 'ETHUSDT');
  const [id, rec] = await Promise.all([denseBacktest(request, mail), finishedRecommendation(request, mail)]);
  countRequests(page);
  await signIn(page, request, mail);
  await chooseCrypto(page);
  const screens = [
    `/?rec=${rec}`,
    `/pages/backtest/recommandParams?rec=${rec}`,
    `/pages/backtest/resultDateil/resultDetail?id=${id}`,
    `/pages/backtest/resultDateil/fullScreenKline/fullScreenKline?id=${id}`,
    '/pages/backtest/backtestRecord',
    '/pages/backtest/chooseList/chooseList',
    '/pages/createOrder/crypto_grid',
    '/pages/createOrder/forex_martin',
    '/pages/robot/robotOrderList/robotOrderList',
    '/pages/robot/robotHistory/robotHistory',
    '/pages/market/market',
    '/pages/index/mine',
    '/pages/personal/personal',
    '/pages/changePwd/changePwd',
    '/pages/apikey/apiList',
    '/pages/apikey/apiAdd',
    '/pages/tools/positionCalc',
    '/pages/tools/riskCalc',
    '/pages/wallet/wallet',
    '/pages/wallet/export/export',
    '/pages/recharge/recharge',
    '/pages/buyusd/buyusd',
    '/pages/withdraw/withdraw',
    '/pages/withdraw/withdrawRecord',
    '/pages/aboutus/aboutus',
    '/pages/group/group',
    '/pages/group/explain/explain',
    '/pages/index/rankingList/rankingList',
    '/pages/notice/notice',
  ];
  const problems: string[] = [];
  const check = async (label: string) => {
    const found = await misfits(page);
    if (found.length > 0) {
      problems.push(`${label}: ${found.join('; ')}`);
      await page.screenshot({ path: `e2e/artifacts/screens/phone/fit-${label.replace(/\W+/g, '_')}.png`, fullPage: true });
    }
  };
  for (const locale of LOCALES) {
    // One load per language; the screens are then opened as the app opens them, by the hash.
    await useLocale(page, locale);
    for (const screen of screens) {
      await open(page, screen);
      if (screen.includes('rec=')) await expect(page.getByTestId('preset-balanced')).toBeVisible();
      await check(`${locale} 360 ${screen}`);
    }
  }
  await page.setViewportSize({ width: 390, height: 844 });
  for (const locale of ['en-US', 'th-TH', 'ja-JP']) {
    await useLocale(page, locale);
    await open(page, `/?rec=${rec}`);
    await expect(page.getByTestId('preset-balanced')).toBeVisible();
    await check(`${locale} 390 home`);
    // The title is whole, not cut to "Recommended para…".
    const cut = await page.getByTestId('page-title').evaluate((h) => h.scrollHeight > h.clientHeight + 1 || h.scrollWidth > h.clientWidth + 1);
    if (cut) problems.push(`${locale} 390 home: the title is cut`);
    const covered = await marketSheetRowsTappable(page);
    if (covered.length > 0) problems.push(`${locale} 390 market sheet rows under the tab bar: ${covered.join(', ')}`);
  }
  expect(problems).toEqual([]);
});

test('the desktop reaches Mine and every entry in it by clicks, lights the right menu entry, and fits 1440 px', async ({ page, request }, info) => {
  test.skip(info.project.name !== 'desktop', 'desktop only');
  test.setTimeout(5 * 60_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const mail = `fit.desk.${Date.now()}@example.com`;
  await register(request, mail);
  grantVip(mail);
  await waitForSymbol(request, 'binance', 'ETHUSDT');
  const [id, rec] = await Promise.all([denseBacktest(request, mail), finishedRecommendation(request, mail)]);
  countRequests(page);
  await signIn(page, request, mail);
  await chooseCrypto(page);
  const lit = page.locator('[data-testid="side-menu"] [aria-current="page"]');

  // The home screen's presets stay inside their cards, in three languages.
  const problems: string[] = [];
  for (const locale of ['en-US', 'th-TH', 'ja-JP']) {
    await useLocale(page, locale);
    await open(page, `/?rec=${rec}`);
    await expect(page.getByTestId('preset-balanced')).toBeVisible();
    const found = await misfits(page);
    if (found.length > 0) problems.push(`${locale} 1440 home: ${found.join('; ')}`);
    await expect(lit).toHaveAttribute('data-testid', 'menu-home');
  }
  expect(problems).toEqual([]);
  await useLocale(page, 'en-US');

  // The form follows the recommendation opened; another symbol hides its presets, and back shows them.
  await open(page, `/?rec=${rec}`);
  await expect(page.getByTestId('rec-symbol')).toHaveValue('ETHUSDT');
  await expect(page.getByTestId('preset-balanced')).toBeVisible();
  await page.getByTestId('rec-symbol').selectOption('BTCUSDT');
  await expect(page.getByTestId('presets')).toHaveCount(0);
  await expect(page.getByTestId('presets-empty')).toBeVisible();
  await page.getByTestId('rec-symbol').selectOption('ETHUSDT');
  await expect(page.getByTestId('preset-balanced')).toBeVisible();

  // The entry lit is the section of the page shown.
  for (const [screen, entry] of [
    [`/pages/backtest/resultDateil/resultDetail?id=${id}`, 'menu-backtest'],
    ['/pages/createOrder/crypto_grid', 'menu-backtest'],
    ['/pages/tools/riskCalc', 'menu-mine'],
    ['/pages/withdraw/withdrawRecord', 'menu-wallet'],
    ['/pages/robot/robotHistory/robotHistory', 'menu-robot'],
  ] as const) {
    await open(page, screen);
    await expect(lit).toHaveAttribute('data-testid', entry);
  }

  // Mine by a click, then each of its entries by a click, back to Mine by the menu each time.
  await page.getByTestId('menu-mine').click();
  await expect(page).toHaveURL(/#\/pages\/index\/mine$/);
  await expect(lit).toHaveAttribute('data-testid', 'menu-mine');
  await expect(page.getByTestId('mine-about')).toBeVisible();
  const rows = await page.locator('a.list-row[data-testid^="mine-"]').evaluateAll((links) => links.map((a) => [a.getAttribute('data-testid')!, a.getAttribute('href')!]));
  expect(rows.map(([testId]) => testId)).toEqual(expect.arrayContaining(['mine-wallet', 'mine-equity', 'mine-team', 'mine-ranking', 'mine-notice', 'mine-position-calc', 'mine-risk-calc', 'mine-personal', 'mine-change-pwd', 'mine-about']));
  for (const [testId, href] of rows) {
    await page.getByTestId(testId).click();
    await expect(page).toHaveURL(new RegExp(`${href.replace(/[.?*+^$()[\]\\|{}]/g, '\\$&')}$`));
    await expect(page.getByTestId('page-title')).toBeVisible();
    await page.getByTestId('menu-mine').click();
    await expect(page).toHaveURL(/#\/pages\/index\/mine$/);
  }
  // The settings that are not pages: the payment password and the language, each by a click.
  await page.getByTestId('mine-paypwd').click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.getByTestId('sheet-close').click();
  await page.locator('.list [data-testid="language-picker"]').click();
  await expect(page.getByTestId('language-option-ja-JP')).toBeVisible();
  await page.getByTestId('sheet-close').click();
});
