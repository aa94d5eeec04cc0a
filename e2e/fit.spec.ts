// Every screen a user reaches fits a 360 px phone in all seven languages: no page wider than the
// screen, whatever the length of a title, a metric's name or a button (the in_ID result page was
// 362 px wide; the wallet with a 7-digit balance). Phone project only; the desktop has room to spare.
import { expect, test } from '@playwright/test';
import { denseBacktest } from './support/backtests';
import { waitForSymbol } from './support/market';
import { adjustWallet, grantVip, login, register } from './support/users';

const LOCALES = ['en-US', 'zh-TW', 'th-TH', 'vi-VN', 'zh-CN', 'ja-JP', 'in_ID'];

test('each screen fits 360 px in every language', async ({ page, request }, info) => {
  test.skip(info.project.name !== 'phone', 'phones only');
  test.setTimeout(8 * 60_000);
  await page.setViewportSize({ width: 360, height: 740 });
  const mail = `fit.${Date.now()}@example.com`;
  await register(request, mail);
  grantVip(mail);
  adjustWallet(mail, '1234567.891234', 'rebate', `fit-${mail}`);
  await waitForSymbol(request, 'binance', 'ETHUSDT');
  const id = await denseBacktest(request, mail);
  await login(page, mail);
  const screens = [
    `/pages/backtest/resultDateil/resultDetail?id=${id}`,
    `/pages/backtest/resultDateil/fullScreenKline/fullScreenKline?id=${id}`,
    '/pages/backtest/backtestRecord',
    '/pages/backtest/recommend',
    '/pages/createOrder/crypto_grid',
    '/pages/robot/robotOrderList/robotOrderList',
    '/pages/index/mine',
    '/pages/personal/personal',
    '/pages/apikey/apiList',
    '/pages/tools/positionCalc',
    '/pages/tools/riskCalc',
    '/pages/wallet/wallet',
    '/pages/wallet/export/export',
    '/pages/recharge/recharge',
    '/pages/buyusd/buyusd',
    '/pages/withdraw/withdraw',
    '/pages/withdraw/withdrawRecord',
  ];
  const wide: string[] = [];
  for (const locale of LOCALES) {
    // One load per language; the screens are then opened as the app opens them, by the hash.
    await page.evaluate((l) => localStorage.setItem('locale', l), locale);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', locale === 'in_ID' ? 'id-ID' : locale);
    for (const screen of screens) {
      await page.evaluate((hash) => (location.hash = hash), screen);
      // The route's page is in: the hash is taken, two frames drawn, no page still loading.
      await page.waitForFunction((hash) => decodeURIComponent(location.hash) === `#${hash}`, screen);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await expect(page.getByTestId('page-loading')).toHaveCount(0);
      // The full-screen chart hides the nav bar (and its title) once its page is in.
      await expect(page.getByTestId(screen.includes('fullScreenKline') ? 'kline-page' : 'page-title')).toBeVisible();
      await page.waitForTimeout(400);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 360) {
        wide.push(`${locale} ${screen}: ${width} px`);
        await page.screenshot({ path: `e2e/artifacts/screens/phone/fit-${locale}-${screen.replace(/\W+/g, '_')}.png` });
      }
    }
  }
  expect(wide).toEqual([]);
});
