import type { FastifyRequest } from 'fastify';

/** Route config: at most `max` requests per minute per client IP. */
export const perIpLimit = (max: number) => ({ rateLimit: { max, timeWindow: 60_000 } });

/**
 * Route config: at most `max` requests per minute per logged-in user (whatever the IP). The
 * limiter runs as a preHandler after the route's own (auth) preHandler, so it sees the user.
 * Use it on every money and order endpoint.
 */
export const perUserLimit = (max: number) => ({
  rateLimit: {
    max,
    timeWindow: 60_000,
    hook: 'preHandler' as const,
    keyGenerator: (req: FastifyRequest) => (req.auth ? `user:${req.auth.user.id}` : `ip:${req.ip}`),
  },
});
