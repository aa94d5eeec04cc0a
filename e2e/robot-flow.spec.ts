// Issue 5 end to end, on a phone and on a desktop: a VIP user binds a Binance key on the fake exchange through the
// apiAdd screen, runs a grid backtest on BTCUSDT, starts a live robot from the result ("start
// robot" prefills the create-order form, type 1), watches it trade on the fake exchange (its market
// clock replays real 1m candles, two a second: see e2e/support/fake-data.ts), pauses it (no new
// orders), continues and stops it (confirmation; positions closed, no open orders left on the
// fake exchange), and finds it in the robot history.
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { expect, holding } from './support/exclusive';
import { FAKE_EXCHANGE_PORT } from './support/env';
import { waitForSymbol } from './support/market';
import { codeFromScreen, grantVip, type Envelope, ops, register, signIn } from './support/users';
import { noHorizontalScroll } from './support/layout';

const test = holding('fake-account');

const MINUTE = 60_000;
const FAKE_BINANCE = `http://127.0.0.1:${FAKE_EXCHANGE_PORT}`;

test.use({ actionTimeout: 30_000 });

interface FakeOrder {
  symbol: string;
  status: string;
  clientOrderId?: string;
}
interface FakeState {
  timeMs: number;
  positions: Record<string, { amt: number; entryPrice: number }>;
  orders: FakeOrder[];
}

