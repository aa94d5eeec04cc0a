// The operator console's business screens on a phone and a desktop: an operator writes a notice in
// English and Japanese, previews the Japanese body as users will see it, publishes it (a Japanese
// reader gets the Japanese title, others the English), asks for a price change that a second
// operator approves on the Approvals screen (the users' catalogue says it only then) and finds both
// in the audit log. Holds the notices and the prices: other flows count unread notices and pay the
// prices.
import { expect } from '@playwright/test';
import { operatorPage } from './support/console';
import { holding } from './support/exclusive';
import { apiLogin, register } from './support/users';

const test = holding('notices', 'prices');

test('an operator publishes a notice in two languages and changes a price, each in the audit log', async ({ browser, request }, info) => {
  const stamp = `${info.project.name}.${Date.now()}`;
  const operator = `editor.${stamp}@lightning-quant.example`;
  const page = await operatorPage(browser, operator);

  // A notice in English and Japanese, previewed, saved and published.
  await page.getByTestId('console-nav-notices').click();
  await page.getByTestId('notice-new').click();
  const editor = page.getByTestId('notice-editor');
  await editor.getByTestId('notice-title').fill(`Maintenance ${stamp}`);
  await editor.getByTestId('notice-body').fill('Trading pauses on **1 December**, 02:00–03:00.');
  await editor.getByTestId('notice-lang-ja-JP').click();
  await editor.getByTestId('notice-title').fill(`メンテナンス ${stamp}`);
  await editor.getByTestId('notice-body').fill('**12月1日** 02:00–03:00 に取引を停止します。<script>alert(1)</script>');
  await editor.getByTestId('notice-preview').click();
  const preview = editor.getByTestId('notice-preview-box');
  await expect(preview).toHaveAttribute('data-locale', 'ja-JP');
  await expect(preview.locator('strong')).toHaveText('12月1日');
  await expect(preview.locator('script')).toHaveCount(0);
  await editor.getByTestId('notice-save').click();
  await expect(editor.getByTestId('notice-editor-state')).toHaveAttribute('data-state', 'draft');
  await expect(editor.getByTestId('notice-lang-en-US')).toHaveAttribute('data-filled', 'true');
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/console-notice-editor.png` });
  await editor.getByTestId('notice-publish').click();
  await expect(editor.getByTestId('notice-editor-state')).toHaveAttribute('data-state', 'published');
  const id = Number(await page.getByTestId('notice-row').filter({ hasText: `Maintenance ${stamp}` }).getAttribute('data-id'));

  const reader = `reader.${stamp}@example.com`;
  await register(request, reader);
  const headers = await apiLogin(request, reader);
  const titleIn = async (lang: string) => {
    const res = await request.get('/user/api/notice/list', { headers: { ...headers, lang } });
    return ((await res.json()) as { data: { list: { id: number; title: string }[] } }).data.list.find((n) => n.id === id)?.title;
  };
  expect(await titleIn('ja_JP')).toBe(`メンテナンス ${stamp}`);
  expect(await titleIn('th_TH')).toBe(`Maintenance ${stamp}`);
  // Taken down again: the other flows count the notices a new user has not read.
  await editor.getByTestId('notice-unpublish').click();
  await expect(editor.getByTestId('notice-editor-state')).toHaveAttribute('data-state', 'unpublished');
  await editor.getByTestId('sheet-close').click();

  // A price: the slot per month from 10 to 11, then back — each asked by this operator and
  // approved by a second one (issue 53 item 2: no money setting under one key).
  const approver = await operatorPage(browser, `approver.${stamp}@lightning-quant.example`);
  const catalogueSlot = async () => ((await (await request.get('/user/api/equity/catalogue', { headers })).json()) as { data: { prices: { slot: string } } }).data.prices.slot;
  await page.getByTestId('console-nav-business').click();
  const prices = page.getByTestId('prices-form');
  await expect(prices.getByTestId('price-slot')).toHaveValue('10');
  const setSlot = async (from: string, price: string, shoot: boolean) => {
    await prices.getByTestId('price-slot').fill(price);
    await prices.getByTestId('action-reason').fill(`e2e price ${price}`);
    await prices.getByTestId('prices-submit').click();
    await expect(page.getByTestId('toast').filter({ hasText: /another operator approves/ })).toBeVisible();
    // Waiting: the form shows the price in force and the change asked for.
    const pending = page.getByTestId('prices-form').getByTestId('settings-pending');
    await expect(pending).toHaveAttribute('data-mine', 'true');
    await expect(pending.getByTestId('setting-change').filter({ hasText: 'Backtest slot per month' }).getByTestId('setting-change-after')).toContainText(price);
    await expect(page.getByTestId('prices-form').getByTestId('price-slot')).toHaveValue(from);
    expect(await catalogueSlot()).toBe(`${from}.000000`);
    const id = await pending.getAttribute('data-id');
    // The second operator finds it in Approvals, with what it sets, and approves it.
    await approver.getByTestId('console-nav-dashboard').click();
    await approver.getByTestId('console-nav-approvals').click();
    const row = approver.locator(`[data-testid="approval-row"][data-id="${id}"]`);
    await expect(row.getByTestId('approval-what')).toHaveText('Settings change: prices');
    await expect(row.getByTestId('setting-change')).toHaveCount(1);
    if (shoot) await approver.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/console-settings-approval.png`, fullPage: true });
    await row.getByTestId('approval-approve').click();
    const confirm = approver.getByTestId('approval-approve-sheet');
    await expect(confirm.getByTestId('setting-change-after')).toContainText(price);
    await confirm.getByTestId('approval-approve-submit').click();
    await expect(row).toHaveCount(0);
    expect(await catalogueSlot()).toBe(`${price}.000000`);
    await page.getByTestId('console-nav-approvals').click();
    await page.getByTestId('console-nav-business').click();
    await expect(page.getByTestId('prices-form').getByTestId('price-slot')).toHaveValue(price);
    await expect(page.getByTestId('prices-form').getByTestId('settings-pending')).toHaveCount(0);
  };
  await setSlot('10', '11', true);
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/console-business.png`, fullPage: true });
  await setSlot('11', '10', false);
  const overflowApprover = await approver.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflowApprover).toBeLessThanOrEqual(0);
  await approver.context().close();

  // Both in the audit log under this operator.
  await page.getByTestId('console-nav-audit').click();
  await page.getByTestId('audit-actor').fill(operator);
  await expect(page.getByTestId('audit-action').filter({ hasText: 'settings.prices' })).toHaveCount(2);
  await expect(page.getByTestId('audit-action').filter({ hasText: 'notices.publish' })).toHaveCount(1);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.context().close();
});
