// The simulated card provider, served by our own server under /sim-pay (the embedded default and
// the tests): an API creating sessions (called over HTTP like a real provider's), a hosted page
// with "pay" and "cancel", and webhook deliveries signed with the shared secret, retried with a
// growing delay until our endpoint answers 2xx. Sessions live in memory: a restart expires them.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { signWebhook, SIGNATURE_HEADER, type CardProvider, type CardWebhookEvent } from './provider';

interface SimSession {
  id: string;
  reference: string;
  amount: string;
  returnUrl: string;
  state: 'open' | 'paid' | 'cancelled';
}

const PREFIX = '/sim-pay';
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface SimulatedProviderOptions {
  /** Where our server is reached: the hosted page's origin and the webhook's target. */
  publicUrl: () => string;
  secret: string;
  log?: { warn(obj: object, msg: string): void };
}

/** The client side: creates sessions through the simulator's HTTP API. */
export function simulatedProvider(o: SimulatedProviderOptions): CardProvider {
  return {
    name: 'simulated',
    async createSession(input) {
      const res = await fetch(`${o.publicUrl()}${PREFIX}/v1/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${o.secret}` },
        body: JSON.stringify(input),
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`simulated provider: HTTP ${res.status}`);
      const body = (await res.json()) as { id: string; url: string };
      return { session: body.id, url: body.url };
    },
  };
}

/** The provider side: its API, its hosted page and its webhook deliveries. */
export function simulatedProviderRoutes(app: FastifyInstance, o: SimulatedProviderOptions): void {
  const sessions = new Map<string, SimSession>();
  const webhookUrl = () => `${o.publicUrl()}/user/api/recharge/card/webhook`;

  async function deliver(event: CardWebhookEvent, attempt = 0): Promise<void> {
    const body = JSON.stringify(event);
    try {
      const res = await fetch(webhookUrl(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signWebhook(o.secret, body, Math.floor(Date.now() / 1000)) },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      if (res.ok || (res.status >= 400 && res.status < 500 && res.status !== 429)) return; // done, or refused for good
      throw new Error(`HTTP ${res.status}`);
    } catch (err) {
      if (attempt >= 6) return o.log?.warn({ err, event: event.id }, 'simulated provider: webhook given up');
      setTimeout(() => void deliver(event, attempt + 1), 500 * 2 ** attempt).unref();
    }
  }

  const page = (title: string, inner: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;background:#f4f6fa;color:#1b1f29;margin:0;padding:24px}main{max-width:420px;margin:0 auto;background:#fff;border-radius:12px;padding:20px;box-shadow:0 1px 4px #0002}
h1{font-size:20px;margin:0 0 12px}p{margin:8px 0}.amount{font-size:28px;font-weight:700}button{width:100%;min-height:48px;margin-top:12px;border:0;border-radius:8px;font-size:16px;font-weight:600}
.pay{background:#635bff;color:#fff}.cancel{background:#e6e8ee;color:#1b1f29}.note{font-size:13px;color:#667}</style></head><body><main>${inner}</main></body></html>`;

  const framable = { 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'self'", 'x-frame-options': 'SAMEORIGIN' };

  app.post(`${PREFIX}/v1/sessions`, { schema: { hide: true } }, async (req, reply) => {
    if (req.headers.authorization !== `Bearer ${o.secret}`) return reply.code(401).send({ error: 'unauthorized' });
    const b = req.body as { reference?: string; amount?: string; returnUrl?: string };
    if (typeof b?.reference !== 'string' || typeof b.amount !== 'string' || typeof b.returnUrl !== 'string') return reply.code(400).send({ error: 'bad session' });
    const id = `cs_sim_${randomBytes(12).toString('hex')}`;
    sessions.set(id, { id, reference: b.reference, amount: b.amount, returnUrl: b.returnUrl, state: 'open' });
    return { id, url: `${o.publicUrl()}${PREFIX}/checkout/${id}` };
  });

  app.get<{ Params: { id: string } }>(`${PREFIX}/checkout/:id`, { schema: { hide: true } }, async (req, reply) => {
    const s = sessions.get(req.params.id);
    void reply.headers(framable).type('text/html; charset=utf-8');
    if (!s) return reply.code(404).send(page('Checkout', '<h1>Checkout not found</h1><p>This payment link has expired.</p>'));
    if (s.state !== 'open') return page('Checkout', `<h1>${s.state === 'paid' ? 'Paid' : 'Cancelled'}</h1><p><a href="${escape(s.returnUrl)}" target="_top">Back to Lightning Quant</a></p>`);
    return page(
      'Checkout',
      `<h1>Simulated card checkout</h1><p class="amount" data-testid="sim-amount">${escape(s.amount)} USDT</p>
<p class="note">Test card 4242 4242 4242 4242 · no money moves.</p>
<form method="post" action="${PREFIX}/checkout/${s.id}/pay"><button class="pay" type="submit" data-testid="sim-pay">Pay ${escape(s.amount)} USDT</button></form>
<form method="post" action="${PREFIX}/checkout/${s.id}/cancel"><button class="cancel" type="submit" data-testid="sim-cancel">Cancel</button></form>`,
    );
  });

  for (const action of ['pay', 'cancel'] as const) {
    app.post<{ Params: { id: string } }>(`${PREFIX}/checkout/:id/${action}`, { schema: { hide: true } }, async (req, reply) => {
      const s = sessions.get(req.params.id);
      void reply.headers(framable).type('text/html; charset=utf-8');
      if (!s || s.state !== 'open') return reply.code(409).send(page('Checkout', '<h1>This checkout is closed</h1>'));
      s.state = action === 'pay' ? 'paid' : 'cancelled';
      void deliver({
        id: `evt_sim_${randomBytes(12).toString('hex')}`,
        type: action === 'pay' ? 'checkout.completed' : 'checkout.expired',
        data: { session: s.id, amount: s.amount, currency: 'USDT' },
      });
      return page(
        'Checkout',
        `<h1 data-testid="sim-done">${action === 'pay' ? 'Payment complete' : 'Payment cancelled'}</h1><p><a href="${escape(s.returnUrl)}" target="_top" data-testid="sim-return">Back to Lightning Quant</a></p>`,
      );
    });
  }
}
