// Users: people who log in — register, login, verification codes, profile, payment password.
import fp from 'fastify-plugin';
import { platformDeps } from '../platform/deps';
import { startUserJobs } from './jobs';
import { userRoutes } from './routes';

export const usersPlugin = fp(
  async (app) => {
    userRoutes(app, platformDeps(app));
    app.jobs.add('users', startUserJobs);
    return Promise.resolve();
  },
  { name: 'users' },
);

export { USER_OPS } from './ops';
export { USER_QUEUES } from './jobs';
export { checkPayPassword, hashSecret, setUserFrozen, setUserLevel, stepUp } from './service';
export type { StepUpProof } from './two-factor';
export { untilText } from './two-factor';
export { raiseSecurityNotice } from './security-notices';
export { hashPayPassword, verifyPayPassword } from './pay-password';
