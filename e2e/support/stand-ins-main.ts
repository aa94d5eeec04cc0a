// The e2e run's stand-ins of outside services, on fixed ports: the Telegram Bot API
// (apps/server/test/telegram-standin.ts) and a browser push service with the browser's side
// (apps/server/test/push-standin.ts: GET /__device makes a subscription, GET /__pushes lists what
// arrived, decrypted).
import { PushServiceStandIn } from '../../apps/server/test/push-standin';
import { TelegramStandIn } from '../../apps/server/test/telegram-standin';

const telegramPort = Number(process.env.TELEGRAM_PORT);
const pushPort = Number(process.env.PUSH_PORT);
if (!telegramPort || !pushPort) throw new Error('TELEGRAM_PORT and PUSH_PORT are required');
await TelegramStandIn.start(telegramPort);
await PushServiceStandIn.start(pushPort);
console.log(`stand-ins: Telegram Bot API on 127.0.0.1:${telegramPort}, push service on 127.0.0.1:${pushPort}`);
