// Notices on a phone (Thai) and a desktop (English): an operator writes a notice in English and
// Thai and publishes it; the signed-in user sees the unread badge (Mine's notice row on the phone,
// the top bar's bell on the desktop), finds the notice in their language, opens it in place — the
// Markdown rendered, the script link and the raw HTML neutralised, no dialog ever opens — and it
// is read; the badge goes. A Japanese reader gets the English text, said so. The notification
// centre: a withdrawal the operator rejects is there, in the user's language with the reason, and
// opens the withdrawal. Telegram: linked from the personal page by its one-time deep link (the
// update Telegram would post is posted to the webhook here; the bot talks to a stand-in of the Bot
// API on 127.0.0.1), a kind switched on and kept, the rejected withdrawal delivered to the chat by
// the delivery job, then unlinked.
import { expect, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { TELEGRAM_PORT, TELEGRAM_WEBHOOK_SECRET } from './support/env';
import { holding } from './support/exclusive';
import { adjustWallet, ops, register, rejectedWithdrawal, setPayPassword, signIn } from './support/users';

const test = holding('notices');

async function shot(page: Page, info: TestInfo, step: string): Promise<void> {
  await page.screenshot({ path: `e2e/artifacts/screens/${info.project.name}/notice-${step}.png`, fullPage: true });
}

test('a notice in two languages: the badge, read in place in the user’s language, the badge gone', async ({ page, request }, info) => {
  const phone = info.project.name === 'phone';
  const mail = `notice.${info.project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  await signIn(page, request, mail);
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
  const id = await rejectedWithdrawal(request, mail, '246810', 'address under review');

  await signIn(page, request, mail);
  await page.evaluate((l) => localStorage.setItem('locale', l), phone ? 'zh-TW' : 'en-US');
  await page.goto('/#/pages/index/mine');
  await page.reload();
  // The rejection, and the security notices before it: the address added, the withdrawal asked for.
  if (phone) {
    await expect(page.getByTestId('notice-count')).toHaveText('3');
    await page.getByTestId('mine-notice').click();
    await page.getByTestId('notice-view-notifications').click();
  } else {
    await expect(page.getByTestId('topbar-notice-count')).toHaveText('3');
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
  // The rejection is read; the two security notices before it are still to be read.
  if (!phone) await expect(page.getByTestId('topbar-notice-count')).toHaveText('2');
});

interface BotCall {
  method: string;
  body: { chat_id?: number | string; text?: string };
}
const botCalls = async (request: APIRequestContext) => (await (await request.get(`http://127.0.0.1:${TELEGRAM_PORT}/__calls`)).json()) as BotCall[];

test('Telegram: linked from the personal page, a kind switched on, a withdrawal rejected delivered to the chat, unlinked', async ({ page, request }, info) => {
  const phone = info.project.name === 'phone';
  const chatId = phone ? 880001 : 880002;
  const mail = `telegram.${info.project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  adjustWallet(mail, '50', 'balance', `e2e-telegram-${mail}`);
  await setPayPassword(request, mail, '246810');
  await signIn(page, request, mail);
  await page.evaluate((l) => localStorage.setItem('locale', l), phone ? 'ja-JP' : 'en-US');
  await page.goto('/#/pages/personal/personal');
  await page.reload();
  const settings = page.getByTestId('notification-settings');
  await expect(page.getByTestId('telegram-state')).toHaveText(phone ? '未連携：チャットを連携するとそこで通知を受け取れます' : 'Not linked: link a chat to receive notifications there');
  // The always-mailed kinds keep their e-mail switch; Telegram waits for a chat.
  await expect(settings.locator('[data-kind="account.frozen"] input').first()).toBeChecked();
  await expect(settings.locator('[data-kind="account.frozen"] input').first()).toBeDisabled();
  await expect(settings.locator('[data-kind="robot.error"] input').nth(1)).toBeDisabled();

  // "Link Telegram" opens t.me in a new window (unreachable here: closed) and shows the link.
  const popup = page.waitForEvent('popup');
  await page.getByTestId('telegram-start').click();
  await (await popup).close();
  const href = await page.getByTestId('telegram-open').getAttribute('href');
  expect(href).toMatch(/^https:\/\/t\.me\/lq_e2e_bot\?start=[\w-]{32}$/);
  const token = new URL(href!).searchParams.get('start');
  // What Telegram posts when the user presses Start in the chat.
  const posted = await request.post('/telegram/webhook', {
    headers: { 'x-telegram-bot-api-secret-token': TELEGRAM_WEBHOOK_SECRET },
    data: {
      update_id: Date.now(),
      message: { message_id: 1, date: Math.floor(Date.now() / 1000), chat: { id: chatId, type: 'private', first_name: 'T' }, from: { id: chatId, is_bot: false, first_name: 'T' }, text: `/start ${token}`, entities: [{ type: 'bot_command', offset: 0, length: 6 }] },
    },
  });
  expect(posted.status()).toBe(200);
  // The page polls until the bot has linked the chat.
  await expect(page.getByTestId('telegram-state')).toContainText(phone ? 'から連携中' : 'Linked since');
  expect((await botCalls(request)).some((c) => c.method === 'sendMessage' && c.body.chat_id === chatId && String(c.body.text).includes(mail))).toBe(true);

  // Robot fills are off until switched on; the choice is kept.
  const filledTelegram = settings.locator('[data-kind="robot.filled"] input').nth(1);
  await expect(filledTelegram).not.toBeChecked();
  await filledTelegram.check();
  await expect(filledTelegram).toBeEnabled();
  await page.reload();
  await expect(settings.locator('[data-kind="robot.filled"] input').nth(1)).toBeChecked();
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scroll).toBeLessThanOrEqual(width);
  await shot(page, info, '04-telegram-linked');

  // An event after linking reaches the chat through the delivery job, in the user's language.
  const withdrawId = await rejectedWithdrawal(request, mail, '246810', 'address under review');
  await expect
    .poll(async () => (await botCalls(request)).filter((c) => c.method === 'sendMessage' && String(c.body.chat_id) === String(chatId)).map((c) => String(c.body.text)).find((t) => t.includes('address under review')) ?? '', { timeout: 20_000 })
    .toContain(`withdrawDetail?id=${withdrawId}`);

  await page.getByTestId('telegram-unlink').click();
  await expect(page.getByTestId('telegram-start')).toBeVisible();
  await expect(settings.locator('[data-kind="robot.filled"] input').nth(1)).toBeDisabled();
});
