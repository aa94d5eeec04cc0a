// The operator console's business screens on a phone and a desktop: an operator writes a notice in
// English and Japanese, previews the Japanese body as users will see it, publishes it (a Japanese
// reader gets the Japanese title, others the English), changes a price (the users' catalogue says
// it at once) and finds both in the audit log. Holds the notices and the prices: other flows count
// unread notices and pay the prices.
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

  // A price: the slot per month from 10 to 11, then back.
  await page.getByTestId('console-nav-business').click();
  const prices = page.getByTestId('prices-form');
  await expect(prices.getByTestId('price-slot')).toHaveValue('10');
  const setSlot = async (price: string) => {
    await prices.getByTestId('price-slot').fill(price);
    await prices.getByTestId('action-reason').fill(`e2e price ${price}`);
    await prices.getByTestId('prices-submit').click();
    await expect(page.getByTestId('prices-form').getByTestId('price-slot')).toHaveValue(price);
    await expect(page.getByTestId('prices-form').getByTestId('action-reason')).toHaveValue('');
  };
  await setSlot('11');
  const catalogue = (await (await request.get('/user/api/equity/catalogue', { headers })).json()) as { data: { prices: { slot: string } } };
  expect(catalogue.data.prices.slot).toBe('11.000000');
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/console-business.png`, fullPage: true });
  await setSlot('10');

  // Both in the audit log under this operator.
  await page.getByTestId('console-nav-audit').click();
  await page.getByTestId('audit-actor').fill(operator);
  await expect(page.getByTestId('audit-action').filter({ hasText: 'settings.prices' })).toHaveCount(2);
  await expect(page.getByTestId('audit-action').filter({ hasText: 'notices.publish' })).toHaveCount(1);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.context().close();
});
