import { readFileSync } from 'node:fs';
import fastifyCors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { jsonSchemaTransform, serializerCompiler } from 'fastify-type-provider-zod';
import { APP_VERSION, AppError, normalizeFullWidth } from '@lq/contracts';
import { openDatabase, type DatabaseHandle } from '@lq/db';
import { backtestsPlugin } from './backtests';
import { benefitsPlugin } from './benefits';
import { bridgePlugin } from './bridge';
import { marketPlugin } from './market';
import { noticesPlugin } from './notices';
import { notificationsPlugin } from './notifications';
import { Sessions } from './platform/auth';
import { runsWorker, type Config } from './platform/config';
import './platform/deps';
import { healthRoutes } from './platform/health';
import { clientErrorHandler, installEnvelope, refuseControlCharacters, zodValidatorCompiler } from './platform/http';
import { consolePlugin } from './console';
import { driftPlugin } from './drift';
import { JobRegistry } from './platform/jobs';
import { RequestGate, trackRequests } from './platform/yield';
import { startMaintenanceJobs } from './platform/maintenance';
import { loggerOptions } from './platform/logger';
import { Mailer } from './platform/mail';
import { openLimitsRedis, sharedLimitStore } from './platform/shared-limits';
import { serveWeb } from './platform/web';
import { robotsPlugin } from './robots';
import { walletPlugin } from './wallet';
import { depositsPlugin } from './deposits';
import { withdrawalsPlugin } from './withdrawals';
import { referralsPlugin } from './referrals';
import { teamPlugin } from './team';
import { tradingAccountsPlugin } from './trading-accounts';
import { usersPlugin } from './users';

export interface BuildOptions {
  /** An open database; when omitted, one is opened from the config (and closed with the app). */
  database?: DatabaseHandle;
  /** Start pg-boss (default: yes). Consumers and schedules run when the ROLE includes worker. */
  jobs?: boolean;
  /** Fastify logger option; default pino at LOG_LEVEL with secrets redacted. */
  logger?: FastifyServerOptions['logger'];
}

export const BODY_LIMIT = 64 * 1024;

/** One log line per request, when it completes, instead of Fastify's two. */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}
  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const line = {
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ip: request.ip,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}

/**
 * HTTPS when a certificate is configured: HTTP/2, so a phone fetches the first screen's files over
 * one connection at once instead of six HTTP/1.1 connections taking turns (Lighthouse's largest
 * paint 2.6 → 1.8 s, docs/web.md), and HTTP/1.1 on the same port for older clients and WebSocket
 * upgrades (the MT5 bridge). Fastify's HTTP/2 server takes the same routes and plugins.
 */
function tlsOptions(config: Config): Partial<FastifyServerOptions> {
  if (!config.TLS_CERT_FILE || !config.TLS_KEY_FILE) return {};
  return { http2: true, https: { allowHTTP1: true, cert: readFileSync(config.TLS_CERT_FILE), key: readFileSync(config.TLS_KEY_FILE) } } as Partial<FastifyServerOptions>;
}

