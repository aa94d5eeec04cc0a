// Team: the referral tree (user_tree, written at registration by users/) read as the caller's
// team — direct referrals, everyone below, their figures over the statistics window.
import fp from 'fastify-plugin';
import { platformDeps } from '../platform/deps';
import { teamRoutes } from './routes';

export const teamPlugin = fp(
  async (app) => {
    teamRoutes(app, platformDeps(app));
    return Promise.resolve();
  },
  { name: 'team' },
);
export { teamListOf, teamSummaryOf } from './service';
