// A stand-in of a browser vendor's push service on 127.0.0.1, with the browser's side too: it makes
// "devices" (a P-256 key pair and an auth secret, as a browser does for pushManager.subscribe) and,
// for each push POSTed to a device's endpoint, checks what a real push service checks — the VAPID
// JWT (ES256 over the endpoint's origin, not expired, signed by the key in `k`), TTL, the
// aes128gcm encoding — then decrypts the payload as the browser would (RFC 8291, http_ece). It can
// answer a device's next pushes with an error (429, 5xx, 404/410 gone). GET /__device makes a device
// and GET /__pushes lists what arrived (the e2e run reads them from another process).
import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createRequire } from 'node:module';

// http_ece (web-push's own encryption library) has no types: the one call used here.
const ece = createRequire(import.meta.url)('http_ece') as { decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string }): Buffer };

export interface PushDevice {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  device: string;
  /** The decrypted payload, parsed. */
  payload: Record<string, unknown>;
  ttl: number;
  urgency: string | undefined;
  /** The JWT's claims, verified. */
  claims: { aud: string; exp: number; sub: string };
}

const b64u = (b: Buffer) => b.toString('base64url');

/** Verifies `vapid t=<jwt>, k=<public key>`; answers the claims or throws why not. */
function verifyVapid(header: string | undefined, origin: string): ReceivedPush['claims'] {
  const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+),\s*k=([\w-]+)$/.exec(header ?? '');
  if (!m) throw new Error('no vapid authorization');
  const [head, body, signature] = m[1].split('.');
  const point = Buffer.from(m[2], 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33)) }, format: 'jwk' });
  const alg = (JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg: string }).alg;
  if (alg !== 'ES256') throw new Error(`alg ${alg}`);
  if (!verify('sha256', Buffer.from(`${head}.${body}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))) throw new Error('bad JWT signature');
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as ReceivedPush['claims'];
  if (claims.aud !== origin) throw new Error(`aud ${claims.aud} is not ${origin}`);
  const now = Date.now() / 1000;
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600 + 60)) throw new Error('exp out of range');
  if (!/^(mailto:|https:)/.test(claims.sub)) throw new Error('sub is not mailto: or https:');
  return claims;
}

export class PushServiceStandIn {
  readonly received: ReceivedPush[] = [];
  readonly refused: { device: string; reason: string }[] = [];
  private readonly devices = new Map<string, { ecdh: ECDH; auth: Buffer }>();
  private readonly failures = new Map<string, number[]>();
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(port = 0): Promise<PushServiceStandIn> {
    const box: { it?: PushServiceStandIn } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const [status, body] = box.it!.handle(req, Buffer.concat(chunks));
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const address = server.address();
    box.it = new PushServiceStandIn(server, typeof address === 'object' && address ? address.port : 0);
    return box.it;
  }

  get origin() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** A browser's subscription: its endpoint here and the keys the payload is encrypted for. */
  device(): PushDevice {
    const id = randomBytes(9).toString('base64url');
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    this.devices.set(id, { ecdh, auth });
    return { id, endpoint: `${this.origin}/push/${id}`, keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) } };
  }

  /** The device's next pushes are answered with these statuses, one each. */
  fail(device: string, ...statuses: number[]) {
    this.failures.set(device, [...(this.failures.get(device) ?? []), ...statuses]);
  }

  to(device: string): ReceivedPush[] {
    return this.received.filter((r) => r.device === device);
  }

  private handle(req: IncomingMessage, body: Buffer): [number, unknown] {
    if (req.method === 'GET' && req.url === '/__device') return [200, this.device()];
    if (req.method === 'GET' && req.url === '/__pushes') return [200, { received: this.received, refused: this.refused }];
    const m = /^\/push\/([\w-]+)$/.exec(req.url ?? '');
    const device = m ? this.devices.get(m[1]) : undefined;
    if (!m || req.method !== 'POST') return [404, { error: 'not found' }];
    // A device that is gone (unsubscribed, browser data cleared): 410.
    if (!device) return [410, { error: 'gone' }];
    const failure = this.failures.get(m[1])?.shift();
    if (failure) return [failure, { error: `status ${failure}` }];
    try {
      const claims = verifyVapid(req.headers.authorization, this.origin);
      if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error(`content-encoding ${req.headers['content-encoding']}`);
      const ttl = Number(req.headers.ttl);
      if (!Number.isInteger(ttl) || ttl < 0) throw new Error('no TTL');
      const plain = ece.decrypt(body, { version: 'aes128gcm', privateKey: device.ecdh, authSecret: b64u(device.auth) });
      this.received.push({ device: m[1], payload: JSON.parse(plain.toString('utf8')) as Record<string, unknown>, ttl, urgency: req.headers.urgency as string | undefined, claims });
      return [201, {}];
    } catch (err) {
      this.refused.push({ device: m[1], reason: (err as Error).message });
      return [400, { error: (err as Error).message }];
    }
  }

  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
