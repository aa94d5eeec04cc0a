// The console's business settings (issue 32, slice 4): the benefits' prices, the VIP tiers'
// thresholds, rebate and dividend rates, and the backtest maintenance switch — each saved with the
// reason, its values before and after in the audit log. The areas own the values; this only reads
// and writes them through their services. Prices and rates are money settings: a change waits for
// a second operator (issue 53 item 2, setting-changes.ts); thresholds and maintenance apply at once.
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
  type ConsoleBusinessSettings,
} from '@lq/contracts';
import type { Database } from '@lq/db';
import type { FastifyRequest } from 'fastify';
import type { PlatformDeps } from '../platform/deps';
import { bearerAuth, errorResponses, ok } from '../platform/http';
import { backtestMaintenanceOn, setBacktestMaintenance } from '../backtests';
import { pricesOf } from '../benefits';
import { dividendRateOf, ratesOf, setThresholds, thresholdsOf } from '../referrals';
import type { ConsoleAudit } from './routes';
import { pendingSettingsChange, requestSettingsChange, type SettingsBody } from './setting-changes';

const tags = ['console'];

export async function businessSettingsOf(db: Database, operatorId: number): Promise<ConsoleBusinessSettings> {
  const prices = await pricesOf(db);
  return {
    prices: Object.fromEntries(BENEFIT_ITEMS.map((i) => [i, formatMoney(prices[i])])) as ConsoleBusinessSettings['prices'],
    vip: await thresholdsOf(db),
    rebates: await ratesOf(db),
    dividendRate: await dividendRateOf(db),
    maintenance: await backtestMaintenanceOn(db),
    pending: { prices: await pendingSettingsChange(db, operatorId, 'prices'), rebates: await pendingSettingsChange(db, operatorId, 'rebates') },
  };
}

/**
 * One operator's change of a money setting, recorded for a second with its audit row in one
 * transaction (settings.money, settings.prices, settings.rebates: the values before, and the
 * approval with the values asked for).
 */
export async function askSettingsChange(deps: PlatformDeps, audit: ConsoleAudit, req: FastifyRequest, change: SettingsBody, reason: string): Promise<number> {
  const operatorId = req.operator!.operatorId;
  return deps.db.transaction(async (tx) => {
    const { id, request } = await requestSettingsChange(tx, operatorId, change, reason, deps.config.REBATE_PAYOUT_MAX_BP);
    await audit(req, `settings.${change.group}`, {
      objectType: 'settings',
      objectId: change.group,
      before: request.before,
      after: { approval: id, status: 'pending', values: request.after },
      detail: { reason },
      db: tx,
    });
    return id;
  });
}

export function settingsRoutes(app: FastifyInstance, deps: PlatformDeps, audit: ConsoleAudit): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const envelope = { 200: envelopeOf(consoleBusinessSettings), ...errorResponses };

  r.get(
    '/settings/business',
    { schema: { tags, summary: 'Prices, VIP thresholds, rebate and dividend rates, and the backtest maintenance switch', security: bearerAuth, response: envelope } },
    async (req) => ok(req, await businessSettingsOf(deps.db, req.operator!.operatorId)),
  );

  r.post(
    '/settings/prices',
    { schema: { tags, summary: 'Asks to set the unlock’s price and a seat’s and a slot’s per month; purchases pay them once another operator approved (pending.prices until then)', security: bearerAuth, body: consolePricesBody, response: envelope } },
    async (req) => {
      await askSettingsChange(deps, audit, req, { group: 'prices', body: req.body }, req.body.reason);
      return ok(req, await businessSettingsOf(deps.db, req.operator!.operatorId));
    },
  );

  r.post(
    '/settings/vip',
    { schema: { tags, summary: 'Sets each VIP tier’s rule (any or all of its conditions); the next computation applies it', security: bearerAuth, body: consoleVipBody, response: envelope } },
    async (req) => {
      const before = await thresholdsOf(deps.db);
      await setThresholds(deps.db, req.body.thresholds);
      const after = await businessSettingsOf(deps.db, req.operator!.operatorId);
      await audit(req, 'settings.vip', { objectType: 'settings', objectId: 'vip', before, after: after.vip, detail: { reason: req.body.reason } });
      return ok(req, after);
    },
  );

  r.post(
    '/settings/rebates',
    { schema: { tags, summary: 'Asks to set the rebate rates per level, the same-level share and the dividend share (basis points); payments settled after another operator approved use them (pending.rebates until then)', security: bearerAuth, body: consoleRebatesBody, response: envelope } },
    async (req) => {
      await askSettingsChange(deps, audit, req, { group: 'rebates', body: req.body }, req.body.reason);
      return ok(req, await businessSettingsOf(deps.db, req.operator!.operatorId));
    },
  );

  r.post(
    '/settings/maintenance',
    { schema: { tags, summary: 'Switches backtest maintenance: on, nobody starts a backtest (B0300); running ones carry on', security: bearerAuth, body: consoleMaintenanceBody, response: envelope } },
    async (req) => {
      const before = await backtestMaintenanceOn(deps.db);
      await setBacktestMaintenance(deps.db, req.body.on);
      await audit(req, 'settings.maintenance', { objectType: 'settings', objectId: 'maintenance', before: { on: before }, after: { on: req.body.on }, detail: { reason: req.body.reason } });
      return ok(req, await businessSettingsOf(deps.db, req.operator!.operatorId));
    },
  );
}
