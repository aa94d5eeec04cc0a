// Operator commands of the referrals area (wired into `npm run ops` by ops/).
import { AppError, formatMoney, translate, REBATE_LEVELS, rebateRates, VIP_MEASURES, VIP_TIERS, vipThresholds, type RebateRates, type VipMeasure, type VipThresholds, type VipTier } from '@lq/contracts';
import { flags, OpsError, printTable, type OpsCommandSet } from '../platform/ops';
import { dividendRateOf, setDividendRate, settleDividends } from './dividends';
import { computeRankings } from './rankings';
import { ratesOf, setRates, settleRebates } from './rebates';
import { computeVip, setThresholds, thresholdsOf } from './vip';

const FLAG_OF: Record<VipMeasure, string> = { ownVolume: 'own-volume', activeDirect: 'active-direct', teamVolume: 'team-volume', teamActive: 'team-active' };

function printThresholds(t: VipThresholds, out: (line: string) => void): void {
  printTable(
    [['level', 'match', ...VIP_MEASURES.map((m) => FLAG_OF[m])], ...VIP_TIERS.map((l) => [l, t[l].match, ...VIP_MEASURES.map((m) => t[l].conditions.find((c) => c.measure === m)?.min ?? '-')])],
    out,
  );
}

const RATE_NAMES = [...REBATE_LEVELS, 'sameLevelShare'] as const;
/** Basis points as a percentage with up to 2 decimals (2000 → "20"). */
const percentOf = (bp: number) => String(bp / 100);
/** A percentage 0–100 with up to 2 decimals as basis points ("12.5" → 1250); `what` names it in the refusal. */
function basisPointsOf(value: string, what: string): number {
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(value) || Number(value) > 100) throw new OpsError(`${what}: a percentage 0–100 with up to 2 decimals (got "${value}")`, 2);
  return Math.round(Number(value) * 100);
}

function printRates(r: RebateRates, out: (line: string) => void): void {
  printTable([['rate', ...RATE_NAMES], ['%', ...RATE_NAMES.map((n) => percentOf(r[n]))]], out);
}

