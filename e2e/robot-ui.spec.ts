// Robot screens on a phone and on a desktop. Without a bound account: the robot list's empty
// state and seats, the history tab, the market page, the robot form (type 1) asking for a trading
// account first, and both calculators (at 360 px on the phone project) with the figures checked.
// With MT5 accounts (bound through the API): a paper robot created through the form, its detail,
// pause / continue, stop with its confirmation, the history; a second account finds no free seat.
// Finally, with the robot API answered by fixtures (page.route): a robot paused by an exchange
// error in the list and its detail with positions, orders, fills and the error in plain words.
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { grantUnlock, type Envelope, register, signIn } from './support/users';
import { bindMt5 } from './support/accounts';


async function shot(page: Page, info: TestInfo, step: string): Promise<void> {
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/robot-ui-${step}.png`, fullPage: true });
}

/** Nothing wider than the viewport (usable at 360 px). */
async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scroll).toBeLessThanOrEqual(width);
}

test('robot list, history, market, robot form and calculators', async ({ page, request }, info) => {
  const mail = `robots.${info.project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  grantUnlock(mail);
  await signIn(page, request, mail);
  await page.evaluate(() => localStorage.setItem('locale', 'en-US'));

  // Robot order list: the current market (forex by default) has no robot yet.
  await page.goto('/#/pages/robot/robotOrderList/robotOrderList');
  await page.reload();
  await expect(page.getByTestId('robot-list')).toBeVisible();
  await expect(page.getByTestId('robot-empty')).toBeVisible();
  await expect(page.getByTestId('robot-seats')).toContainText('0 / 1');
  await expectNoHorizontalScroll(page);
  await shot(page, info, '01-list-empty');

  // "Create robot" offers the market's strategies, each opening the form in robot mode.
  await page.getByTestId('robot-empty-create').click();
  await expect(page.getByTestId('strategy-sheet')).toBeVisible();
  await page.getByTestId('robot-strategy-grid').click();
  await expect(page).toHaveURL(/createOrder\/forex_grid.*type=1/);
  await expect(page.getByTestId('create-order')).toHaveAttribute('data-type', '1');
  await expect(page.getByTestId('robot-fields')).toBeVisible();
  await expect(page.getByTestId('field-start')).toHaveCount(0);
  await expect(page.getByTestId('no-accounts')).toBeVisible();
  // Spec §5: a trading account must be chosen before proceeding.
  await page.getByTestId('create-submit').click();
  await expect(page.getByTestId('accountId-error')).toBeVisible();
  await shot(page, info, '02-robot-form-account-required');
  // The same form as a backtest (the range comes back), and back to a robot.
  await page.getByTestId('type-backtest').click();
  await expect(page.getByTestId('create-order')).toHaveAttribute('data-type', '0');
  await expect(page.getByTestId('field-start')).toBeVisible();
  await page.getByTestId('type-robot').click();
  await expect(page.getByTestId('robot-fields')).toBeVisible();

  // History tab.
  await page.goto('/#/pages/robot/robotOrderList/robotOrderList');
  await page.getByTestId('robot-tab-history').click();
  await expect(page).toHaveURL(/robotHistory/);
  await expect(page.getByTestId('robot-history')).toBeVisible();
  await expect(page.getByTestId('robot-empty')).toBeVisible();

  // Market page: prices of the current market (or the "still importing" empty state), search.
  await page.goto('/#/pages/market/market');
  await expect(page.getByTestId('market-page')).toBeVisible();
  await expect(page.getByTestId('ticker-row').first().or(page.getByTestId('market-empty'))).toBeVisible();
  // Each price says its time and source: imported history is never called live, no price is said.
  for (const row of await page.getByTestId('ticker-row').all()) {
    const kind = await row.getAttribute('data-kind');
    const when = row.getByTestId('ticker-when');
    if (kind === 'history') await expect(when).toContainText('stored history');
    if (kind === 'none') await expect(when).toHaveText('No live price');
    if (kind !== 'live') await expect(when).not.toContainText(/^live/);
  }
  await page.getByTestId('market-search').fill('zzzz');
  await expect(page.getByTestId('market-empty')).toBeVisible();
  await expectNoHorizontalScroll(page);
  await shot(page, info, '03-market');

  // Calculators, at 360 px on the phone.
  if (info.project.name === 'phone') await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/#/pages/index/mine');
  await page.getByTestId('mine-position-calc').click();
  await expect(page.getByTestId('position-calc')).toBeVisible();
  await page.getByTestId('calc-market-forex').click();
  await page.getByTestId('calc-symbol').selectOption('EURUSD');
  await page.getByTestId('calc-balance').fill('10000');
  await page.getByTestId('calc-risk').fill('1');
  await page.getByTestId('calc-stop').fill('50');
  await expect(page.getByTestId('result-size')).toContainText('0.2 ');
  await expect(page.getByTestId('result-risk')).toContainText('100.00');
  await expect(page.getByTestId('calc-formula')).toBeVisible();
  await expectNoHorizontalScroll(page);
  await shot(page, info, '04-position-calc');

  await page.getByTestId('open-risk-calc').click();
  await expect(page.getByTestId('risk-calc')).toBeVisible();
  await page.getByTestId('calc-market-crypto').click();
  await page.getByTestId('calc-symbol').selectOption('BTCUSDT');
  await page.getByTestId('calc-side-long').click();
  await page.getByTestId('calc-entry').fill('60000');
  await page.getByTestId('calc-size').fill('50'); // 50 contracts of 0.01 BTC
  await page.getByTestId('calc-leverage').fill('10');
  await page.getByTestId('calc-rate').fill('0.5');
  // 60000 × (1 − 1/10) / (1 − 0.005) = 54,271.36…
  await expect(page.getByTestId('result-liquidation')).toContainText('54,271.');
  await expect(page.getByTestId('result-margin')).toContainText('3,000.00');
  await page.getByTestId('calc-side-short').click();
  // 60000 × 1.1 / 1.005 = 65,671.64…
  await expect(page.getByTestId('result-liquidation')).toContainText('65,671.');
  await expectNoHorizontalScroll(page);
  await shot(page, info, '05-risk-calc');
});

