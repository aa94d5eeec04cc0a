// The console's business settings (issue 32, slice 4): the benefits' prices, the VIP tiers'
// thresholds, rebate and dividend rates, and the backtest maintenance switch — each saved with the
// reason, its values before and after in the audit log. The areas own the values; this only reads
// and writes them through their services.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BENEFIT_ITEMS,
  consoleBusinessSettings,
  consoleMaintenanceBody,
  consolePricesBody,
  consoleRebatesBody,
  consoleVipBody,
  envelopeOf,
  formatMoney,
  parseMoney,
  type ConsoleBusinessSettings,
} from '@lq/contracts';
import type { Database } from '@lq/db';
import type { PlatformDeps } from '../platform/deps';
import { bearerAuth, errorResponses, ok } from '../platform/http';
import { backtestMaintenanceOn, setBacktestMaintenance } from '../backtests';
import { pricesOf, setPrice } from '../benefits';
import { dividendRateOf, ratesOf, setDividendRate, setRates, setThresholds, thresholdsOf } from '../referrals';
import type { ConsoleAudit } from './routes';

const tags = ['console'];

export async function businessSettingsOf(db: Database): Promise<ConsoleBusinessSettings> {
  const prices = await pricesOf(db);
  return {
    prices: Object.fromEntries(BENEFIT_ITEMS.map((i) => [i, formatMoney(prices[i])])) as ConsoleBusinessSettings['prices'],
    vip: await thresholdsOf(db),
    rebates: await ratesOf(db),
    dividendRate: await dividendRateOf(db),
    maintenance: await backtestMaintenanceOn(db),
  };
}

export function settingsRoutes(app: FastifyInstance, deps: PlatformDeps, audit: ConsoleAudit): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const envelope = { 200: envelopeOf(consoleBusinessSettings), ...errorResponses };

  r.get(
    '/settings/business',
    { schema: { tags, summary: 'Prices, VIP thresholds, rebate and dividend rates, and the backtest maintenance switch', security: bearerAuth, response: envelope } },
    async (req) => ok(req, await businessSettingsOf(deps.db)),
  );

  r.post(
    '/settings/prices',
    { schema: { tags, summary: 'Sets the unlock’s price and a seat’s and a slot’s per month; purchases from now on pay them', security: bearerAuth, body: consolePricesBody, response: envelope } },
    async (req) => {
      const before = await businessSettingsOf(deps.db);
      await deps.db.transaction(async (tx) => {
        for (const item of BENEFIT_ITEMS) await setPrice(tx, item, parseMoney(req.body.prices[item])!, `console: ${req.operator!.mail}: ${req.body.reason}`);
      });
      const after = await businessSettingsOf(deps.db);
      await audit(req, 'settings.prices', { objectType: 'settings', objectId: 'prices', before: before.prices, after: after.prices, detail: { reason: req.body.reason } });
      return ok(req, after);
    },
  );

  r.post(
    '/settings/vip',
    { schema: { tags, summary: 'Sets each VIP tier’s rule (any or all of its conditions); the next computation applies it', security: bearerAuth, body: consoleVipBody, response: envelope } },
    async (req) => {
      const before = await thresholdsOf(deps.db);
      await setThresholds(deps.db, req.body.thresholds);
      const after = await businessSettingsOf(deps.db);
      await audit(req, 'settings.vip', { objectType: 'settings', objectId: 'vip', before, after: after.vip, detail: { reason: req.body.reason } });
      return ok(req, after);
    },
  );

  r.post(
    '/settings/rebates',
    { schema: { tags, summary: 'Sets the rebate rates per level, the same-level share and the dividend share (basis points); payments settled from now on use them', security: bearerAuth, body: consoleRebatesBody, response: envelope } },
    async (req) => {
      const before = { rates: await ratesOf(deps.db), dividendRate: await dividendRateOf(deps.db) };
      await deps.db.transaction(async (tx) => {
        await setRates(tx, req.body.rates, deps.config.REBATE_PAYOUT_MAX_BP);
        await setDividendRate(tx, req.body.dividendRate);
      });
      const after = await businessSettingsOf(deps.db);
      await audit(req, 'settings.rebates', { objectType: 'settings', objectId: 'rebates', before, after: { rates: after.rebates, dividendRate: after.dividendRate }, detail: { reason: req.body.reason } });
      return ok(req, after);
    },
  );

  r.post(
    '/settings/maintenance',
    { schema: { tags, summary: 'Switches backtest maintenance: on, nobody starts a backtest (B0300); running ones carry on', security: bearerAuth, body: consoleMaintenanceBody, response: envelope } },
    async (req) => {
      const before = await backtestMaintenanceOn(deps.db);
      await setBacktestMaintenance(deps.db, req.body.on);
      await audit(req, 'settings.maintenance', { objectType: 'settings', objectId: 'maintenance', before: { on: before }, after: { on: req.body.on }, detail: { reason: req.body.reason } });
      return ok(req, await businessSettingsOf(deps.db));
    },
  );
}
