import { eq, sql } from 'drizzle-orm';
import type { Database } from './open';
import { appSettings } from './schema';

/** Keys of operator switches kept in app_settings. */
export const SETTING_KEYS = {
  backtestMaintenance: 'backtest.maintenance',
  /** `{amount}`: withdrawals below it (a decimal string) skip the operator's review; '0': none do. */
  withdrawAutoApproveBelow: 'withdraw.autoApproveBelow',
  /** `{[level]: {day, month}}` (decimal strings): the operator's withdrawal limits per user level; a level not set keeps the defaults. */
  withdrawLimits: 'withdraw.limits',
  /** `{amount}`: a wallet adjustment or withdrawal approval above it (a decimal string) needs a second operator. */
  twoPersonAbove: 'console.twoPersonAbove',
  /** `{amount}`: what one operator moves alone across all users in a platform day (a decimal string). */
  soloDailyLimit: 'console.soloDailyLimit',
} as const;

export async function getSetting<T>(db: Database, key: string): Promise<T | undefined> {
  const rows = await db
    .select({ value: appSettings.value })
    .from(appSettings)
    .where(eq(appSettings.key, key));
  return rows[0]?.value as T | undefined;
}

export async function setSetting(db: Database, key: string, value: unknown): Promise<void> {
  await db
    .insert(appSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: sql`now()` } });
}
