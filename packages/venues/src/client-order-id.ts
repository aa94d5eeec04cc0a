import { createHash } from 'node:crypto';

/** Prefix of every client order id we send; orphans with it are ours (reconcile). */
export const CLIENT_ORDER_ID_PREFIX = 'lq';
/** OKX's rule, the stricter of both venues. */
export const CLIENT_ORDER_ID_FORMAT = /^[A-Za-z0-9]{1,32}$/;

/**
 * The client order id of one leg of one signal of one robot: `lq` + 30 hex digits of
 * SHA-256(robot, signal, leg). Deterministic, so a restarted runner finds the order it sent before
 * the crash; 120 bits, so two intents never collide in practice.
 */
export function clientOrderId(robotId: string, signal: string, leg: string | number): string {
  const h = createHash('sha256').update(`${robotId}\u0000${signal}\u0000${String(leg)}`).digest('hex');
  return CLIENT_ORDER_ID_PREFIX + h.slice(0, 30);
}

export function isOurClientOrderId(id: string | undefined | null): boolean {
  return typeof id === 'string' && id.startsWith(CLIENT_ORDER_ID_PREFIX) && CLIENT_ORDER_ID_FORMAT.test(id);
}
