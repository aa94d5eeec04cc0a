// The deposit page on a phone and on a desktop, in two languages: reached from the wallet, it shows
// the user's BEP20 address, a QR code that decodes to that address, a copy button that puts it on
// the clipboard, the minimum, the confirmations and the one-network warning; USDT sent to that
// address on the local chain shows as confirming, then credited after 15 confirmations, and the
// wallet has it; TRC20 (not configured in the e2e run) says it is not open.
import jsQR from 'jsqr';
import type { Address } from 'viem';
import type { Page, Route, TestInfo } from '@playwright/test';
import { expect, holding } from './support/exclusive';
import { attachTestToken } from '../apps/server/test/local-chain';
import { chain, mine } from './support/chain';
import { ASK_MS, drivePolls, untilShown } from './support/polls';
import { register, signIn } from './support/users';

const test = holding('local-chain');


async function shot(page: Page, info: TestInfo, step: string): Promise<void> {
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/recharge-${step}.png`, fullPage: true });
}

/** Decodes the QR code image on the page. */
async function readQr(page: Page): Promise<string | undefined> {
  const img = await page.getByTestId('recharge-qr').evaluate(async (el: HTMLImageElement) => {
    await el.decode();
    const canvas = document.createElement('canvas');
    canvas.width = 400;
    canvas.height = 400;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, 400, 400);
    ctx.drawImage(el, 0, 0, 400, 400);
    return Array.from(ctx.getImageData(0, 0, 400, 400).data);
  });
  return jsQR(Uint8ClampedArray.from(img), 400, 400)?.data;
}

for (const [locale, texts] of [
  ['en-US', { minimum: 'Minimum 0.1 USDT', confirmations: 'after 15 confirmations', warning: 'Send only USDT on BEP20 (BNB Smart Chain)', copied: 'Address copied', closed: 'USDT deposits on TRC20 are not open yet', confirming: /Confirming \d+\/15/, credited: 'Credited' }],
  ['zh-CN', { minimum: '最低 0.1 USDT', confirmations: '15 个区块确认后', warning: '请仅向此地址发送 BEP20（BNB 智能链）网络的 USDT', copied: '地址已复制', closed: 'TRC20 网络的 USDT 充值尚未开放', confirming: /确认中 \d+\/15/, credited: '已入账' }],
] as const) {
  // Walked once per language: English on the phone, Chinese on the desktop.
  test(`shows the deposit address with its QR code and copies it (${locale})`, { tag: locale === 'en-US' ? '@phone' : '@desktop' }, async ({ page, request, context }, info) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const mail = `recharge.${locale}.${info.project.name}.${Date.now()}@example.com`;
    await register(request, mail);
    await drivePolls(page);
    await signIn(page, request, mail);
    await page.evaluate((l) => localStorage.setItem('locale', l), locale);
    await page.goto('/#/pages/wallet/wallet');
    await page.reload();
    await page.getByTestId('wallet-deposit').click();
    await expect(page).toHaveURL(/pages\/recharge\/recharge/);

    const address = page.getByTestId('recharge-address');
    await expect(address).toHaveText(/^0x[0-9a-fA-F]{40}$/);
    const shown = (await address.textContent()) ?? '';
    await expect(page.getByTestId('recharge-qr')).toBeVisible();
    expect(await readQr(page)).toBe(shown);
    await expect(page.getByTestId('recharge-minimum')).toContainText(texts.minimum);
    await expect(page.getByTestId('recharge-confirmations')).toContainText(texts.confirmations);
    await expect(page.getByTestId('recharge-warning')).toContainText(texts.warning);
    const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
    expect(scroll).toBeLessThanOrEqual(width);
    await shot(page, info, `${locale}-bep20`);

    await page.getByTestId('recharge-copy').click();
    await expect(page.getByText(texts.copied)).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);

    // The same address on a second visit.
    await page.reload();
    await expect(page.getByTestId('recharge-address')).toHaveText(shown);

    // 12.5 USDT sent to it on the local chain: confirming, then credited after 15 confirmations.
    await expect(page.getByTestId('recharge-empty')).toBeVisible();
    const { url, token } = chain();
    await attachTestToken({ url }, token).send(shown as Address, 125n * 10n ** 17n);
    const row = page.getByTestId('recharge-row');
    await untilShown(page, () => expect(row).toHaveCount(1, { timeout: ASK_MS }));
    await expect(row.getByTestId('recharge-amount')).toHaveText('12.50 USDT');
    await expect(row.getByTestId('recharge-state')).toHaveText(texts.confirming);
    await shot(page, info, `${locale}-confirming`);
    await mine(15);
    await untilShown(page, () => expect(row).toHaveAttribute('data-state', 'credited', { timeout: ASK_MS }));
    await expect(row.getByTestId('recharge-state')).toHaveText(texts.credited);
    await shot(page, info, `${locale}-credited`);
    await page.goto('/#/pages/wallet/wallet');
    await expect(page.getByTestId('wallet-balance-amount')).toHaveText('12.50');
    await expect(page.getByTestId('wallet-record').first().getByTestId('record-amount')).toHaveText('+12.50');
    await page.goBack();

    await page.getByTestId('recharge-network-TRC20').click();
    await expect(page.getByTestId('recharge-closed')).toHaveText(texts.closed);
    await shot(page, info, `${locale}-trc20-closed`);
  });
}

for (const [locale, texts] of [
  ['en-US', { range: 'From 10.00 to 5,000.00 USDT per payment', cents: 'A card is charged in cents: at most 2 decimal places', demo: 'no card is charged', frameDemo: 'Demo payment page: no card is charged and the credit is not real money', paid: 'Demo payment: 20.00 credited, not real money' }],
  ['zh-CN', { range: '每笔 10.00 至 5,000.00 USDT', cents: '银行卡按分扣款：最多 2 位小数', demo: '不会扣任何银行卡', frameDemo: '演示支付页面：不会扣任何银行卡，入账不是真钱', paid: '演示支付：已入账 20.00，不是真钱' }],
] as const) {
  // Walked once per language: English on the desktop, Chinese on the phone.
  test(`buys USDT with a card through the simulated provider (${locale})`, { tag: locale === 'en-US' ? '@desktop' : '@phone' }, async ({ page, request }, info) => {
    const mail = `card.${locale}.${info.project.name}.${Date.now()}@example.com`;
    await register(request, mail);
    await signIn(page, request, mail);
    await page.evaluate((l) => localStorage.setItem('locale', l), locale);
    await page.goto('/#/pages/recharge/recharge');
    await page.reload();
    await page.getByTestId('recharge-buy-card').click();
    await expect(page).toHaveURL(/pages\/buyusd\/buyusd/);
    await page.getByTestId('buy-amount').fill('9');
    await page.getByTestId('buy-submit').click();
    await expect(page.getByTestId('buy-amount-error')).toHaveText(texts.range);
    // The simulated provider says what it is before anything is "paid": no card, no real money.
    await expect(page.getByTestId('buy-simulated')).toContainText(texts.demo);
    await page.getByTestId('buy-amount').fill('10.123');
    await page.getByTestId('buy-submit').click();
    await expect(page.getByTestId('buy-amount-error')).toHaveText(texts.cents);
    await page.getByTestId('buy-amount').fill('20');
    await page.getByTestId('buy-submit').click();
    await expect(page).toHaveURL(/pages\/webview\/webview\?checkout=\d+/);
    const frame = page.frameLocator('[data-testid="webview-frame"]');
    await expect(frame.getByTestId('sim-amount')).toHaveText('20.000000 USDT');
    await expect(page.getByTestId('webview-simulated')).toHaveText(texts.frameDemo);
    await shot(page, info, `${locale}-card-checkout`);
    await frame.getByTestId('sim-pay').click();
    await expect(frame.getByTestId('sim-done')).toBeVisible();
    await expect(page.getByTestId('webview-state')).toHaveAttribute('data-state', 'paid');
    await expect(page.getByTestId('webview-state')).toContainText(texts.paid);
    await shot(page, info, `${locale}-card-paid`);
    await page.getByTestId('webview-back').click();
    await expect(page).toHaveURL(/pages\/wallet\/wallet/);
    await expect(page.getByTestId('wallet-balance-amount')).toHaveText('20.00');
  });
}

test('the webview refuses a page of another site', { tag: '@phone' }, async ({ page, request }, info) => {
  const mail = `webview.${info.project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  await signIn(page, request, mail);
  await page.goto(`/#/pages/webview/webview?url=${encodeURIComponent('https://evil.example/phish')}`);
  await expect(page.getByTestId('webview-refused')).toBeVisible();
  await expect(page.getByTestId('webview-frame')).toHaveCount(0);
});

// A network the operator opens while the page is on screen: "not open" is asked again (every 30 s
// while shown), so the address appears without a reload.
test('a deposit network that opens while the page shows "not open" shows its address without a reload', { tag: '@desktop' }, async ({ page, request }, info) => {
  const mail = `recharge.opens.${info.project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  await signIn(page, request, mail);
  await page.clock.install();
  const closed = { code: 'A0360', msg: 'USDT deposits on BEP20 are not open yet', data: null };
  const whileClosed = (route: Route) => route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify(closed) });
  await page.route('**/user/api/recharge/address?network=BEP20*', whileClosed);
  await page.evaluate(() => (location.hash = '/pages/recharge/recharge'));
  await expect(page.getByTestId('recharge-closed')).toBeVisible();
  await page.unroute('**/user/api/recharge/address?network=BEP20*', whileClosed);
  await page.clock.fastForward(31_000);
  await expect(page.getByTestId('recharge-address')).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await expect(page.getByTestId('recharge-closed')).toHaveCount(0);
});
