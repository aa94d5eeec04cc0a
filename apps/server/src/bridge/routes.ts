// The MT5 bridge endpoint: a WebSocket at /bridge/v1 (@fastify/websocket) that the Expert Advisor
// in the user's terminal dials out to (mt5/LightningBridge.mq5). Auth is the account's bridge
// token as `Authorization: Bearer` on the upgrade (401 in onRequest, failures rate-limited per
// IP); one session per account (a second live one is closed with 4409); the hello binds the token
// to (login, server) (mismatch: 4403). Everything after the handshake is Mt5Link's protocol.
import fastifyWebsocket from '@fastify/websocket';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, BRIDGE_CLOSE, BRIDGE_HELLO_TIMEOUT_MS, BRIDGE_MAX_PAYLOAD, BRIDGE_PATH } from '@lq/contracts';
import type { Database } from '@lq/db';
import { Mt5Venue } from '@lq/venues';
import { bridgeTokenEvents } from '../trading-accounts';
import { registerVenueFactory } from '../runner';
import { BridgeHub } from './hub';

declare module 'fastify' {
  interface FastifyInstance {
    /** MT5 bridge sessions by trading account (see bridge/hub.ts). */
    bridge: BridgeHub;
  }
  interface FastifyRequest {
    bridgeAccountId?: number;
  }
}

export interface BridgeOptions {
  db: Database;
  /** Failed token checks allowed per IP and minute before 429 (default 20). */
  authFailuresPerMinute?: number;
}

const bearer = (req: FastifyRequest): string => {
  const h = req.headers.authorization ?? '';
  return h.startsWith('Bearer ') ? h.slice(7).trim() : '';
};

async function bridge(app: FastifyInstance, o: BridgeOptions): Promise<void> {
  const hub = new BridgeHub({ db: o.db, log: app.log });
  app.decorate('bridge', hub);
  registerVenueFactory('mt5', (ctx) => Promise.resolve(new Mt5Venue({ session: hub.session(ctx.accountId) })));

  const onRevoked = (accountId: number) => hub.revoke(accountId);
  bridgeTokenEvents.on('revoked', onRevoked);

  const failures = new Map<string, { count: number; since: number }>();
  const limit = o.authFailuresPerMinute ?? 20;

  const timer = setInterval(() => {
    hub.sweep().catch((err: unknown) => app.log.error({ err }, 'mt5 bridge sweep failed'));
    const cutoff = Date.now() - 60_000;
    for (const [ip, f] of failures) if (f.since < cutoff) failures.delete(ip);
  }, 1_000);
  timer.unref();
  app.addHook('onClose', (_instance, done) => {
    clearInterval(timer);
    bridgeTokenEvents.off('revoked', onRevoked);
    hub.closeAll();
    done();
  });

  if (!app.hasDecorator('websocketServer')) {
    await app.register(fastifyWebsocket, { options: { maxPayload: BRIDGE_MAX_PAYLOAD } });
  }

  app.get(
    BRIDGE_PATH,
    {
      websocket: true,
      schema: { hide: true },
      onRequest: async (req) => {
        const f = failures.get(req.ip);
        if (f && f.count >= limit && Date.now() - f.since < 60_000) throw new AppError('RATE_LIMITED', { seconds: 60 });
        const account = await hub.accountForToken(bearer(req));
        if (!account) {
          if (!f || Date.now() - f.since >= 60_000) failures.set(req.ip, { count: 1, since: Date.now() });
          else f.count++;
          throw new AppError('UNAUTHENTICATED');
        }
        req.bridgeAccountId = account.id;
      },
    },
    (socket, req) => {
      const accountId = req.bridgeAccountId!;
      if (hub.busy(accountId)) {
        socket.close(BRIDGE_CLOSE.duplicate, 'another session of this account is live');
        return;
      }
      // attached synchronously: frames arriving right after the upgrade are not lost
      const conn = hub.session(accountId).attach({
        send: (text) => socket.send(text),
        close: (code, reason) => socket.close(code, reason),
      });
      const helloTimer = setTimeout(() => {
        const link = hub.session(accountId);
        if (link.connectionId === conn.id && link.status() === 'syncing') {
          socket.close(BRIDGE_CLOSE.helloTimeout, 'no hello');
        }
      }, BRIDGE_HELLO_TIMEOUT_MS);
      helloTimer.unref();
      socket.on('message', (data: Buffer, isBinary: boolean) => {
        if (isBinary) {
          socket.close(BRIDGE_CLOSE.protocol, 'text frames only');
          return;
        }
        void conn.receive(data.toString('utf8'));
      });
      socket.on('close', () => {
        clearTimeout(helloTimer);
        conn.closed();
      });
      socket.on('error', () => conn.closed());
      req.log.info({ accountId }, 'mt5 bridge session opened');
    },
  );
}

/** The /bridge/v1 WebSocket and `app.bridge` (the hub); register once in app.ts. */
export const bridgePlugin = fp(bridge, { name: 'lq-mt5-bridge' });
