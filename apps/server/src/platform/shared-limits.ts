// Rate limits shared by every API process (issue 52 item 8): with REDIS_URL set, the per-route
// budgets of @fastify/rate-limit live in Redis (its own Redis store), so N processes give one
// budget, not N. Without it the embedded default keeps them in this process's memory. The
// lock-outs (failed sign-ins, codes, two-step, payment password) are counted in the database and
// are shared either way.
//
// Redis unreachable: a limited route answers 503 B0003 instead of running unlimited (fail closed:
// login and money routes are what the limits protect); the client reconnects by itself.
import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { AppError } from '@lq/contracts';

interface StoreResult {
  current: number;
  ttl: number;
}
type StoreCallback = (err: Error | null, res?: StoreResult) => void;
interface RateLimitStore {
  incr(key: string, cb: StoreCallback, timeWindow: number, max: number): void;
  read?(key: string, cb: StoreCallback, timeWindow: number, max: number): void;
  child(routeOptions: unknown): RateLimitStore;
}
type RedisStoreClass = new (continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, key: string) => RateLimitStore;

// The plugin's own Redis store (its Lua script: one INCR + PEXPIRE per request), not exported by
// its package's types.
const RedisStore = createRequire(import.meta.url)('@fastify/rate-limit/store/RedisStore.js') as RedisStoreClass;

/** A URL as it may be logged: without its user, password and query. */
export const redactedUrl = (url: string) => {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  u.search = ''; // ioredis takes ?password= too
  return u.toString();
};

/** Connects at start-up (a Redis that can't be reached stops start-up, naming REDIS_URL). */
export async function openLimitsRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 3_000,
    // While disconnected a command fails at once (503) instead of waiting in a queue.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  let reported = false;
  redis.on('error', (err: Error) => {
    if (reported) return;
    reported = true;
    log.error({ err: { message: err.message }, redis: redactedUrl(url) }, 'redis for rate limits unreachable');
  });
  redis.on('ready', () => {
    if (reported) log.info({ redis: redactedUrl(url) }, 'redis for rate limits back');
    reported = false;
  });
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    throw new Error(`REDIS_URL: cannot reach ${redactedUrl(url)} (${(err as Error).message})`);
  }
  return redis;
}

const unavailable = (cb: StoreCallback): StoreCallback => (err, res) => (err ? cb(new AppError('LIMITS_UNAVAILABLE')) : cb(null, res));

/** A store whose Redis failure is the 503 of the catalog, not a 500. */
class FailingClosed implements FastifyRateLimitStore {
  constructor(private readonly inner: RateLimitStore) {}
  incr(key: string, cb: StoreCallback, timeWindow: number, max: number) {
    this.inner.incr(key, unavailable(cb), timeWindow, max);
  }
  read(key: string, cb: StoreCallback, timeWindow: number, max: number) {
    this.inner.read!(key, unavailable(cb), timeWindow, max);
  }
  child(routeOptions: unknown): FastifyRateLimitStore {
    return new FailingClosed(this.inner.child(routeOptions));
  }
}

/** `store` option of @fastify/rate-limit: the Redis store under `prefix`, failing closed. */
export function sharedLimitStore(redis: Redis, prefix: string): FastifyRateLimitStoreCtor {
  return class SharedLimitStore extends FailingClosed {
    constructor(options: FastifyRateLimitOptions) {
      const params = options as FastifyRateLimitOptions & { continueExceeding?: boolean; exponentialBackoff?: boolean };
      super(new RedisStore(params.continueExceeding ?? false, params.exponentialBackoff ?? false, redis, `${prefix}rate:`));
    }
  };
}
