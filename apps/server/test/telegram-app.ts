// A test app with Telegram configured against the Bot API stand-in on 127.0.0.1, its delivery
// channels (e-mail to the SMTP sink, Telegram through the stand-in), and what Telegram would post
// to the webhook when a user writes in a chat.
import { telegramChannel } from '../src/notifications/telegram';
import type { DeliveryChannels } from '../src/notifications/delivery';
import { startTestApp, type TestApp } from './helpers';
import { TelegramStandIn } from './telegram-standin';

export const TELEGRAM_WEBHOOK_SECRET = 'webhook-secret-0123456789';

export interface TelegramTestApp {
  t: TestApp;
  tg: TelegramStandIn;
  channels: DeliveryChannels;
  /** Posts the update Telegram sends when `text` is written in chat `chatId`. */
  update(chatId: number, text: string, secret?: string): ReturnType<TestApp['call']>;
  close(): Promise<void>;
}

export async function startTelegramTestApp(): Promise<TelegramTestApp> {
  const tg = await TelegramStandIn.start();
  const t = await startTestApp({
    env: { TELEGRAM_BOT_TOKEN: '123456:TEST-token-abcdefghijklmnopqrstuvwxyz', TELEGRAM_BOT_NAME: 'lq_test_bot', TELEGRAM_API_ROOT: tg.url, TELEGRAM_WEBHOOK_SECRET, PUBLIC_URL: 'https://app.example' },
  });
  const channels: DeliveryChannels = { mailer: t.app.mailer, telegram: telegramChannel(t.config, t.database.db), push: undefined, publicUrl: 'https://app.example' };
  let updateId = 1;
  const update = (chatId: number, text: string, secret = TELEGRAM_WEBHOOK_SECRET) =>
    t.call('POST', '/telegram/webhook', {
      headers: { 'x-telegram-bot-api-secret-token': secret },
      body: {
        update_id: updateId++,
        message: {
          message_id: updateId,
          date: Math.floor(Date.now() / 1000),
          chat: { id: chatId, type: 'private', first_name: 'Trader' },
          from: { id: chatId, is_bot: false, first_name: 'Trader', language_code: 'en' },
          text,
          ...(text.startsWith('/') ? { entities: [{ type: 'bot_command', offset: 0, length: text.split(' ')[0].length }] } : {}),
        },
      },
    });
  return {
    t,
    tg,
    channels,
    update,
    async close() {
      await t.close();
      await tg.close();
    },
  };
}
