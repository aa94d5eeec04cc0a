// The Telegram Bot API stand-in of the e2e run (apps/server/test/telegram-standin.ts) on a fixed port.
import { TelegramStandIn } from '../../apps/server/test/telegram-standin';

const port = Number(process.env.TELEGRAM_PORT);
if (!port) throw new Error('TELEGRAM_PORT is required');
await TelegramStandIn.start(port);
console.log(`Telegram Bot API stand-in on 127.0.0.1:${port}`);
