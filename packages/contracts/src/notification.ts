// The notification centre (issue 31): what happened to the user's robots, money and packs, one
// item per event, each linking to what it is about. Texts are the app's (by kind, with params).
import { z } from 'zod';

const idParam = z.coerce.number({ error: 'validation.invalidType' }).int().positive().max(Number.MAX_SAFE_INTEGER);

/**
 * robot.stopped: stopped by its strategy or a seat's expiry (not by the user); robot.error: paused
 * by a venue's refusal; robot.mt5Offline: paused because its MT5 terminal went offline;
 * withdraw.approved | paid | rejected | failed; deposit.credited (chain or card);
 * pack.renewalFailed: an auto-renewal could not be paid; pack.expiring: a pack without auto-renew
 * expires within 3 days (params.expiresAt, ms); account.frozen: a trading account's seat expired.
 */
export const NOTIFICATION_KINDS = [
  'robot.stopped',
  'robot.error',
  'robot.mt5Offline',
  'withdraw.approved',
  'withdraw.paid',
  'withdraw.rejected',
  'withdraw.failed',
  'deposit.credited',
  'pack.renewalFailed',
  'pack.expiring',
  'account.frozen',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_PAGE_SIZE_MAX = 50;

/** GET user/api/notification/list */
export const notificationListQuery = z.strictObject({
  unread: z.enum(['true', 'false']).optional(),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(NOTIFICATION_PAGE_SIZE_MAX).default(20),
});
export type NotificationListQuery = z.input<typeof notificationListQuery>;

export const notificationItem = z.object({
  id: z.number(),
  kind: z.enum(NOTIFICATION_KINDS),
  /**
   * What the text needs: robotId, symbol, strategy, mode, reason (robots); withdrawId, amount
   * (micro-Lightning as a decimal string), network, reason (withdrawals); amount, network
   * (deposits); item, market, amount, reason (renewals); market, exchange, accountName (accounts).
   */
  params: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
  /** The app route it opens (the robot, the withdrawal, the wallet, benefits, the account list). */
  link: z.string().nullable(),
  createdAt: z.number(),
  read: z.boolean(),
});
export type NotificationItem = z.infer<typeof notificationItem>;

export const notificationList = z.object({ list: z.array(notificationItem), total: z.number(), unread: z.number() });
export type NotificationList = z.infer<typeof notificationList>;

/** POST user/api/notification/read: one item (`id`) or all. */
export const notificationReadBody = z.strictObject({ id: idParam.optional() });
export type NotificationReadBody = z.input<typeof notificationReadBody>;
