// A VIP user on a phone and on a desktop: AI recommendation for BTCUSDT on real candles
// (../shared/data, imported by the e2e server through MARKET_DATA_DIR), a backtest from a preset
// with live progress, the report with a metric definition, the order log and the full-screen
// K-line; then a forex EURUSD backtest from a recommendation opened in the create-order form
// (client-side validation first), its report and K-line; finally the records list.
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { waitForSymbol } from './support/market';
import { grantVip, register, signIn } from './support/users';

const MINUTE = 60_000;

// Long waits are explicit below; a click that cannot happen should fail fast.
test.use({ actionTimeout: 30_000 });

async function shot(page: Page, info: TestInfo, step: string): Promise<void> {
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/backtest-${step}.png`, fullPage: true });
}

const visible = (page: Page, testId: string) => page.getByTestId(testId).filter({ visible: true }).first();

async function chooseMarket(page: Page, type: 'binance' | 'mt5'): Promise<void> {
  // The switcher sits in the nav bar of the tab pages (phone) and in the top bar (desktop).
  await page.goto('/#/');
  await visible(page, 'market-switcher').click();
  await page.getByTestId(`market-option-${type}`).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', type === 'mt5' ? 'forex' : 'crypto');
}

/** Recommendation with live progress → presets. */
async function recommend(page: Page, info: TestInfo, symbol: string, strategy: string, prefix: string): Promise<void> {
  await page.goto('/#/pages/backtest/recommandParams');
  await expect(page.getByTestId('recommend-form')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('rec-strategy').selectOption(strategy);
  await page.getByTestId('rec-symbol').selectOption(symbol);
  await expect(page.getByTestId('symbol-range')).toBeVisible();
  // A capital under the minimum is refused next to the field, in place.
  await page.getByTestId('rec-capital').fill('500');
  await page.getByTestId('get-recommendation').click();
  await expect(page.getByTestId('capital-error')).toBeVisible();
  await page.getByTestId('rec-capital').fill('10000');
  await shot(page, info, `${prefix}-01-form`);
  await page.getByTestId('get-recommendation').click();
  await expect(page).toHaveURL(/rec=\d+/);
  // Live progress while the search runs (it may already be done on a fast machine).
  await expect(page.getByTestId('recommend-running').or(page.getByTestId('presets'))).toBeVisible();
  if (await page.getByTestId('recommend-running').isVisible()) await shot(page, info, `${prefix}-02-recommending`);
  await expect(page.getByTestId('presets')).toBeVisible({ timeout: 4 * MINUTE });
  await expect(page.getByTestId('preset-balanced')).toBeVisible();
  await expect(page.getByTestId('preset-balanced')).toContainText('%');
  // Each window is named (dates), and the out-of-sample one can be backtested as it is.
  await expect(page.getByTestId('preset-balanced').getByTestId('window-out')).toHaveText(/\d.*–.*\d/);
  await expect(page.getByTestId('preset-balanced').getByTestId('run-oos-balanced')).toBeVisible();
  await shot(page, info, `${prefix}-03-presets`);
}

/** On the detail page: live progress, then the report, a metric definition, curve, order log, K-line. */
async function readReport(page: Page, info: TestInfo, prefix: string): Promise<void> {
  // Creating loads the candles and queues the job: allow it a moment on a busy machine.
  await expect(page).toHaveURL(/resultDetail\?id=\d+/, { timeout: MINUTE });
  const detail = page.getByTestId('result-detail');
  await expect(detail).toBeVisible();
  if ((await detail.getAttribute('data-status')) === '1') {
    await expect(page.getByTestId('detail-progress')).toBeVisible();
    await shot(page, info, `${prefix}-04-progress`);
  }
  await expect(detail).not.toHaveAttribute('data-status', '1', { timeout: 3 * MINUTE });
  const status = await detail.getAttribute('data-status');
  // 2 success, 4 liquidate, 5 capital all come with a report; 3 (fail) names its reason.
  if (status === '3') {
    await expect(page.getByTestId('status-reason')).toBeVisible();
    throw new Error(`backtest failed: ${await page.getByTestId('status-reason').textContent()}`);
  }
  await expect(page.getByTestId('report')).toBeVisible();
  await expect(page.getByTestId('metric-totalReturn')).toContainText(/%|--/);
  await expect(page.getByTestId('metric-tradeCount')).toBeVisible();
  await expect(page.getByTestId('equity-chart').locator('canvas').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('order-log')).toBeVisible();
  await shot(page, info, `${prefix}-05-report`);

  // Every metric's definition is one tap away.
  await page.getByTestId('info-maxDrawdown').click();
  await expect(page.getByTestId('metric-definition')).toBeVisible();
  await shot(page, info, `${prefix}-06-definition`);
  await page.getByTestId('sheet-close').filter({ visible: true }).first().click();
  await expect(page.getByTestId('metric-definition')).toBeHidden();

  // Full-screen K-line with trade markers, zoom and back.
  await page.getByTestId('open-kline').click();
  await expect(page).toHaveURL(/fullScreenKline\?id=\d+/);
  const chart = page.getByTestId('kline-chart');
  await expect(chart).toBeVisible({ timeout: 30_000 });
  await expect(chart.locator('canvas').first()).toBeVisible();
  expect(Number(await chart.getAttribute('data-candles'))).toBeGreaterThan(10);
  await expect(page.getByTestId('side-menu')).toHaveCount(0);
  await shot(page, info, `${prefix}-07-kline`);
  const box = await chart.boundingBox();
  if (box) {
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 3);
    await page.mouse.wheel(0, -400); // zoom in
  }
  await page.getByTestId('kline-fit').click();
  await page.getByTestId('kline-back').click();
  await expect(page).toHaveURL(/resultDetail\?id=\d+/);
}

test('a VIP user gets a recommendation, runs BTCUSDT and EURUSD backtests, reads the reports and K-lines', { tag: '@desktop' }, async ({ page, request }, info) => {
  test.setTimeout(25 * MINUTE);
  const mail = `vip.${info.project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  await waitForSymbol(request, 'binance', 'BTCUSDT');
  await signIn(page, request, mail);

  // ---- not VIP yet: the server's upgrade message is shown plainly, in place ----
  await chooseMarket(page, 'binance');
  await page.goto('/#/pages/createOrder/crypto_grid');
  await expect(page.getByTestId('strategy-form')).toBeVisible();
  await page.getByTestId('create-submit').click();
  await expect(page.getByTestId('form-server-error')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('upgrade-vip')).toBeVisible();
  await shot(page, info, '00-not-vip');
  grantVip(mail);
  // A fresh session carries the new level.
  await signIn(page, request, mail);

  // ---- the form: a server error under its field, focused, in words only; one create per click ----
  await page.goto('/#/pages/createOrder/crypto_grid');
  await expect(page.getByTestId('strategy-form')).toBeVisible();
  await page.getByTestId('field-symbol').selectOption('BTCUSDT');
  await page.getByTestId('field-start').fill('2020-01-01');
  await page.getByTestId('field-end').fill('2020-03-01');
  await page.getByTestId('field-interval').selectOption('1m'); // only 1h candles that far back
  await page.getByTestId('create-submit').click();
  const intervalError = page.getByTestId('interval-error');
  await expect(intervalError).toBeVisible({ timeout: 30_000 });
  await expect(intervalError).not.toContainText('params.');
  await expect(intervalError).toContainText('1h');
  await expect(page.getByTestId('field-interval')).toBeFocused();
  await expect(page.getByTestId('field-interval')).toBeInViewport();
  await shot(page, info, '00-field-error');
  await page.getByTestId('field-interval').selectOption('1h');
  let creates = 0;
  const countCreates = (r: { method(): string; url(): string }) => {
    if (r.method() === 'POST' && r.url().includes('/order/api/backtest/create')) creates++;
  };
  page.on('request', countCreates);
  await page.getByTestId('create-submit').dblclick();
  await expect(page).toHaveURL(/resultDetail\?id=\d+/, { timeout: MINUTE });
  await page.waitForTimeout(500);
  page.off('request', countCreates);
  expect(creates).toBe(1);

  // ---- crypto: BTCUSDT recommendation → backtest from the balanced preset ----
  await recommend(page, info, 'BTCUSDT', 'grid', 'btc');
  const presetAi = page.getByTestId('preset-balanced').getByTestId('preset-ai');
  if (await presetAi.count()) await expect(presetAi).toContainText('%');
  // The card's out-of-sample figures are a backtest of the preset over that window: run it, compare.
  const oosCell = (row: number) => page.getByTestId('preset-balanced').locator('tbody tr').nth(row).locator('td').nth(1);
  const oosReturn = (await oosCell(0).textContent())?.trim() ?? '';
  const oosTrades = (await oosCell(3).textContent())?.trim() ?? '';
  expect(Number(oosTrades.replace(/\D/g, ''))).toBeGreaterThan(0); // a window with trades to compare
  const recommendation = page.url();
  await page.getByTestId('run-oos-balanced').click();
  await expect(page).toHaveURL(/resultDetail\?id=\d+/, { timeout: MINUTE });
  await expect(page.getByTestId('result-detail')).toHaveAttribute('data-status', /^[245]$/, { timeout: 3 * MINUTE });
  await expect(page.getByTestId('metric-tradeCount').locator('dd')).toHaveText(oosTrades);
  await expect(page.getByTestId('metric-totalReturn').locator('dd')).toHaveText(oosReturn);
  await page.goto(recommendation);
  await expect(page.getByTestId('presets')).toBeVisible();
  await page.getByTestId('run-balanced').click();
  await readReport(page, info, 'btc');

  // ---- forex: EURUSD recommendation → edited in the create-order form → backtest ----
  await waitForSymbol(request, 'mt5', 'EURUSD');
  await chooseMarket(page, 'mt5');
  await recommend(page, info, 'EURUSD', 'grid', 'eur');
  await page.getByTestId('edit-balanced').click();
  await expect(page).toHaveURL(/pages\/createOrder\/forex_grid\?/);
  const form = page.getByTestId('strategy-form');
  await expect(form).toBeVisible();
  await expect(page.getByTestId('field-symbol')).toHaveValue('EURUSD');
  await expect(page.getByTestId('field-spread')).not.toHaveValue('');
  // The strategy's own schema is checked on the client: errors next to the fields, translated.
  const gridNumber = await page.getByTestId('field-gridNumber').inputValue();
  await page.getByTestId('field-gridNumber').fill('1');
  await page.getByTestId('field-capital').fill('500');
  await page.getByTestId('create-submit').click();
  await expect(page.getByTestId('gridNumber-error')).toBeVisible();
  await expect(page.getByTestId('capital-error')).toBeVisible();
  await shot(page, info, 'eur-04-form-errors');
  await page.getByTestId('field-gridNumber').fill(gridNumber || '10');
  await page.getByTestId('field-capital').fill('10000');
  await page.getByTestId('create-submit').click();
  await readReport(page, info, 'eur');

  // ---- records: both backtests are listed under "completed" (or "failed" for a liquidation) ----
  await page.goto('/#/pages/backtest/backtestRecord?tab=completed');
  await expect(page.getByTestId('records-panel')).toBeVisible();
  await page.getByTestId('records-tab-running').click();
  await expect(page.getByTestId('records-panel')).toHaveAttribute('data-tab', 'running');
  await page.getByTestId('records-tab-completed').click();
  await expect(visible(page, 'record-row').or(page.getByTestId('records-empty'))).toBeVisible();
  await shot(page, info, '08-records');
});
