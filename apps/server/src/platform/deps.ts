// What the app carries for every area: decorated on the Fastify instance by app.ts, read by the
// areas' plugins.
import type { FastifyInstance } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Database, DatabaseHandle } from '@lq/db';
import type { Sessions } from './auth';
import type { Config } from './config';
import type { JobRegistry } from './jobs';
import { derivedKey } from './key-files';
import type { Mailer } from './mail';
import type { RequestGate } from './yield';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    sessions: Sessions;
    mailer: Mailer;
    /** Areas add their queues and workers here while they register (see platform/jobs.ts). */
    jobs: JobRegistry;
    /** pg-boss, when started (see BuildOptions.jobs). */
    boss: PgBoss | undefined;
    /** Requests in flight, which jobs moving many rows give way to (platform/yield.ts). */
    requests: RequestGate;
  }
}

/** The platform services an area's routes and services work with. */
export interface PlatformDeps {
  db: Database;
  config: Config;
  mailer: Mailer;
  sessions: Sessions;
  /** The payment passwords' pepper (users/pay-password.ts), derived from the master key. */
  payPepper: Buffer;
  /** The key of the e-mail codes' HMAC: a copy of the database alone does not give a live code. */
  codePepper: Buffer;
}

/** What the payment passwords' pepper is derived under (a new label would be a new pepper). */
export const PAY_PEPPER_LABEL = 'pay-password/v1';

export const platformDeps = (app: FastifyInstance): PlatformDeps => ({
  db: app.database.db,
  config: app.config,
  mailer: app.mailer,
  sessions: app.sessions,
  payPepper: derivedKey(app.config, PAY_PEPPER_LABEL),
  codePepper: derivedKey(app.config, 'verification-code/v1'),
});
