// The notification centre (issue 31): what happened to the user's robots, money and packs, one
// item per event, each linking to what it is about. Texts are the app's (by kind, with params).
import { z } from 'zod';

const idParam = z.coerce.number({ error: 'validation.invalidType' }).int().positive().max(Number.MAX_SAFE_INTEGER);

/**
 * robot.filled: an order of a robot filled (opt-in: raised only for owners who switched a channel
 * of it on); robot.stopped: stopped by its strategy or a seat's expiry (not by the user); robot.error: paused
 * by a venue's refusal; robot.mt5Offline: paused because its MT5 terminal went offline; robot.drift:
 * its live trades drifted from its backtest past the owner's threshold, or it missed a trade;
 * withdraw.approved | paid | rejected | failed; deposit.credited (chain or card);
 * pack.renewalFailed: an auto-renewal could not be paid; pack.expiring: a pack without auto-renew
 * expires within 3 days (params.expiresAt, ms); pack.priceChange: a higher price reaches an
 * auto-renewed pack from the renewal at params.expiresAt (amount: per period then, was: now), told
 * at least 7 days before (always e-mailed); account.frozen: a trading account's seat expired;
 * notice.published: a notice or news went live (opt-in; params.noticeId, category; the title in
 * the reader's locale is added when it is sent). Notices are read on the notice page with their
 * own badge, so this kind is sent to the channels but not listed in the centre.
 * security.*: what could be someone else in the account (issue 52 item 7), always e-mailed: a
 * sign-in from a new device (params.device, ip), the login password changed or reset, two-step on
 * or off, the payment password changed, a withdrawal address added (address, network, until), a
 * withdrawal asked for (withdrawId, amount, network, address), a trading account bound
 * (accountName, exchange).
 */
export const NOTIFICATION_KINDS = [
  'robot.filled',
  'robot.stopped',
  'robot.error',
  'robot.mt5Offline',
  'robot.drift',
  'withdraw.approved',
  'withdraw.paid',
  'withdraw.rejected',
  'withdraw.failed',
  'deposit.credited',
  'pack.renewalFailed',
  'pack.expiring',
  'pack.priceChange',
  'account.frozen',
  'notice.published',
  'security.signIn',
  'security.passwordChanged',
  'security.twoFactorOn',
  'security.twoFactorOff',
  'security.payPasswordChanged',
  'security.addressAdded',
  'security.withdrawRequested',
  'security.accountBound',
  'security.sessionsEnded',
  'security.passkeyAdded',
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

// ---------------------------------------------------------------- delivery (slice 3)

/** Where a notification is sent besides the centre. */
export const NOTIFICATION_CHANNELS = ['email', 'telegram', 'push'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** Kinds that are off on every channel until the user switches them on. */
export const OPT_IN_KINDS: readonly NotificationKind[] = ['robot.filled', 'notice.published'];

/** Kinds sent to the channels only; the centre does not list them (they are read where they live). */
export const CHANNEL_ONLY_KINDS: readonly NotificationKind[] = ['notice.published'];
export const channelDefault = (kind: NotificationKind): boolean => !OPT_IN_KINDS.includes(kind);

/**
 * Kinds their own area e-mails with the whole story (which account, what to do), whatever the
 * preferences say: a failed renewal and a frozen account concern the user's money and trading.
 * The delivery job sends them no e-mail of its own.
 */
export const AREA_MAILED_KINDS: readonly NotificationKind[] = ['pack.renewalFailed', 'account.frozen'];
/** Security notices: e-mailed by the delivery job whatever the preferences say (the e-mail is what reaches an owner whose session was taken). */
export const SECURITY_KINDS: readonly NotificationKind[] = NOTIFICATION_KINDS.filter((k) => k.startsWith('security.'));
/** Kinds the delivery job e-mails whatever the preferences say: security, and a price change the agreement promises to tell of. */
export const DELIVERY_MAILED_KINDS: readonly NotificationKind[] = [...SECURITY_KINDS, 'pack.priceChange'];
/** Kinds whose e-mail switch stays on (area-mailed, security, a price change); Telegram and push follow the preference. */
export const ALWAYS_MAILED_KINDS: readonly NotificationKind[] = [...AREA_MAILED_KINDS, ...DELIVERY_MAILED_KINDS];

/** How long a Telegram deep link may be opened, minutes (then a new one is needed). */
export const TELEGRAM_LINK_MINUTES = 15;

/** GET user/api/notification/prefs: each kind's channels, and whether Telegram can be / is linked. */
export const notificationPrefs = z.object({
  prefs: z.array(z.object({ kind: z.enum(NOTIFICATION_KINDS), email: z.boolean(), telegram: z.boolean(), push: z.boolean() })),
  telegram: z.object({
    /** The server has a bot configured. */
    available: z.boolean(),
    linked: z.boolean(),
    /** When the chat was linked (ms), if linked. */
    linkedAt: z.number().nullable(),
  }),
  push: z.object({
    /** The server has VAPID keys configured. */
    available: z.boolean(),
    /** The VAPID public key (base64url) a browser subscribes with. */
    publicKey: z.string().nullable(),
    /** Devices of the caller that receive pushes. */
    devices: z.number(),
  }),
});
export type NotificationPrefs = z.infer<typeof notificationPrefs>;

/** POST user/api/notification/prefs: switches one kind on one channel. */
export const notificationPrefBody = z.strictObject({
  kind: z.enum(NOTIFICATION_KINDS, { error: 'validation.invalidOption' }),
  channel: z.enum(NOTIFICATION_CHANNELS, { error: 'validation.invalidOption' }),
  enabled: z.boolean({ error: 'validation.invalidType' }),
});
export type NotificationPrefBody = z.input<typeof notificationPrefBody>;

/** POST user/api/notification/telegram/link: the deep link that links the chat it is opened in. */
export const telegramLinkResult = z.object({ url: z.string(), expiresAt: z.number() });
export type TelegramLinkResult = z.infer<typeof telegramLinkResult>;

const base64url = (min: number, max: number) =>
  z
    .string({ error: 'validation.invalidType' })
    .min(min, { error: 'validation.invalidFormat' })
    .max(max, { error: 'validation.invalidFormat' })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, { error: 'validation.invalidFormat' });

/** A browser's PushSubscription as `toJSON()` gives it (endpoint on the browser vendor's push service). */
export const pushSubscribeBody = z.strictObject({
  endpoint: z.url({ protocol: /^https?$/, error: 'validation.invalidFormat' }).max(1000, { error: 'validation.invalidFormat' }),
  keys: z.object({
    /** The browser's P-256 public key: 65 bytes, base64url (87 characters). */
    p256dh: base64url(86, 90),
    /** The browser's auth secret: 16 bytes, base64url (22 characters). */
    auth: base64url(22, 24),
  }),
  /** Ignored (the browser's own field). */
  expirationTime: z.number().nullable().optional(),
});
export type PushSubscribeBody = z.input<typeof pushSubscribeBody>;

export const pushUnsubscribeBody = z.strictObject({ endpoint: z.string().max(1000, { error: 'validation.invalidFormat' }) });
export type PushUnsubscribeBody = z.input<typeof pushUnsubscribeBody>;
