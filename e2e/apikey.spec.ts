// Trading accounts on a phone and on a desktop: bind a Binance key on the fake exchange (a key
// that can withdraw is refused, a wrong secret is refused), see it masked with its warning, edit
// its leverage; bind an MT5 account and get its bridge token once; unbind.
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { expect, holding } from './support/exclusive';
import { FAKE_EXCHANGE_PORT } from './support/env';
import { codeFromScreen, type Envelope, register, signIn } from './support/users';
import { noHorizontalScroll } from './support/layout';

const test = holding('fake-account');

const FAKE_BINANCE = `http://127.0.0.1:${FAKE_EXCHANGE_PORT}`;

async function shot(page: Page, info: TestInfo, step: string): Promise<void> {
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/apikey-${step}.png`, fullPage: true });
}

/** Key settings of the fake Binance (apiRestrictions, position mode, margin type). */
async function seedFake(request: APIRequestContext, account: Record<string, unknown>): Promise<void> {
  const res = await request.post(`${FAKE_BINANCE}/__admin/seed`, { data: { account } });
  expect(res.ok()).toBe(true);
}

/** Submits the bind form; the envelope code of the answer. */
async function submitBind(page: Page, checkBody?: (body: string) => void): Promise<string> {
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/user/api/apikey/bind') && r.request().method() === 'POST'),
    page.getByTestId('add-submit').click(),
  ]);
  checkBody?.(res.request().postData() ?? '');
  return ((await res.json()) as Envelope<unknown>).code;
}


test('a user binds a Binance key and an MT5 account, edits and unbinds them', { tag: '@desktop' }, async ({ page, request }, info) => {
  test.setTimeout(120_000);
  const mail = `keys.${info.project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  await signIn(page, request, mail);
  await seedFake(request, { enableWithdrawals: false, enableFutures: true, ipRestrict: false, dualSidePosition: false, marginType: 'CROSSED' });

  // Entry: one card per market.
  await page.goto('/#/pages/apikey/apikey');
  await expect(page.getByTestId('apikey-market-crypto')).toBeVisible();
  await expect(page.getByTestId('apikey-market-forex')).toBeVisible();
  await noHorizontalScroll(page);
  await shot(page, info, '01-overview');

  // Choose market and exchange.
  await page.getByTestId('apikey-bind-crypto').click();
  await expect(page).toHaveURL(/bindMarket/);
  await page.getByTestId('bind-exchange-binance').click();
  await shot(page, info, '02-bind-market');
  await page.getByTestId('bind-next').click();
  await expect(page.getByTestId('apikey-form')).toHaveAttribute('data-exchange', 'binance');

  // The form's own rules first.
  await page.getByTestId('add-submit').click();
  await expect(page.getByTestId('accountName-error')).toBeVisible();
  await expect(page.getByTestId('secretKey-error')).toBeVisible();
  await expect(page.getByTestId('proof-error')).toBeVisible();
  await noHorizontalScroll(page);
  await shot(page, info, '03-form-errors');

  await page.getByTestId('add-accountName').fill('Main');
  await page.getByTestId('add-remark').fill('e2e');
  await page.getByTestId('add-apiKey').fill('fake-key');
  await page.getByTestId('add-leverage').fill('20');
  // Binding is a step-up: without two-step, an API_KEY code by e-mail (good for the tries below: a refused bind does not use it up).
  await page.getByTestId('add-proof').fill(await codeFromScreen(page, mail, 'add-proof-send'));

  // A wrong secret: the exchange refuses the key (the message is shown).
  await page.getByTestId('add-secretKey').fill('not-the-secret');
  expect(await submitBind(page)).toBe('A0330');
  await expect(page.getByTestId('toast').first()).toBeVisible();
  await expect(page.getByTestId('apikey-form')).toBeVisible();

  // A key that can withdraw is refused with the instruction to remove the permission.
  await seedFake(request, { enableWithdrawals: true });
  await page.getByTestId('add-secretKey').fill('fake-secret');
  expect(await submitBind(page)).toBe('A0331');
  await expect(page.getByTestId('toast').first()).toBeVisible();
  await shot(page, info, '04-withdraw-refused');
  await seedFake(request, { enableWithdrawals: false });

  // Bound, with the IP-whitelist warning; the secret never went out in clear.
  expect(await submitBind(page, (body) => expect(body).not.toContain('fake-secret'))).toBe('00000');
  await expect(page.getByTestId('apikey-bound')).toBeVisible();
  await expect(page.getByTestId('bound-warnings')).toBeVisible();
  // The whitelist advice names the addresses to allow (EGRESS_IPS), not "our server's address".
  await expect(page.getByTestId('bound-warnings').locator('[data-warning="noIpRestriction"]')).toContainText('203.0.113.7');
  await shot(page, info, '05-bound');
  await page.getByTestId('bound-to-list').click();
  await expect(page).toHaveURL(/apiList\?market=crypto/);
  const card = page.getByTestId('account-card').first();
  await expect(card.getByTestId('account-key')).toHaveText('****-key');
  await expect(card.getByTestId('account-leverage')).toHaveText('20×');
  await expect(card.getByTestId('account-warnings')).toBeVisible();
  await expect(page.locator('body')).not.toContainText('fake-secret');
  await noHorizontalScroll(page);
  await shot(page, info, '06-list');

  // Edit the leverage.
  await card.getByTestId('account-edit').click();
  await expect(page.getByTestId('edit-sheet')).toBeVisible();
  await page.getByTestId('edit-leverage').fill('30');
  await shot(page, info, '07-edit');
  await page.getByTestId('edit-submit').click();
  await expect(page.getByTestId('edit-sheet')).toBeHidden();
  await expect(card.getByTestId('account-leverage')).toHaveText('30×');

  // MT5: the bridge token, once, with the install steps.
  await page.goto('/#/pages/apikey/bindMarket?market=forex');
  await page.getByTestId('bind-exchange-mt5').click();
  await page.getByTestId('bind-next').click();
  await expect(page.getByTestId('apikey-form')).toHaveAttribute('data-exchange', 'mt5');
  await page.getByTestId('add-accountName').fill('FX demo');
  await page.getByTestId('add-proof').fill(await codeFromScreen(page, mail, 'add-proof-send'));
  await page.getByTestId('add-submit').click();
  await expect(page.getByTestId('bridge-token-panel')).toBeVisible();
  const token = (await page.getByTestId('bridge-token').textContent()) ?? '';
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await noHorizontalScroll(page);
  await shot(page, info, '08-mt5-token');
  await page.getByTestId('bound-to-list').click();
  await expect(page).toHaveURL(/apiList\?market=forex/);
  const fx = page.getByTestId('account-card').first();
  await expect(fx.getByTestId('bridge-status')).toHaveAttribute('data-status', 'never');
  await expect(page.locator('body')).not.toContainText(token);
  await shot(page, info, '09-mt5-list');

  // A new bridge token is a step-up, as binding is: the e-mail code first, then the token once.
  await fx.getByTestId('account-rotate').click();
  await expect(page.getByTestId('rotate-sheet')).toBeVisible();
  await page.getByTestId('rotate-proof').fill(await codeFromScreen(page, mail, 'rotate-proof-send'));
  await page.getByTestId('rotate-submit').click();
  await expect(page.getByTestId('token-sheet')).toBeVisible();
  const rotated = (await page.getByTestId('token-sheet').getByTestId('bridge-token').textContent()) ?? '';
  expect(rotated).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(rotated).not.toBe(token);
  await page.keyboard.press('Escape');

  // Unbind it.
  await fx.getByTestId('account-unbind').click();
  await page.getByTestId('unbind-confirm').click();
  await expect(page.getByTestId('api-list-empty')).toBeVisible();

  // Unbind the Binance account too (the key is free again for the other viewport's user).
  await page.getByTestId('api-list-tab-crypto').click();
  await page.getByTestId('account-card').first().getByTestId('account-unbind').click();
  await page.getByTestId('unbind-confirm').click();
  await expect(page.getByTestId('api-list-empty')).toBeVisible();
  await shot(page, info, '10-unbound');
});
