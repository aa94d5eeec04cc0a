// A hosted card checkout: we create a session at the provider, the user pays on the provider's
// page (opened in pages/webview/webview), the provider tells us by a signed webhook. A real
// provider implements CardProvider; the simulated one (simulated.ts) is the embedded default.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '@lq/contracts';

export interface CheckoutSession {
  /** The provider's session id: what its webhooks name. */
  session: string;
  /** Its hosted payment page. */
  url: string;
}

export interface CardProvider {
  readonly name: string;
  createSession(input: { reference: string; amount: string; returnUrl: string }): Promise<CheckoutSession>;
}

/** A webhook's body: one event about one session. */
export interface CardWebhookEvent {
  id: string;
  type: 'checkout.completed' | 'checkout.expired';
  data: { session: string; amount: string; currency: string };
}

export const SIGNATURE_HEADER = 'lq-signature';
/** A delivery signed further than this from our clock is refused (an old one replayed). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (Stripe's scheme). */
export function signWebhook(secret: string, rawBody: string, timestamp: number): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/** Checks a webhook's signature and freshness; throws the 400 the sender gets. */
export function verifyWebhook(secret: string, rawBody: string, header: string | undefined, nowSeconds: number): void {
  const parts = new Map((header ?? '').split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1') ?? '';
  if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(v1)) throw new AppError('WEBHOOK_SIGNATURE_INVALID', {}, SIGNATURE_HEADER);
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  if (!timingSafeEqual(expected, Buffer.from(v1, 'hex'))) throw new AppError('WEBHOOK_SIGNATURE_INVALID', {}, SIGNATURE_HEADER);
  // Checked after the signature, so a forged timestamp cannot probe the window.
  if (Math.abs(nowSeconds - t) > WEBHOOK_TOLERANCE_SECONDS) throw new AppError('WEBHOOK_STALE', {}, SIGNATURE_HEADER);
}

/** The event in a verified body, or a 400 naming what is missing. */
export function parseWebhookEvent(rawBody: string): CardWebhookEvent {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    throw new AppError('MALFORMED_BODY');
  }
  const e = body as Partial<CardWebhookEvent> | null;
  const ok =
    e &&
    typeof e.id === 'string' &&
    e.id.length > 0 &&
    e.id.length <= 200 &&
    (e.type === 'checkout.completed' || e.type === 'checkout.expired') &&
    typeof e.data?.session === 'string' &&
    typeof e.data.amount === 'string' &&
    typeof e.data.currency === 'string';
  if (!ok) throw new AppError('MALFORMED_BODY');
  return e as CardWebhookEvent;
}
