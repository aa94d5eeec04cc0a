// The Web Push channel: `web-push` signs each request with our VAPID key (a JWT for the endpoint's
// origin) and encrypts the payload for the browser's keys (aes128gcm); we send what it prepared
// with fetch (a timeout, and plain http to a stand-in on 127.0.0.1 in tests). Subscriptions are stored
// per device; an endpoint the push service says is gone (404, 410) is removed. Endpoints are only
// accepted on the browsers' push services (PUSH_SERVICE_HOSTS): the server posts to them.
import webpush from 'web-push';
import { AppError, type PushSubscribeBody } from '@lq/contracts';
import { rowsOf, sql, type Database } from '@lq/db';
import type { Config } from '../platform/config';
import type { SendFailure } from './telegram';

type Runner = Pick<Database, 'execute'>;

export interface PushMessage {
  title: string;
  body: string;
  /** The app route the notification opens. */
  link: string | null;
  /** One notification per event on a device: a retried push replaces, never repeats. */
  tag: string;
}

export interface StoredSubscription {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushChannel {
  readonly publicKey: string;
  send(subscription: StoredSubscription, message: PushMessage): Promise<void>;
}

export function pushChannel(config: Config): PushChannel | undefined {
  const publicKey = config.VAPID_PUBLIC_KEY;
  const privateKey = config.VAPID_PRIVATE_KEY;
  if (!publicKey || !privateKey) return undefined;
  const vapidDetails = { subject: config.VAPID_SUBJECT, publicKey, privateKey };
  return {
    publicKey,
    async send(subscription, message) {
      const request = webpush.generateRequestDetails({ endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } }, JSON.stringify(message), {
        vapidDetails,
        TTL: 24 * 3600,
        urgency: 'high',
        contentEncoding: 'aes128gcm',
      });
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name.toLowerCase() !== 'content-length').map(([name, value]) => [name, String(value)]));
      const res = await fetch(request.endpoint, { method: request.method, headers, body: request.body ? new Uint8Array(request.body) : undefined, signal: AbortSignal.timeout(10_000), redirect: 'error' });
      if (!res.ok) throw new PushRefused(res.status, (await res.text().catch(() => '')).slice(0, 200), res.headers.get('retry-after'));
    },
  };
}

/** The push service answered with an error status. */
export class PushRefused extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: string,
    readonly retryAfter: string | null,
  ) {
    super(`push service answered ${statusCode}`);
    this.name = 'PushRefused';
  }
}

/** 404/410: the subscription is gone (remove it); 429 and 5xx and the network: retry; other 4xx: give up. */
export function classifyPushError(err: unknown): SendFailure & { gone?: boolean } {
  if (err instanceof PushRefused) {
    const error = `${err.statusCode}: ${err.body}`.slice(0, 300);
    if (err.statusCode === 404 || err.statusCode === 410) return { retry: false, unlink: true, gone: true, error };
    if (err.statusCode === 429 || err.statusCode >= 500) {
      const after = Number(err.retryAfter);
      return { retry: true, afterSeconds: Number.isFinite(after) && after > 0 ? after : undefined, error };
    }
    return { retry: false, unlink: false, error };
  }
  return { retry: true, error: `network: ${String((err as Error)?.message ?? err)}`.slice(0, 300) };
}

/** Whether the server may post to `endpoint`: https on a listed push service host (`*.` any subdomain); plain http only on 127.0.0.1 / localhost when listed (test stands). */
export function endpointAllowed(endpoint: string, hosts: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  const local = url.hostname === '127.0.0.1' || url.hostname === 'localhost';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) return false;
  if (url.username || url.password) return false;
  return hosts.some((h) => (h.startsWith('*.') ? url.hostname.endsWith(h.slice(1)) : url.hostname === h));
}

/** Stores (or moves to this user) the device's subscription. */
export async function subscribePush(db: Runner, userId: number, body: PushSubscribeBody, hosts: readonly string[], userAgent: string | undefined): Promise<void> {
  if (!endpointAllowed(body.endpoint, hosts)) throw new AppError('PUSH_ENDPOINT_REFUSED', {}, 'endpoint');
  await db.execute(sql`insert into push_subscriptions (user_id, endpoint, p256dh, auth, user_agent) values (${userId}, ${body.endpoint}, ${body.keys.p256dh}, ${body.keys.auth}, ${userAgent?.slice(0, 300) ?? null})
    on conflict (endpoint) do update set user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth, user_agent = excluded.user_agent`);
}

export async function unsubscribePush(db: Runner, userId: number, endpoint: string): Promise<void> {
  await db.execute(sql`delete from push_subscriptions where user_id = ${userId} and endpoint = ${endpoint}`);
}

export async function pushDevicesOf(db: Runner, userId: number): Promise<number> {
  const [{ n }] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from push_subscriptions where user_id = ${userId}`));
  return n;
}

export async function subscriptionsOf(db: Runner, userId: number): Promise<StoredSubscription[]> {
  return rowsOf<StoredSubscription>(await db.execute(sql`select id::text as id, endpoint, p256dh, auth from push_subscriptions where user_id = ${userId} order by id`));
}

export async function dropSubscription(db: Runner, id: string): Promise<void> {
  await db.execute(sql`delete from push_subscriptions where id = ${id}`);
}

export async function markPushed(db: Runner, id: string): Promise<void> {
  await db.execute(sql`update push_subscriptions set last_sent_at = now() where id = ${id}`);
}
