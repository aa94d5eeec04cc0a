// Settings under two keys (issue 53 item 2): one operator could raise the two-person amount, the
// automatic approval, the withdrawal limits, the prices or the rebate rates and act alone on them at
// once. A change of any of these is now asked for by one operator and takes effect when another
// approves it (the approvals screen). Each group's values are handled flat (`limits.VIP1.day`,
// `rates.VIP2`: strings), so the asking, the approval list and the approval read and write them
// one way. An approval applies the change only onto the values it was asked against: if anything
// changed them meanwhile (the shell, another approval), it is cancelled, never applied blind.
import { randomUUID } from 'node:crypto';
import { AppError, BENEFIT_ITEMS, formatMoney, parseMoney, REBATE_LEVELS, USER_LEVELS, type ConsoleSettingChange, type ConsoleSettingsPending, type RebateRates, type SettingsGroup } from '@lq/contracts';
import { rowsOf, sql, type Database } from '@lq/db';
import { pricesOf, setPrice } from '../benefits';
import { assertRatesWithinCap, dividendRateOf, ratesOf, setDividendRate, setRates } from '../referrals';
import { autoApproveBelow, setAutoApproveBelow, setWithdrawLimit, withdrawLimitsByLevel } from '../withdrawals';
import { setSoloDailyLimit, setTwoPersonAbove, soloDailyLimit, twoPersonAbove } from '../wallet';

/** A group's values, flat: key → money (6 decimals) or basis points, as strings. */
export type SettingValues = Record<string, string>;

const REBATE_KEYS = [...REBATE_LEVELS, 'sameLevelShare'] as const;
const money = (micro: bigint) => formatMoney(micro);
const micro = (v: string): bigint => {
  const m = parseMoney(v);
  if (m === undefined) throw new RangeError(`not an amount: ${v}`);
  return m;
};

/** The values in force. */
export async function settingValuesOf(db: Database, group: SettingsGroup): Promise<SettingValues> {
  if (group === 'money') {
    const limits = await withdrawLimitsByLevel(db);
    const out: SettingValues = { autoApproveBelow: money(await autoApproveBelow(db)), twoPersonAbove: money(await twoPersonAbove(db)), soloDailyLimit: money(await soloDailyLimit(db)) };
    for (const l of USER_LEVELS) Object.assign(out, { [`limits.${l}.day`]: money(limits[l].day), [`limits.${l}.month`]: money(limits[l].month) });
    return out;
  }
  if (group === 'prices') {
    const prices = await pricesOf(db);
    return Object.fromEntries(BENEFIT_ITEMS.map((i) => [`prices.${i}`, money(prices[i])]));
  }
  const rates = await ratesOf(db);
  return { ...Object.fromEntries(REBATE_KEYS.map((k) => [`rates.${k}`, String(rates[k])])), dividendRate: String(await dividendRateOf(db)) };
}

/** The bodies of settings/money, settings/prices and settings/rebates, as validated by their contracts. */
export type SettingsBody =
  | { group: 'money'; body: { autoApproveBelow: string; twoPersonAbove: string; soloDailyLimit?: string; limits: Record<(typeof USER_LEVELS)[number], { day: string; month: string }> } }
  | { group: 'prices'; body: { prices: Record<(typeof BENEFIT_ITEMS)[number], string> } }
  | { group: 'rebates'; body: { rates: RebateRates; dividendRate: number } };

/** What a body sets, in the flat form; what it leaves out stays as `current`. */
export function valuesOfBody(b: SettingsBody, current: SettingValues): SettingValues {
  if (b.group === 'money') {
    const out: SettingValues = {
      autoApproveBelow: money(micro(b.body.autoApproveBelow)),
      twoPersonAbove: money(micro(b.body.twoPersonAbove)),
      soloDailyLimit: b.body.soloDailyLimit === undefined ? current.soloDailyLimit : money(micro(b.body.soloDailyLimit)),
    };
    for (const l of USER_LEVELS) Object.assign(out, { [`limits.${l}.day`]: money(micro(b.body.limits[l].day)), [`limits.${l}.month`]: money(micro(b.body.limits[l].month)) });
    return out;
  }
  if (b.group === 'prices') return Object.fromEntries(BENEFIT_ITEMS.map((i) => [`prices.${i}`, money(micro(b.body.prices[i]))]));
  return { ...Object.fromEntries(REBATE_KEYS.map((k) => [`rates.${k}`, String(b.body.rates[k])])), dividendRate: String(b.body.dividendRate) };
}

const ratesOfValues = (v: SettingValues): RebateRates => Object.fromEntries(REBATE_KEYS.map((k) => [k, Number(v[`rates.${k}`])])) as RebateRates;

/** The rules a group's values must keep beyond each value's own (the contracts check those, and the first here too). */
function checkValues(group: SettingsGroup, v: SettingValues, rebatePayoutMaxBp: number): void {
  // Withdrawals below the automatic amount are reviewed by nobody: never above the two-person amount.
  if (group === 'money' && micro(v.autoApproveBelow) > micro(v.twoPersonAbove)) throw new AppError('VALIDATION_FAILED', {}, 'autoApproveBelow');
  if (group === 'rebates') assertRatesWithinCap(ratesOfValues(v), rebatePayoutMaxBp);
}

