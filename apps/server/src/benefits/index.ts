// Benefits: the catalogue (operator-set prices), the basic unlock and packs of seats and backtest
// slots, paid from the balance wallet through the ledger.
import fp from 'fastify-plugin';
import { platformDeps } from '../platform/deps';
import { startBenefitJobs } from './jobs';
import { benefitRoutes } from './routes';

export const benefitsPlugin = fp(
  async (app) => {
    const deps = platformDeps(app);
    benefitRoutes(app, deps);
    app.jobs.add('benefits', startBenefitJobs((mail) => deps.mailer.send(mail)));
    return Promise.resolve();
  },
  { name: 'benefits' },
);

export { BENEFIT_OPS } from './ops';
export { catalogueOf, notUnlocked, pricesOf, setPrice } from './service';
export { notifyFailedRenewals, renewDue } from './renewals';
export { backtestMarketIs, grantEntitlement, grantsOf, isUnlocked, ownedOf, rightsOf, seatHolders, seatsOwned, seatsOwnedSql, SEAT_HOLDING, slotsOwned, slotsUsed, type Market } from './entitlements';