export const REFERRAL_OPS: OpsCommandSet = {
  usage: `  vip:compute [--date YYYY-MM-DD]             compute VIP progress as of a day (default today, platform timezone) and raise levels reached
  vip:thresholds [<VIP1|VIP2|VIP3> [--match any|all] [--own-volume N] [--active-direct N] [--team-volume N] [--team-active N]]
                                              show the tiers' conditions, or set one tier's (a value of - drops that condition)
  rebates:settle [--date YYYY-MM-DD]          pay the rebates of a day's payments not settled yet (default yesterday, platform timezone)
  rebates:rates [--none P] [--VIP1 P] … [--VIP5 P] [--sameLevelShare P]
                                              show the rebate rates (percent), or set some (up to 2 decimals)
  rankings:compute [--date YYYY-MM-DD]        compute the leaderboards as of a day (default today, platform timezone)
  dividends:settle --month YYYY-MM            pay a finished month's dividends to VIP5+ (once per month)
  dividends:rate [P]                          show, or set, the percentage of a month's revenue shared (up to 2 decimals)`,
  commands: {
    'dividends:settle': {
      args: -1,
      async run(db, args, out, config) {
        const { positional, values } = flags(args, ['month']);
        if (positional.length > 0 || !values.month) throw new OpsError('dividends:settle --month YYYY-MM', 2);
        let run;
        try {
          run = await settleDividends(db.db, config.PLATFORM_TIMEZONE, values.month);
        } catch (e) {
          if (e instanceof RangeError) throw new OpsError(e.message, 2);
          throw e;
        }
        const what = `revenue ${formatMoney(run.revenue)}, ${run.rate / 100} % → pool ${formatMoney(run.pool)}, ${run.recipients} recipient(s) × ${formatMoney(run.perUser)}`;
        out(run.settledNow ? `${run.month} settled: ${what}` : `${run.month} was settled before: ${what}`);
      },
    },
    'dividends:rate': {
      args: -1,
      async run(db, args, out) {
        if (args.length > 1) throw new OpsError('dividends:rate [P]', 2);
        if (args.length === 1) {
          await setDividendRate(db.db, basisPointsOf(args[0], 'the dividend share'));
        }
        out(`dividends share ${(await dividendRateOf(db.db)) / 100} % of a month's revenue among VIP5+`);
      },
    },
    'rankings:compute': {
      args: -1,
      async run(db, args, out, config) {
        const { positional, values } = flags(args, ['date']);
        if (positional.length > 0) throw new OpsError('rankings:compute [--date YYYY-MM-DD]', 2);
        let run;
        try {
          run = await computeRankings(db.db, config.PLATFORM_TIMEZONE, values.date);
        } catch (e) {
          if (e instanceof RangeError) throw new OpsError(e.message, 2);
          throw e;
        }
        out(`as of ${run.asOf} (${config.PLATFORM_TIMEZONE}): volume ${run.ranked.volume}, team ${run.ranked.team}, rebate ${run.ranked.rebate} user(s) ranked`);
      },
    },
    'rebates:settle': {
      args: -1,
      async run(db, args, out, config) {
        const { positional, values } = flags(args, ['date']);
        if (positional.length > 0) throw new OpsError('rebates:settle [--date YYYY-MM-DD]', 2);
        let run;
        try {
          run = await settleRebates(db.db, config.PLATFORM_TIMEZONE, values.date);
        } catch (e) {
          if (e instanceof RangeError) throw new OpsError(e.message, 2);
          throw e;
        }
        out(`${run.day} (${config.PLATFORM_TIMEZONE}): ${run.payments} payment(s) settled, ${run.rebates} rebate(s), ${formatMoney(run.total)} Lightning`);
      },
    },
    'rebates:rates': {
      args: -1,
      async run(db, args, out, config) {
        const { positional, values } = flags(args, [...RATE_NAMES]);
        if (positional.length > 0) throw new OpsError('rebates:rates [--VIP1 20] …', 2);
        const current = await ratesOf(db.db);
        if (Object.keys(values).length === 0) return printRates(current, out);
        const next: Record<string, number> = { ...current };
        for (const [name, v] of Object.entries(values)) {
          next[name] = basisPointsOf(v, `--${name}`);
        }
        const parsed = rebateRates.safeParse(next);
        if (!parsed.success) throw new OpsError(`not valid rates: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')} (0–100 %)`, 2);
        try {
          await setRates(db.db, parsed.data, config.REBATE_PAYOUT_MAX_BP);
        } catch (e) {
          if (e instanceof AppError && e.errorName === 'REBATE_RATES_OVER_CAP') throw new OpsError(`refused: ${translate('en-US', `errors.${e.errorName}`, e.params)}`, 2);
          throw e;
        }
        out('rates set; payments settled from now on use them');
        printRates(parsed.data, out);
      },
    },
    'vip:compute': {
      args: -1,
      async run(db, args, out, config) {
        const { positional, values } = flags(args, ['date']);
        if (positional.length > 0) throw new OpsError('vip:compute [--date YYYY-MM-DD]', 2);
        let run;
        try {
          run = await computeVip(db.db, config.PLATFORM_TIMEZONE, values.date);
        } catch (e) {
          if (e instanceof RangeError) throw new OpsError(e.message, 2);
          throw e;
        }
        out(`as of ${run.asOf} (${config.PLATFORM_TIMEZONE}): window ${run.window.from.toISOString()} – ${run.window.to.toISOString()}; ${run.users} users computed, ${run.raised} level(s) raised`);
      },
    },
    'vip:thresholds': {
      args: -1,
      async run(db, args, out) {
        const { positional, values } = flags(args, ['match', ...Object.values(FLAG_OF)]);
        const current = await thresholdsOf(db.db);
        if (positional.length === 0) return printThresholds(current, out);
        const [level] = positional;
        if (positional.length !== 1 || !(VIP_TIERS as readonly string[]).includes(level)) throw new OpsError('vip:thresholds <VIP1|VIP2|VIP3> [--match any|all] [--own-volume N] …', 2);
        const rule = { ...current[level as VipTier], conditions: [...current[level as VipTier].conditions] };
        if (values.match !== undefined) {
          if (values.match !== 'any' && values.match !== 'all') throw new OpsError(`--match is any or all (got "${values.match}")`, 2);
          rule.match = values.match;
        }
        for (const measure of VIP_MEASURES) {
          const v = values[FLAG_OF[measure]];
          if (v === undefined) continue;
          rule.conditions = rule.conditions.filter((c) => c.measure !== measure);
          if (v !== '-') rule.conditions.push({ measure, min: v });
        }
        const next = vipThresholds.safeParse({ ...current, [level]: rule });
        if (!next.success) throw new OpsError(`not a valid rule: ${next.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')} (amounts: up to 2 decimals; at least one condition)`, 2);
        await setThresholds(db.db, next.data);
        out(`${level}: set; the next computation (daily, or vip:compute) applies it`);
        printThresholds(next.data, out);
      },
    },
  },
};