async function shot(page: Page, info: TestInfo, step: string): Promise<void> {
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/robot-flow-${step}.png`, fullPage: true });
}

// A fresh connection per admin read: a kept-alive socket the fake is closing answers ECONNRESET.
const fresh = { headers: { connection: 'close' } };

async function fakeState(request: APIRequestContext): Promise<FakeState> {
  return (await (await request.get(`${FAKE_BINANCE}/__admin/state`, fresh)).json()) as FakeState;
}

interface JournalEntry {
  method: string;
  path: string;
  params: Record<string, string>;
}
async function journal(request: APIRequestContext): Promise<JournalEntry[]> {
  return (await (await request.get(`${FAKE_BINANCE}/__admin/requests`, fresh)).json()) as JournalEntry[];
}

/** The robot's detail through the API, as the signed-in user. */
interface RobotDetailSeen {
  lastCandleAt: number | null;
  status: string;
}

/** A robot's whole timeline from the operator command (the API leaves the runner's gate changes out). */
function robotEvents(id: number): { kind: string; detail: { mode?: string; at?: number } | null }[] {
  const out = ops('robot-events', String(id), '--json');
  return JSON.parse(out.trim().split('\n').pop() ?? '[]') as ReturnType<typeof robotEvents>;
}

async function robotDetail(page: Page, request: APIRequestContext, id: number): Promise<RobotDetailSeen> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const res = (await (await request.get(`/order/api/robot/detail?id=${id}`, { headers: { Authorization: `Bearer ${token ?? ''}` } })).json()) as Envelope<RobotDetailSeen>;
  expect(res.code, res.msg).toBe('00000');
  return res.data;
}

const visible = (page: Page, testId: string) => page.getByTestId(testId).filter({ visible: true }).first();


/** What a failed try left running: stopped and unbound after it, so a retry meets a quiet fake account. */
let leftover: { token: string; robotId?: number; accountId?: number } | null = null;

test.afterEach(async ({ request }) => {
  if (!leftover) return;
  const { token, robotId, accountId } = leftover;
  leftover = null;
  const headers = { Authorization: `Bearer ${token}` };
  if (robotId) {
    await request.post('/order/api/robot/stop', { headers, data: { id: robotId } });
    await expect
      .poll(async () => ((await (await request.get(`/order/api/robot/detail?id=${robotId}`, { headers })).json()) as Envelope<RobotDetailSeen>).data.status, { timeout: 2 * MINUTE })
      .toBe('stopped');
  }
  if (accountId) await request.delete(`/user/api/apikey/unbind?id=${accountId}`, { headers });
});

test('bind a Binance key, start a grid robot from a backtest, watch it trade, pause, continue, stop', { tag: '@phone' }, async ({ page, request }, info) => {
  // One fake account (key fake-key) serves both projects in turn: each run unbinds it at the end
  // and leaves no order or position on it (afterEach does it for a try that failed half way).
  test.setTimeout(10 * MINUTE);
  const mail = `robotflow.${info.project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  grantVip(mail);
  await signIn(page, request, mail);
  await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
  await page.reload();
  leftover = { token: (await page.evaluate(() => localStorage.getItem('token'))) ?? '' };
  // Every try starts the fake market at the same candle with an empty account, so the phone and
  // the desktop runs (and a retry) meet the same prices: the steps below do not depend on where
  // the replay happened to be.
  await request.post(`${FAKE_BINANCE}/__admin/reset`, fresh);
  await request.post(`${FAKE_BINANCE}/__admin/seed`, {
    data: { account: { enableWithdrawals: false, enableFutures: true, ipRestrict: false, dualSidePosition: false, marginType: 'CROSSED' } },
  });

  // ---- bind the key through bindMarket → apiAdd ----
  await page.goto('/#/pages/apikey/apikey');
  await page.getByTestId('apikey-bind-crypto').click();
  await page.getByTestId('bind-exchange-binance').click();
  await page.getByTestId('bind-next').click();
  await expect(page.getByTestId('apikey-form')).toHaveAttribute('data-exchange', 'binance');
  await page.getByTestId('add-accountName').fill('Fake Binance');
  await page.getByTestId('add-apiKey').fill('fake-key');
  await page.getByTestId('add-secretKey').fill('fake-secret');
  await page.getByTestId('add-leverage').fill('5');
  await page.getByTestId('add-proof').fill(await codeFromScreen(page, mail, 'add-proof-send'));
  const [bound] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/user/api/apikey/bind') && r.request().method() === 'POST'),
    page.getByTestId('add-submit').click(),
  ]);
  const boundBody = (await bound.json()) as Envelope<{ account: { id: number } }>;
  expect(boundBody.code, boundBody.msg).toBe('00000');
  const accountId = boundBody.data.account.id;
  leftover.accountId = accountId;
  await expect(page.getByTestId('apikey-bound')).toBeVisible();
  await shot(page, info, '01-bound');

  // ---- a grid backtest on BTCUSDT (the shortest range allowed, 7 days): a small gap, opening at once, 1m decisions ----
  await waitForSymbol(request, 'binance', 'BTCUSDT');
  await page.goto('/#/');
  await visible(page, 'market-switcher').click();
  await page.getByTestId('market-option-binance').click();
  await page.goto('/#/pages/createOrder/crypto_grid');
  await expect(page.getByTestId('strategy-form')).toBeVisible();
  await page.getByTestId('field-symbol').selectOption('BTCUSDT');
  await page.getByTestId('field-capital').fill('5000');
  await page.getByTestId('field-gridNumber').fill('5');
  await page.getByTestId('field-gap').fill('0.1');
  await page.getByTestId('field-side').selectOption('long');
  await page.getByTestId('field-interval').selectOption('1m');
  const addNow = page.getByTestId('field-addImmediately');
  if (!(await addNow.isChecked())) await addNow.check();
  await page.getByTestId('field-start').fill('2025-11-22');
  await page.getByTestId('field-end').fill('2025-11-30');
  await shot(page, info, '02-backtest-form');
  await page.getByTestId('create-submit').click();
  await expect(page).toHaveURL(/resultDetail\?id=\d+/, { timeout: MINUTE });
  const detail = page.getByTestId('result-detail');
  await expect(detail).toHaveAttribute('data-status', /^[245]$/, { timeout: 3 * MINUTE });
  await expect(page.getByTestId('report')).toBeVisible();
  await shot(page, info, '03-backtest-report');

  // ---- "start robot": the create-order form in robot mode, prefilled ----
  await page.getByTestId('start-robot').click();
  await expect(page).toHaveURL(/createOrder\/crypto_grid.*type=1/);
  await expect(page.getByTestId('create-order')).toHaveAttribute('data-type', '1');
  await expect(page.getByTestId('field-gap')).toHaveValue('0.1');
  await expect(page.getByTestId('field-gridNumber')).toHaveValue('5');
  await page.getByTestId('field-accountId').selectOption(String(accountId));
  await noHorizontalScroll(page);
  await shot(page, info, '04-robot-form');
  // A live robot asks before it trades real money (a paper one starts at once).
  await page.getByTestId('create-submit').click();
  await expect(page.getByTestId('confirm-sheet')).toBeVisible();
  await shot(page, info, '04b-confirm-live');
  const [created] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/order/api/robot/create')),
    page.getByTestId('confirm-ok').click(),
  ]);
  const createdBody = (await created.json()) as Envelope<unknown>;
  expect(createdBody.code, createdBody.msg).toBe('00000');
  await expect(page).toHaveURL(/orderDetail\?id=\d+/);
  const robotId = Number(/id=(\d+)/.exec(page.url())?.[1]);
  leftover.robotId = robotId;

  // ---- robotOrderList: running, on the bound account ----
  await page.goto('/#/pages/robot/robotOrderList/robotOrderList');
  const row = visible(page, 'robot-row');
  await expect(row).toHaveAttribute('data-status', 'running');
  await expect(row).toContainText('Fake Binance');
  await noHorizontalScroll(page);
  await shot(page, info, '05-list-running');

  // ---- it trades: fills on the detail, orders resting on the fake exchange ----
  await row.getByTestId('robot-open').click();
  const robot = page.getByTestId('robot-detail');
  await expect(robot).toHaveAttribute('data-status', 'running');
  await expect(page.getByTestId('fill-row').first()).toBeVisible({ timeout: 2 * MINUTE });
  await expect(page.getByTestId('order-row').first()).toBeVisible();
  // A grid keeps orders resting between fills; the replay may fill them as it moves, so give the
  // robot a minute of its own steps to have one resting when we look (or to have placed a limit
  // order the replay filled at once).
  await expect
    .poll(
      async () =>
        (await fakeState(request)).orders.filter((o) => o.symbol === 'BTCUSDT' && (o.status === 'NEW' || o.status === 'PARTIALLY_FILLED')).length +
        (await journal(request)).filter((r) => r.method === 'POST' && r.path === '/fapi/v1/order' && r.params.type === 'LIMIT').length,
      { timeout: MINUTE },
    )
    .toBeGreaterThan(0);
  await noHorizontalScroll(page);
  await shot(page, info, '06-trading');

  // ---- pause: no new orders while paused ----
  await page.getByTestId('robot-pause').click();
  await expect(robot).toHaveAttribute('data-status', 'paused');
  await expect(page.getByTestId('robot-pause-reason')).toContainText('Done by you');
  // The runner applies the pause at a step after it read the new status (lease heartbeat, 5 s),
  // and says so on the timeline (a `runner` event, mode paused, at that candle): wait for the
  // robot's own gate, not for wall time, then for it to step on past it.
  const pauseGate = () => robotEvents(robotId).find((e) => e.kind === 'runner' && e.detail?.mode === 'paused')?.detail?.at ?? 0;
  await expect.poll(pauseGate, { timeout: 2 * MINUTE }).toBeGreaterThan(0);
  const gate = pauseGate();
  await expect.poll(async () => (await robotDetail(page, request, robotId)).lastCandleAt ?? 0, { timeout: MINUTE }).toBeGreaterThan(gate);
  const sentBefore = (await journal(request)).length;
  // Market time moves on (ten 1m candles) while the robot is paused: take profits may still close
  // (docs/architecture.md "Paused"), but nothing new is opened.
  const t0 = (await fakeState(request)).timeMs;
  await expect.poll(async () => (await fakeState(request)).timeMs - t0, { timeout: MINUTE }).toBeGreaterThan(10 * 60_000);
  const whilePaused = (await journal(request)).slice(sentBefore).filter((r) => r.method === 'POST' && r.path === '/fapi/v1/order');
  expect(whilePaused.filter((r) => r.params.reduceOnly !== 'true')).toEqual([]);
  await shot(page, info, '07-paused');

  // ---- continue ----
  await page.getByTestId('robot-continue').click();
  await expect(robot).toHaveAttribute('data-status', 'running');

  // ---- stop: confirmation, positions closed, nothing left open on the exchange ----
  await page.getByTestId('robot-stop').click();
  await expect(page.getByTestId('confirm-sheet')).toBeVisible();
  await shot(page, info, '08-confirm-stop');
  await page.getByTestId('confirm-ok').click();
  await expect(robot).toHaveAttribute('data-status', 'stopped', { timeout: 2 * MINUTE });
  await expect(page.getByTestId('robot-stop-details')).toBeVisible();
  await expect(page.getByTestId('no-positions')).toBeVisible();
  // The stop is on the timeline; the final income is the robot's income (closing fills included).
  await expect(page.getByTestId('robot-events')).toContainText('Stopped');
  // The timeline speaks words: the robot's source backtest is a link, never raw JSON.
  await expect(page.getByTestId('event-source-backtest')).toHaveText(/From backtest #\d+/);
  await expect(page.getByTestId('robot-events')).not.toContainText('{');
  await expect(page.getByTestId('robot-final-income')).toHaveText((await page.getByTestId('detail-income').textContent()) ?? '');
  await shot(page, info, '09-stopped');
  // Live vs backtest: both equity curves over the robot's candles, the gap in parts, the pairs.
  const drift = page.getByTestId('robot-drift');
  await drift.scrollIntoViewIfNeeded();
  await expect(drift.getByTestId('drift-figures')).toBeVisible({ timeout: MINUTE });
  await expect(drift.getByTestId('drift-chart')).toHaveAttribute('data-live-points', /^([2-9]|\d{2,})$/);
  await expect(drift.getByTestId('drift-chart')).toHaveAttribute('data-shadow-points', /^([2-9]|\d{2,})$/);
  await expect(drift.getByTestId('drift-pair').first()).toBeVisible();
  await expect(drift.getByTestId('drift-part-slippage')).toBeVisible();
  // The owner's alert: a threshold out of range is refused where it was typed, a good one saved.
  await drift.getByTestId('drift-alert-pct').fill('0');
  await drift.getByTestId('drift-alert-save').click();
  await expect(drift.getByTestId('drift-alert-form')).toContainText('0.1');
  await drift.getByTestId('drift-alert-pct').fill('2.5');
  await drift.getByTestId('drift-alert-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Saved' })).toBeVisible();
  await expect(drift.getByTestId('drift-alert-pct')).toHaveValue('2.5');
  await noHorizontalScroll(page);
  await shot(page, info, '09b-drift');
  const after = await fakeState(request);
  expect(after.orders.filter((o) => o.symbol === 'BTCUSDT' && (o.status === 'NEW' || o.status === 'PARTIALLY_FILLED'))).toEqual([]);
  expect(after.positions.BTCUSDT?.amt ?? 0).toBe(0);

  // ---- history ----
  await page.goto('/#/pages/robot/robotHistory/robotHistory');
  await expect(page.getByTestId('robot-history')).toBeVisible();
  await expect(visible(page, 'robot-row')).toHaveAttribute('data-status', 'stopped');
  await visible(page, 'robot-open').click();
  await expect(page).toHaveURL(new RegExp(`orderDetail\\?id=${robotId}`));
  await noHorizontalScroll(page);
  await shot(page, info, '10-history');

  // Unbind the key (free for other specs' users).
  await page.goto('/#/pages/apikey/apiList?market=crypto');
  await page.getByTestId('account-card').first().getByTestId('account-unbind').click();
  await page.getByTestId('unbind-confirm').click();
  await expect(page.getByTestId('api-list-empty')).toBeVisible();
  leftover = null;
});
