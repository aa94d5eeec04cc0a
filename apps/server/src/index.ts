export { buildApp, BODY_LIMIT, type BuildOptions } from './app';
export { loadConfig, configSchema, ConfigError, type Config, type Role } from './platform/config';
export { Sessions, requireAuth, optionalAuth, hashToken, type AuthContext } from './platform/auth';
export { ok } from './platform/http';
export { Mailer } from './platform/mail';
export { JobRegistry, type JobContext, type JobSetup } from './platform/jobs';
export { hashSecret, checkPayPassword, USER_QUEUES } from './users';
export { perUserLimit, perIpLimit } from './platform/limits';