async function createPaperRobot(page: Page, accountId: number): Promise<string> {
  await page.goto('/#/pages/createOrder/forex_grid?type=1&strategy=grid&symbol=EURUSD');
  await expect(page.getByTestId('robot-fields')).toBeVisible();
  await page.getByTestId('field-accountId').selectOption(String(accountId));
  await page.getByTestId('mode-paper').click();
  const symbol = page.getByTestId('field-symbol');
  if ((await symbol.evaluate((el) => el.tagName)) === 'INPUT') await symbol.fill('EURUSD');
  const answer = page.waitForResponse((r) => r.url().includes('/order/api/robot/create'));
  await page.getByTestId('create-submit').click();
  const body = (await (await answer).json()) as Envelope<unknown>;
  // Paper needs no confirmation: no sheet came between the click and the robot.
  await expect(page.getByTestId('confirm-sheet')).toHaveCount(0);
  return body.code;
}

test('a paper robot on MT5: create from the form, pause, continue, stop; no free seat for a second account', { tag: '@desktop' }, async ({ page, request }, info) => {
  const mail = `robots2.${info.project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  grantUnlock(mail);
  await signIn(page, request, mail);
  await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
  await page.reload();
  const first = await bindMt5(page, request, 'MT5 main');

  expect(await createPaperRobot(page, first)).toBe('00000');
  await expect(page).toHaveURL(/orderDetail\?id=\d+/);
  const detail = page.getByTestId('robot-detail');
  await expect(detail).toHaveAttribute('data-status', 'running');
  await expect(page.getByTestId('robot-params')).toBeVisible();
  await expect(page.getByTestId('robot-events')).toContainText('Started');
  await expect(page.getByTestId('robot-events')).not.toContainText('{');
  await shot(page, info, '06-detail-running');

  await page.getByTestId('robot-pause').click();
  await expect(detail).toHaveAttribute('data-status', 'paused');
  await expect(page.getByTestId('robot-pause-reason')).toContainText('Done by you');
  await page.getByTestId('robot-continue').click();
  await expect(detail).toHaveAttribute('data-status', 'running');

  // The list shows it live, with its account.
  await page.goto('/#/pages/robot/robotOrderList/robotOrderList');
  const row = page.getByTestId('robot-row').filter({ visible: true }).first();
  await expect(row).toHaveAttribute('data-status', 'running');
  await expect(row).toContainText('MT5 main');
  await expect(page.getByTestId('robot-seats')).toContainText('1 / 1');
  await shot(page, info, '07-list-running');

  // A second account needs a seat of its own: the form offers to open one.
  const second = await bindMt5(page, request, 'MT5 second');
  expect(await createPaperRobot(page, second)).toBe('A0312');
  await expect(page.getByTestId('no-seat-sheet')).toBeVisible();
  await expect(page.getByTestId('open-seat')).toBeVisible();
  await shot(page, info, '08-no-free-seat');
  await page.getByTestId('sheet-close').click();

  // Stop asks first (it closes positions), then the robot leaves the running list.
  await page.goto('/#/pages/robot/robotOrderList/robotOrderList');
  await page.getByTestId('robot-stop').filter({ visible: true }).first().click();
  await expect(page.getByTestId('confirm-sheet')).toBeVisible();
  await shot(page, info, '09-confirm-stop');
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('robot-row').filter({ visible: true }).first()).toHaveAttribute('data-status', /stopping|stopped/);
  // Once it has stopped, its seat is free again on the same screen, without a reload.
  await expect(page.getByTestId('robot-seats')).toContainText('0 / 1', { timeout: 60_000 });
  await page.goto('/#/pages/robot/robotHistory/robotHistory');
  await page.getByTestId('robot-open').filter({ visible: true }).first().click();
  await expect(page.getByTestId('robot-detail')).toHaveAttribute('data-status', /stopping|stopped/, { timeout: 30_000 });
  await shot(page, info, '10-detail-stopping');
});

const ok = <T>(data: T) => ({ status: 200, contentType: 'application/json', body: JSON.stringify({ code: '00000', msg: 'ok', data }) });

const pausedRobot = {
  id: 4242,
  strategy: 'grid',
  dataSource: 'binance',
  market: 'crypto',
  mode: 'live',
  symbol: 'BTCUSDT',
  tradingPair: 'BTC/USDT:USDT',
  interval: '1h',
  account: { id: 9, name: 'Binance main', exchange: 'binance', unbound: false, frozen: false },
  status: 'paused',
  pauseReason: 'insufficientFunds: Margin is insufficient.',
  stopReason: null,
  capital: 12500,
  leverage: 5,
  income: '1234.5678',
  live: { equity: 13734.56, floating: -42.1, position: 0.35, price: 61234.5, at: Date.UTC(2026, 10, 22, 23, 59) },
  sourceBacktestId: null,
  createdAt: '2026-11-20T08:00:00.000Z',
  stoppedAt: null,
};

test('a robot paused by an exchange error: list and detail in plain words (API fixtures)', async ({ page, request }, info) => {
  if (info.project.name === 'phone') await page.setViewportSize({ width: 360, height: 740 });
  const mail = `robots3.${info.project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  await signIn(page, request, mail);
  await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
  await page.route(/\/order\/api\/robot\/list/, (route) => route.fulfill(ok({ list: [pausedRobot], total: 1, page: 1, pageSize: 20, hasMore: false })));
  await page.route(/\/order\/api\/robot\/seats/, (route) => route.fulfill(ok({ market: 'crypto', used: 1, total: 1, free: 0, accounts: [] })));
  const at = '2026-11-22T10:00:00.000Z';
  const order = (id: number, state: string, error: string | null) => ({
    id, clientOrderId: `lq4242-${id}`, tag: 'grid', action: 'open', positionSide: 'long', side: 'buy', type: 'limit', amount: 0.05, price: 60000 - id * 100,
    reduceOnly: false, state, filled: state === 'filled' ? '0.05' : '0', average: state === 'filled' ? '59900' : null, venueOrderId: null, error, createdAt: at, updatedAt: at,
  });
  const fill = { id: 1, clientOrderId: 'lq4242-1', fillKey: 't1', action: 'close', positionSide: 'long', qty: '0.05', price: '61000', fee: '1.2', pnl: '55.3', reason: 'takeProfit', filledAt: at };
  const errorEvent = { id: 3, kind: 'error', message: 'robot.error.insufficientFunds', detail: { clientOrderId: 'lq4242-3', venueCode: '-2019', message: 'Margin is insufficient.' }, createdAt: at };
  await page.route(/\/order\/api\/robot\/detail/, (route) =>
    route.fulfill(ok({
      ...pausedRobot,
      params: { symbol: 'BTCUSDT', capital: 12500, leverage: 5, gridNumber: 10, gap: 0.5, side: 'long', useAiIndicator: true },
      orders: [order(3, 'rejected', 'Margin is insufficient.'), order(2, 'open', null), order(1, 'filled', null)],
      fills: [fill],
      positions: [{ side: 'long', qty: 0.35, price: 61234.5, floating: -42.1, at: Date.UTC(2026, 10, 22, 23, 59) }],
      events: [errorEvent, { id: 2, kind: 'reconciled', message: 'robot.reconciled', detail: { orders: 2 }, createdAt: at }, { id: 1, kind: 'started', message: 'robot.started', detail: { by: 'user' }, createdAt: at }],
      error: errorEvent,
      stop: null,
      lastCandleAt: Date.UTC(2026, 10, 22, 23, 0),
      heartbeatAt: at,
    })),
  );
  await page.route(/\/order\/api\/robot\/fills/, (route) => route.fulfill(ok({ list: [fill], total: 1, page: 1, pageSize: 20, hasMore: false })));

  await page.goto('/#/pages/robot/robotOrderList/robotOrderList');
  await page.reload();
  const row = page.getByTestId('robot-row').filter({ visible: true }).first();
  await expect(row).toHaveAttribute('data-status', 'paused');
  await expect(row.getByTestId('robot-pause-reason')).toContainText('Insufficient funds on the account: Margin is insufficient.');
  await expect(row.getByTestId('robot-income')).toHaveText('+1,234.57');
  await expect(row.getByTestId('robot-continue')).toBeVisible();
  await expectNoHorizontalScroll(page);
  await shot(page, info, '11-list-paused-error');

  await row.getByTestId('robot-open').click();
  await expect(page.getByTestId('robot-detail')).toHaveAttribute('data-status', 'paused');
  await expect(page.getByTestId('robot-error')).toContainText('Exchange message: Margin is insufficient. (-2019)');
  await expect(page.getByTestId('order-row')).toHaveCount(3);
  await expect(page.getByTestId('order-error')).toContainText('Margin is insufficient.');
  await expect(page.getByTestId('fill-row')).toHaveCount(1);
  await expect(page.getByTestId('position-row')).toContainText('0.35');
  await expectNoHorizontalScroll(page);
  await shot(page, info, '12-detail-error');
});
