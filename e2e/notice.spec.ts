// Notices on a phone (Thai) and a desktop (English): an operator writes a notice in English and
// Thai and publishes it; the signed-in user sees the unread badge (Mine's notice row on the phone,
// the top bar's bell on the desktop), finds the notice in their language, opens it in place — the
// Markdown rendered, the script link and the raw HTML neutralised, no dialog ever opens — and it
// is read; the badge goes. A Japanese reader gets the English text, said so. The notification
// centre: a withdrawal the operator rejects is there, in the user's language with the reason, and
// opens the withdrawal.
import { expect, type Page, type TestInfo } from '@playwright/test';
import { holding } from './support/exclusive';
import { adjustWallet, apiLogin, login, ops, register, setPayPassword, type Envelope } from './support/users';

const test = holding('notices');

async function shot(page: Page, info: TestInfo, step: string): Promise<void> {
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/notice-${step}.png`, fullPage: true });
}

test('a notice in two languages: the badge, read in place in the user’s language, the badge gone', async ({ page, request }, info) => {
  const phone = info.project.name === 'phone';
  const mail = `notice.${info.project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  await login(page, mail);
  await page.evaluate((l) => localStorage.setItem('locale', l), phone ? 'th-TH' : 'en-US');
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });

  const tag = `${info.project.name}-${Date.now()}`;
  const body = `**Trading** pauses on Sunday.\n\n[status](https://status.example.com) [bad](javascript:alert(1))\n\n<img src=x onerror=alert(2)>`;
  const created = ops('notice:create', '--category', 'notice', '--locale', 'en-US', '--title', `Maintenance ${tag}`, '--body', body);
  const id = /notice #(\d+) created/.exec(created)![1];
  ops('notice:text', id, '--locale', 'th-TH', '--title', `ปิดปรับปรุง ${tag}`, '--body', '**หยุดซื้อขาย**วันอาทิตย์');
  ops('notice:publish', id);

  await page.goto('/#/pages/index/mine');
  await page.reload();
  if (phone) {
    await expect(page.getByTestId('notice-count')).toHaveText('1');
    await page.getByTestId('mine-notice').click();
  } else {
    await expect(page.getByTestId('topbar-notice-count')).toHaveText('1');
    await page.getByTestId('topbar-notice').click();
  }
  await expect(page).toHaveURL(/pages\/notice\/notice/);
  const item = page.getByTestId(`notice-${id}`);
  await expect(item).toHaveAttribute('data-read', 'false');
  await expect(item).toContainText(phone ? `ปิดปรับปรุง ${tag}` : `Maintenance ${tag}`);
  await expect(page.getByTestId('notice-read-all')).toBeVisible();
  await shot(page, info, '01-unread');

  await page.getByTestId(`notice-open-${id}`).click();
  const shown = page.getByTestId(`notice-body-${id}`);
  await expect(shown.locator('strong')).toHaveText(phone ? 'หยุดซื้อขาย' : 'Trading');
  await expect(item).toHaveAttribute('data-read', 'true');
  await expect(page.getByTestId('notice-read-all')).toBeHidden();
  if (!phone) {
    await expect(shown.getByRole('link', { name: 'status' })).toHaveAttribute('target', '_blank');
    await expect(shown.locator('a[href^="javascript"]')).toHaveCount(0);
    await expect(shown.locator('img')).toHaveCount(0);
    await expect(shown).toContainText('<img src=x onerror=alert(2)>');
    await expect(page.getByTestId('topbar-notice-count')).toBeHidden();
  }
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scroll).toBeLessThanOrEqual(width);
  await shot(page, info, '02-read');

  // In Japanese (no text of its own): the English one, said so.
  await page.evaluate(() => localStorage.setItem('locale', 'ja-JP'));
  await page.reload();
  await expect(page.getByTestId(`notice-${id}`)).toContainText(`Maintenance ${tag}`);
  await expect(page.getByTestId(`notice-fallback-${id}`)).toBeVisible();

  if (phone) {
    await page.goto('/#/pages/index/mine');
    await expect(page.getByTestId('mine-notice')).toBeVisible();
    await expect(page.getByTestId('notice-count')).toBeHidden();
  }
  expect(dialogs).toEqual([]);
  ops('notice:unpublish', id);
});

test('the notification centre tells of a rejected withdrawal and opens it', async ({ page, request }, info) => {
  const phone = info.project.name === 'phone';
  const mail = `centre.${info.project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  adjustWallet(mail, '50', 'balance', `e2e-centre-${mail}`);
  await setPayPassword(request, mail, '246810');
  const headers = await apiLogin(request, mail);
  const created = (await (
    await request.post('/user/api/withdraw/create', {
      headers,
      data: { network: 'BEP20', address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', amount: '20', paidPwd: '246810', idempotencyKey: `centre-${Date.now()}` },
    })
  ).json()) as Envelope<{ id: number }>;
  const id = created.data.id;
  ops('withdraw:reject', String(id), '--reason', 'address under review');

  await login(page, mail);
  await page.evaluate((l) => localStorage.setItem('locale', l), phone ? 'zh-TW' : 'en-US');
  await page.goto('/#/pages/index/mine');
  await page.reload();
  if (phone) {
    await expect(page.getByTestId('notice-count')).toHaveText('1');
    await page.getByTestId('mine-notice').click();
    await page.getByTestId('notice-view-notifications').click();
  } else {
    await expect(page.getByTestId('topbar-notice-count')).toHaveText('1');
    await page.getByTestId('topbar-notice').click();
  }
  await expect(page).toHaveURL(/pages\/notice\/notice\?tab=notifications/);
  const item = page.locator('[data-kind="withdraw.rejected"]');
  await expect(item).toHaveAttribute('data-read', 'false');
  await expect(item).toContainText(phone ? '提領 20.00 Lightning 遭拒：address under review' : 'Withdrawal of 20.00 Lightning rejected: address under review');
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scroll).toBeLessThanOrEqual(width);
  await shot(page, info, '03-centre');

  await item.getByRole('button').click();
  await expect(page).toHaveURL(new RegExp(`withdrawDetail\\?id=${id}$`));
  await expect(page.getByTestId('withdraw-detail-page')).toHaveAttribute('data-state', 'rejected');
  await page.goBack();
  await expect(page.locator('[data-kind="withdraw.rejected"]')).toHaveAttribute('data-read', 'true');
  if (!phone) await expect(page.getByTestId('topbar-notice-count')).toBeHidden();
});