/** The HTTP application. Tests call `inject()` on it; main.ts listens. */
export async function buildApp(
  config: Config,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    ...tlsOptions(config),
    logger: options.logger ?? loggerOptions(config.LOG_LEVEL),
    bodyLimit: BODY_LIMIT,
    trustProxy: config.TRUST_PROXY,
    onProtoPoisoning: 'error',
    onConstraintsPoisoning: 'error',
    return503OnClosing: true,
    logController: new OneLinePerRequest(),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    clientErrorHandler,
  } as FastifyServerOptions);
  // JSON only: a text/plain body is 415 (docs/api.md), not a string for the schema to refuse.
  app.removeContentTypeParser('text/plain');

  // Before the database: a REDIS_URL that can't be reached stops start-up with nothing to undo.
  const limitsRedis = config.REDIS_URL ? await openLimitsRedis(config.REDIS_URL, app.log) : undefined;
  if (limitsRedis) app.addHook('onClose', async () => void (await limitsRedis.quit().catch(() => limitsRedis.disconnect())));
  const ownsDatabase = !options.database;
  const database =
    options.database ??
    (await openDatabase({
      dataDir: config.dataDir,
      databaseUrl: config.DATABASE_URL,
      pgliteMode: 'owner',
    }));
  const sessions = new Sessions(database, config.TOKEN_TTL_HOURS, config.AUTH_CACHE_MS);
  const mailer = new Mailer(database.db, app.log, config.MAIL_FROM, config.SMTP_URL);
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('sessions', sessions);
  app.decorate('mailer', mailer);
  app.decorate('jobs', new JobRegistry());
  app.decorate('boss', undefined);
  app.decorate('requests', new RequestGate());
  trackRequests(app, app.requests);
  app.decorateRequest('auth', null);

  app.addHook('onClose', async () => {
    await app.boss?.stop({ graceful: true, wait: true, timeout: 5_000 });
    mailer.close();
    if (ownsDatabase) await database.close();
  });

  try {
    app.setValidatorCompiler(zodValidatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    installEnvelope(app);
    // API answers are per user and per moment: never stored by browsers or proxies.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.url.includes('/api/')) void reply.header('cache-control', 'no-store');
      done(null, payload);
    });

    // Spec §7: full-width characters in values become half-width before validation; control
    // characters are refused first (422 naming the field).
    app.addHook('preValidation', (request, _reply, done) => {
      try {
        refuseControlCharacters(request);
      } catch (err) {
        done(err as Error);
        return;
      }
      if (request.body !== undefined) request.body = normalizeFullWidth(request.body);
      if (request.query && typeof request.query === 'object')
        request.query = normalizeFullWidth(request.query);
      done();
    });

    await app.register(fastifyHelmet, {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
    });
    await app.register(fastifyCors, {
      origin: config.CORS_ORIGINS.length > 0 ? config.CORS_ORIGINS : false,
      methods: ['GET', 'POST', 'PUT', 'DELETE'],
      allowedHeaders: ['content-type', 'authorization', 'lang'],
      maxAge: 600,
    });
    // Limits are per route (login, codes, money and orders); see routes. Shared through Redis when
    // REDIS_URL is set (platform/shared-limits.ts), else in this process.
    await app.register(fastifyRateLimit, {
      global: false,
      ...(limitsRedis ? { store: sharedLimitStore(limitsRedis, config.REDIS_KEY_PREFIX) } : {}),
      errorResponseBuilder: (_req, ctx) =>
        new AppError('RATE_LIMITED', { seconds: Math.ceil(ctx.ttl / 1000) }),
    });

    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Lightning Quant API',
          version: APP_VERSION,
          description:
            'Every response is `{code, msg, data}`; `code` is "00000" on success, else an A/B/C error code (see docs/api.md). `msg` follows the `lang` header (zh_TW style, default zh_TW).',
        },
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(fastifySwaggerUi, {
      routePrefix: '/docs',
      staticCSP: true,
      // Plain-http deployments (LAN, localhost) must not have the docs' assets upgraded to https.
      transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
    });

    healthRoutes(app, database);
    app.jobs.add('platform', startMaintenanceJobs);
    // The areas, each one plugin (routes, and its jobs added to app.jobs); see docs/architecture.md.
    await app.register(usersPlugin);
    await app.register(marketPlugin);
    await app.register(backtestsPlugin);
    await app.register(tradingAccountsPlugin);
    await app.register(robotsPlugin);
    await app.register(walletPlugin);
    await app.register(depositsPlugin);
    await app.register(withdrawalsPlugin);
    await app.register(benefitsPlugin);
    await app.register(teamPlugin);
    await app.register(referralsPlugin);
    await app.register(noticesPlugin);
    await app.register(notificationsPlugin);
    await app.register(bridgePlugin, { db: database.db });
    await app.register(consolePlugin);
    await app.register(driftPlugin);
    await serveWeb(app, config.webDist);

    if (options.jobs ?? true) app.boss = await app.jobs.start(database, app.log, runsWorker(config.ROLE), app.requests);
    await app.ready();
  } catch (err) {
    await app.close().catch(() => undefined);
    throw err;
  }
  return app;
}
