export { buildApp, BODY_LIMIT, type BuildOptions } from './app';
export { loadConfig, configSchema, ConfigError, type Config, type Role } from './config';
export { Sessions, requireAuth, optionalAuth, hashToken, type AuthContext } from './auth';
export { ok } from './http';
export { Mailer } from './mail';
export { startJobs, QUEUES } from './jobs';
export { hashSecret, checkPayPassword } from './services/accounts';
export { perAccountLimit, perIpLimit } from './limits';
