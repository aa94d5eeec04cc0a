// Benefits on a phone (Thai) and a desktop (English): credited by the operator, the user finds
// Benefits under Mine, unlocks the basic rights on the payment step (a wrong payment password said
// under its field, nothing charged), then buys 2 crypto account seats for 3 months with auto-renew
// (both agreements ticked first): too little balance offers the deposit page with the amount
// missing; after another credit the pack is paid, the rights count 3 crypto seats and the purchases
// list both; auto-renew is switched off after a confirmation. No page is wider than the phone.
// Then two MT5 accounts bound: a paper robot on the first takes the unlock's forex seat, the second
// finds no free seat and is offered one; bought on the payment step, its robot starts.
import { expect, type Page, type TestInfo } from '@playwright/test';
import { adjustWallet, grantUnlock, type Envelope, register, setPayPassword, signIn } from './support/users';
import { bindMt5 } from './support/accounts';
import { holding } from './support/exclusive';

// The prices these flows pay are the console test's to change for a moment.
const test = holding('prices');

async function shot(page: Page, info: TestInfo, step: string): Promise<void> {
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/benefits-${step}.png`, fullPage: true });
}
async function fitsTheScreen(page: Page): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scroll).toBeLessThanOrEqual(width);
}

const WORDS = {
  'en-US': { on: 'On', off: 'Off', unlocked: 'Unlocked', short: 'Your balance wallet is 10.00 Lightning short.', need: 'Deposit at least 10.00 USDT', pack: '2 × account seat, Crypto for 3 month(s) (90 days)' },
  'th-TH': { on: 'เปิด', off: 'ปิด', unlocked: 'ปลดล็อกแล้ว', short: 'กระเป๋ายอดคงเหลือขาดอีก 10.00 Lightning', need: 'ฝากอย่างน้อย 10.00 USDT', pack: 'ที่นั่งบัญชี × 2, คริปโต เป็นเวลา 3 เดือน (90 วัน)' },
} as const;

test('unlock and a seat pack through the payment step; too little balance offers a deposit', async ({ page, request }, info) => {
  const locale = info.project.name === 'phone' ? 'th-TH' : 'en-US';
  const words = WORDS[locale];
  const mail = `benefits.${info.project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  await setPayPassword(request, mail, '246810');
  adjustWallet(mail, '150', 'balance', `e2e-bf-${mail}`);
  await signIn(page, request, mail);
  await page.evaluate((l) => localStorage.setItem('locale', l), locale);
  await page.goto('/#/pages/index/mine');
  await page.reload();

  // Mine → Benefits: nothing owned yet, the unlock offered at its price.
  await page.getByTestId('mine-equity').click();
  await expect(page).toHaveURL(/pages\/equity\/index/);
  await expect(page.getByTestId('equity-unlock')).toHaveAttribute('data-unlocked', 'false');
  await expect(page.getByTestId('rights-crypto-seats')).toHaveAttribute('data-owned', '0');
  await expect(page.getByTestId('equity-packs-locked')).toBeVisible();
  await expect(page.getByTestId('equity-unlock-buy')).toContainText('100.00');
  await fitsTheScreen(page);
  await shot(page, info, '01-benefits-locked');

  // The payment step: what is bought, the amount, the balance before and after.
  await page.getByTestId('equity-unlock-buy').click();
  await expect(page).toHaveURL(/pages\/pay\/pay\?item=unlock/);
  await expect(page.getByTestId('pay-amount')).toHaveText('100.00');
  await expect(page.getByTestId('pay-balance')).toHaveText('150.00');
  await expect(page.getByTestId('pay-after')).toHaveText('50.00');
  await page.getByTestId('pay-submit').click();
  await expect(page.getByTestId('pay-pwd-error')).toBeVisible();
  await page.getByTestId('pay-pwd').fill('111111');
  await page.getByTestId('pay-submit').click();
  await expect(page.getByTestId('pay-pwd-error')).not.toHaveText('');
  await expect(page.getByTestId('pay-balance')).toHaveText('150.00');
  await fitsTheScreen(page);
  await shot(page, info, '02-pay-wrong-password');
  await page.getByTestId('pay-pwd').fill('246810');
  await page.getByTestId('pay-submit').click();
  await expect(page).toHaveURL(/pages\/equity\/index/);
  await expect(page.getByTestId('equity-unlocked')).toHaveText(words.unlocked);
  await expect(page.getByTestId('rights-crypto-seats')).toHaveAttribute('data-owned', '1');
  await expect(page.getByTestId('rights-forex-slots')).toHaveAttribute('data-owned', '1');

  // A pack: 2 crypto seats × 3 months = 60, with 50 left: the deposit offered for what is missing.
  await page.getByTestId('equity-buy-pack').click();
  await expect(page).toHaveURL(/pages\/equity\/monthEquityPay/);
  await page.getByTestId('pack-kind-seat').click();
  await page.getByTestId('pack-market-crypto').click();
  await page.getByTestId('pack-quantity').fill('0');
  await page.getByTestId('pack-next').click();
  await expect(page.getByTestId('pack-quantity-error')).toBeVisible();
  await page.getByTestId('pack-quantity').fill('2');
  await page.getByTestId('pack-months').selectOption('3');
  await expect(page.getByTestId('pack-amount')).toHaveText('60.00');
  // The monthly benefit agreement before the first pack; auto-renew asks for the auto-subscribe one.
  await page.getByTestId('pack-next').click();
  await expect(page.getByTestId('pack-agree-error')).toBeVisible();
  await page.getByTestId('pack-agree-month').check();
  await page.getByTestId('pack-auto-renew').check();
  await page.getByTestId('pack-next').click();
  await expect(page.getByTestId('pack-agree-error')).toBeVisible();
  await page.getByTestId('pack-agree-auto').check();
  await fitsTheScreen(page);
  await shot(page, info, '03-pack');
  await page.getByTestId('pack-next').click();
  await expect(page).toHaveURL(/pages\/pay\/pay\?item=seat&market=crypto&quantity=2&months=3&autoRenew=1/);
  await expect(page.getByTestId('pay-auto-renew')).toBeVisible();
  await expect(page.getByTestId('pay-what')).toHaveText(words.pack);
  await expect(page.getByTestId('pay-after')).toHaveText('-10.00');
  await expect(page.getByTestId('pay-short')).toContainText(words.short);
  await expect(page.getByTestId('pay-submit')).toBeDisabled();
  await fitsTheScreen(page);
  await shot(page, info, '04-pay-short');
  await page.getByTestId('pay-deposit').click();
  await expect(page).toHaveURL(/pages\/recharge\/recharge\?need=10/);
  await expect(page.getByTestId('recharge-need')).toContainText(words.need);

  // Credited again: the same payment link now pays.
  adjustWallet(mail, '20', 'balance', `e2e-bf-more-${mail}`);
  await page.goBack();
  await page.reload();
  await expect(page.getByTestId('pay-after')).toHaveText('10.00');
  await page.getByTestId('pay-pwd').fill('246810');
  await page.getByTestId('pay-submit').click();
  await expect(page).toHaveURL(/pages\/equity\/index/);
  await expect(page.getByTestId('rights-crypto-seats')).toHaveAttribute('data-owned', '3');
  await expect(page.getByTestId('rights-crypto-seats')).toHaveAttribute('data-free', '3');
  await expect(page.getByTestId('rights-forex-seats')).toHaveAttribute('data-owned', '1');
  const rows = page.getByTestId('purchase-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute('data-item', 'seat');
  await expect(rows.nth(0)).toHaveAttribute('data-state', 'active');
  await expect(rows.nth(1)).toHaveAttribute('data-item', 'unlock');
  await expect(rows.nth(0).getByTestId('purchase-auto-renew')).toHaveText(words.on);
  // A renewal is one period of 30 days for 2 × 10, not the 3 months bought (issue 53 item 5).
  await expect(rows.nth(0).getByTestId('purchase-next-renewal')).toContainText('20.00');
  await fitsTheScreen(page);
  await shot(page, info, '05-benefits-after');

  // Auto-renew off after a confirmation (the agreements are accepted once: no tick asked again).
  await rows.nth(0).getByTestId('purchase-renew-switch').click();
  await expect(page.getByTestId('renew-sheet')).toBeVisible();
  await expect(page.getByTestId('renew-agree')).toHaveCount(0);
  await page.getByTestId('renew-confirm').click();
  await expect(page.getByTestId('renew-sheet')).toHaveCount(0);
  await expect(rows.nth(0).getByTestId('purchase-auto-renew')).toHaveText(words.off);
  await expect(rows.nth(0).getByTestId('purchase-next-renewal')).toHaveCount(0);
  // On again: it commits future payments, so the payment password, and the price it keeps is said.
  await rows.nth(0).getByTestId('purchase-renew-switch').click();
  await expect(page.getByTestId('renew-explain')).toContainText('20.00');
  await page.getByTestId('renew-confirm').click();
  await expect(page.getByTestId('renew-error')).toBeVisible();
  await page.getByTestId('renew-pwd').fill('246810');
  await page.getByTestId('renew-confirm').click();
  await expect(page.getByTestId('renew-sheet')).toHaveCount(0);
  await expect(rows.nth(0).getByTestId('purchase-auto-renew')).toHaveText(words.on);
  await expect(rows.nth(0).getByTestId('purchase-next-renewal')).toContainText('20.00');

  // The wallet shows both payments as purchases.
  await page.goto('/#/pages/wallet/wallet');
  await expect(page.getByTestId('wallet-page')).toContainText('10.00');
});

/** A paper grid robot on EURUSD on `accountId` through the robot form; the answer's code. */
async function paperRobot(page: Page, accountId: number): Promise<string> {
  await page.goto('/#/pages/createOrder/forex_grid?type=1&strategy=grid&symbol=EURUSD');
  await expect(page.getByTestId('robot-fields')).toBeVisible();
  await page.getByTestId('field-accountId').selectOption(String(accountId));
  await page.getByTestId('mode-paper').click();
  const symbol = page.getByTestId('field-symbol');
  if ((await symbol.evaluate((el) => el.tagName)) === 'INPUT') await symbol.fill('EURUSD');
  const answer = page.waitForResponse((r) => r.url().includes('/order/api/robot/create'));
  await page.getByTestId('create-submit').click();
  return ((await (await answer).json()) as Envelope<unknown>).code;
}

test('a second account finds no free seat, is offered one, and its robot starts once the seat is bought', async ({ page, request }, info) => {
  const locale = info.project.name === 'phone' ? 'th-TH' : 'en-US';
  const mail = `seats.${info.project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  grantUnlock(mail);
  await setPayPassword(request, mail, '246810');
  adjustWallet(mail, '50', 'balance', `e2e-seat-${mail}`);
  await signIn(page, request, mail);
  await page.evaluate((l) => localStorage.setItem('locale', l), locale);
  await page.reload();

  const main = await bindMt5(page, request, 'MT5 main');
  const second = await bindMt5(page, request, 'MT5 second');

  // The unlock's one forex seat goes to the first account's robot.
  expect(await paperRobot(page, main)).toBe('00000');
  await expect(page).toHaveURL(/orderDetail\?id=\d+/);
  await expect(page.getByTestId('robot-detail')).toHaveAttribute('data-status', 'running');

  // The second account: no free seat; the offer opens the pack page on account seats, forex.
  expect(await paperRobot(page, second)).toBe('A0312');
  await expect(page.getByTestId('no-seat-sheet')).toBeVisible();
  await fitsTheScreen(page);
  await shot(page, info, '06-no-free-seat');
  await page.getByTestId('open-seat').click();
  await expect(page).toHaveURL(/pages\/equity\/monthEquityPay\?kind=seat&market=forex/);
  await page.getByTestId('pack-quantity').fill('1');
  await page.getByTestId('pack-months').selectOption('1');
  await expect(page.getByTestId('pack-amount')).toHaveText('10.00');
  await page.getByTestId('pack-agree-month').check();
  await page.getByTestId('pack-next').click();
  await expect(page).toHaveURL(/pages\/pay\/pay\?item=seat&market=forex&quantity=1&months=1/);
  await expect(page.getByTestId('pay-after')).toHaveText('40.00');
  await page.getByTestId('pay-pwd').fill('246810');
  await page.getByTestId('pay-submit').click();
  await expect(page).toHaveURL(/pages\/equity\/index/);
  await expect(page.getByTestId('rights-forex-seats')).toHaveAttribute('data-owned', '2');
  await expect(page.getByTestId('rights-forex-seats')).toHaveAttribute('data-free', '1');

  // Now the second account's robot starts, and both hold a seat.
  expect(await paperRobot(page, second)).toBe('00000');
  await expect(page).toHaveURL(/orderDetail\?id=\d+/);
  await expect(page.getByTestId('robot-detail')).toHaveAttribute('data-status', 'running');
  await page.goto('/#/pages/robot/robotOrderList/robotOrderList');
  await expect(page.getByTestId('robot-row').filter({ visible: true })).toHaveCount(2);
  await expect(page.getByTestId('robot-seats')).toContainText('2 / 2');
  await fitsTheScreen(page);
  await shot(page, info, '07-two-robots');
  // Stopped again: paper robots hold nothing, and the run leaves nothing going.
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const headers = { Authorization: `Bearer ${token ?? ''}` };
  const list = (await (await request.get('/order/api/robot/list?status=active&pageSize=50', { headers })).json()) as Envelope<{ list: { id: number }[] }>;
  for (const r of list.data.list) await request.post('/order/api/robot/stop', { headers, data: { id: r.id } });
});
