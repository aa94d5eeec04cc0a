// A stand-in of the Telegram Bot API on 127.0.0.1 (the real client, grammy, is pointed at it with
// TELEGRAM_API_ROOT): POST /bot<token>/<method> with a JSON body, answered as Telegram answers
// ({ ok, result } or { ok: false, error_code, description, parameters }). It records each call,
// and fails the next calls of a method as told (an outage, a rate limit, a blocked bot).
// GET /__calls lists the calls (the e2e run reads what the bot answered).
import { createServer, type Server } from 'node:http';

export interface BotCall {
  token: string;
  method: string;
  body: Record<string, unknown>;
}

interface Failure {
  status: number;
  description: string;
  retryAfter?: number;
}

export class TelegramStandIn {
  readonly calls: BotCall[] = [];
  private readonly failures = new Map<string, Failure[]>();
  private nextMessageId = 1;
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(port = 0): Promise<TelegramStandIn> {
    const box: { standIn?: TelegramStandIn } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
        const answer = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        // What the bot was asked to do, for tests in another process (the e2e run).
        if (req.method === 'GET' && req.url === '/__calls') return answer(200, box.standIn!.calls);
        if (!m) return answer(404, { ok: false, error_code: 404, description: 'Not Found' });
        const text = Buffer.concat(chunks).toString('utf8');
        const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
        answer(...box.standIn!.handle({ token: m[1], method: m[2], body }));
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const address = server.address();
    box.standIn = new TelegramStandIn(server, typeof address === 'object' && address ? address.port : 0);
    return box.standIn;
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The next `times` calls of `method` fail with `status` (429 with retry_after, 403 blocked, 502 …). */
  fail(method: string, times: number, failure: Failure) {
    this.failures.set(method, [...(this.failures.get(method) ?? []), ...Array.from({ length: times }, () => failure)]);
  }

  /** The messages sent to `chatId`, in order. */
  sentTo(chatId: string | number): string[] {
    return this.calls.filter((c) => c.method === 'sendMessage' && String(c.body.chat_id) === String(chatId)).map((c) => String(c.body.text));
  }

  private handle(call: BotCall): [number, unknown] {
    const failure = this.failures.get(call.method)?.shift();
    if (failure) {
      return [failure.status, { ok: false, error_code: failure.status, description: failure.description, ...(failure.retryAfter ? { parameters: { retry_after: failure.retryAfter } } : {}) }];
    }
    this.calls.push(call);
    if (call.method === 'sendMessage') {
      return [200, { ok: true, result: { message_id: this.nextMessageId++, date: Math.floor(Date.now() / 1000), chat: { id: Number(call.body.chat_id), type: 'private' }, text: call.body.text } }];
    }
    return [200, { ok: true, result: true }];
  }

  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
