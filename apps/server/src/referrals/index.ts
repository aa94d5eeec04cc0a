// Referrals: VIP progress and levels (vip.ts) over the referral tree (user_tree, read by team/
// too); rebate settlement and history (rebates.ts); leaderboards (rankings.ts);
// monthly dividends to VIP5+ (dividends.ts).
import fp from 'fastify-plugin';
import { platformDeps } from '../platform/deps';
import { startReferralJobs } from './jobs';
import { referralRoutes } from './routes';

export const referralsPlugin = fp(
  async (app) => {
    const deps = platformDeps(app);
    referralRoutes(app, deps);
    app.jobs.add('referrals', startReferralJobs(deps.config.PLATFORM_TIMEZONE));
    return Promise.resolve();
  },
  { name: 'referrals' },
);

export { REFERRAL_OPS } from './ops';
export { computeVip, setThresholds, thresholdsOf } from './vip';
export { assertRatesWithinCap, rebateSumsOf, ratesOf, setRates, settleRebates } from './rebates';
export { computeRankings } from './rankings';
export { dividendRateOf, setDividendRate, settleDividends } from './dividends';