/** Writes a group's values (in the approval's transaction). */
async function applyValues(tx: Database, group: SettingsGroup, v: SettingValues, ctx: { rebatePayoutMaxBp: number; by: string }): Promise<void> {
  checkValues(group, v, ctx.rebatePayoutMaxBp);
  if (group === 'money') {
    await setAutoApproveBelow(tx, micro(v.autoApproveBelow));
    await setTwoPersonAbove(tx, micro(v.twoPersonAbove));
    await setSoloDailyLimit(tx, micro(v.soloDailyLimit));
    for (const l of USER_LEVELS) await setWithdrawLimit(tx, l, { day: micro(v[`limits.${l}.day`]), month: micro(v[`limits.${l}.month`]) });
  } else if (group === 'prices') {
    for (const item of BENEFIT_ITEMS) await setPrice(tx, item, micro(v[`prices.${item}`]), ctx.by);
  } else {
    await setRates(tx, ratesOfValues(v), ctx.rebatePayoutMaxBp);
    await setDividendRate(tx, Number(v.dividendRate));
  }
}

const sameValues = (a: SettingValues, b: SettingValues) => {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => a[k] === b[k]);
};

/** A group's keys in the order its form shows them (jsonb keeps its own order). */
const KEYS: Record<SettingsGroup, string[]> = {
  money: ['autoApproveBelow', 'twoPersonAbove', 'soloDailyLimit', ...USER_LEVELS.flatMap((l) => [`limits.${l}.day`, `limits.${l}.month`])],
  prices: BENEFIT_ITEMS.map((i) => `prices.${i}`),
  rebates: [...REBATE_KEYS.map((k) => `rates.${k}`), 'dividendRate'],
};

/** The values a change sets, each with the value before it (when it was asked). */
export function changesOf(group: SettingsGroup, before: SettingValues, after: SettingValues): ConsoleSettingChange[] {
  const unit = group === 'rebates' ? ('bp' as const) : ('money' as const);
  return KEYS[group]
    .filter((k) => k in after && before[k] !== after[k])
    .map((key) => ({ key, unit, before: before[key] ?? '', after: after[key] }));
}

/** What a settings change keeps in `operator_approvals.request`. */
export interface SettingsRequest {
  group: SettingsGroup;
  before: SettingValues;
  after: SettingValues;
}

/**
 * One operator's change, recorded for a second (in `tx`, the transaction that writes its audit row).
 * Refused: nothing changed (SETTINGS_UNCHANGED), a rule the values break, or a change of the same
 * group already waiting (SETTINGS_CHANGE_PENDING — approved or withdrawn first).
 */
export async function requestSettingsChange(
  tx: Database,
  operatorId: number,
  b: SettingsBody,
  reason: string,
  rebatePayoutMaxBp: number,
): Promise<{ id: number; request: SettingsRequest }> {
  const before = await settingValuesOf(tx, b.group);
  const after = valuesOfBody(b, before);
  if (sameValues(before, after)) throw new AppError('SETTINGS_UNCHANGED');
  checkValues(b.group, after, rebatePayoutMaxBp);
  const request: SettingsRequest = { group: b.group, before, after };
  // One pending change per group (a unique index): two operators asking at once, one waits.
  const [inserted] = rowsOf<{ id: string }>(
    await tx.execute(sql`insert into operator_approvals (kind, object_id, amount, request, reason, requested_by, request_key)
        values ('settings.change', null, 0, ${JSON.stringify(request)}::jsonb, ${reason}, ${operatorId}, ${`settings:${b.group}:${randomUUID()}`})
        on conflict do nothing returning id::text as id`),
  );
  if (inserted) return { id: Number(inserted.id), request };
  const waiting = await pendingSettingsChange(tx, operatorId, b.group);
  throw new AppError('SETTINGS_CHANGE_PENDING', { id: waiting?.id ?? '?', by: waiting?.requestedBy ?? '?' });
}

/** The change of a group waiting for a second operator, if any. */
export async function pendingSettingsChange(db: Pick<Database, 'execute'>, operatorId: number, group: SettingsGroup): Promise<ConsoleSettingsPending | null> {
  const [row] = rowsOf<{ id: string; request: SettingsRequest; reason: string; requested_by: string; mail: string; created_at: string }>(
    await db.execute(sql`select a.id::text as id, a.request, a.reason, a.requested_by::text as requested_by, o.mail, a.created_at::text as created_at
      from operator_approvals a join operators o on o.id = a.requested_by
      where a.kind = 'settings.change' and a.status = 'pending' and a.request->>'group' = ${group}`),
  );
  if (!row) return null;
  return {
    id: Number(row.id),
    requestedBy: row.mail,
    requestedAt: Date.parse(row.created_at),
    mine: Number(row.requested_by) === operatorId,
    reason: row.reason,
    changes: changesOf(group, row.request.before, row.request.after),
  };
}

/**
 * The second operator's approval of a change (in the approval's transaction, its row locked; one
 * change per group waits at a time): applied when the
 * values in force are still those it was asked against; `changedSince` otherwise (the caller
 * cancels the approval).
 */
export async function applySettingsChange(
  tx: Database,
  request: SettingsRequest,
  ctx: { rebatePayoutMaxBp: number; by: string },
): Promise<{ changedSince: true } | { changedSince: false; before: SettingValues; after: SettingValues }> {
  const now = await settingValuesOf(tx, request.group);
  if (!sameValues(now, request.before)) return { changedSince: true };
  await applyValues(tx, request.group, request.after, ctx);
  return { changedSince: false, before: now, after: await settingValuesOf(tx, request.group) };
}
