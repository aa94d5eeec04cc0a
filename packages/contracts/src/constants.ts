// Spec §5 and §9 constants: one source for web and server.

export const APP_VERSION = '1.2.0';
export const APP_VERSION_CODE = 17;

// network and lazy loading
export const NETWORK_TIMEOUT_MS = 60_000;
export const LAZY_PAGE_DELAY_MS = 200;
export const LAZY_PAGE_TIMEOUT_MS = 60_000;
export const CHUNK_TIMEOUT_MS = 120_000;

// layout
export const DESKTOP_BREAKPOINT_PX = 768;
export const WIDE_RATIO = 1.3;
export const TAB_BAR_HEIGHT_PX = 70;
export const TAB_COUNT = 3;
export const MENU_WIDTH_OPEN_PX = 200;
export const MENU_WIDTH_CLOSED_PX = 20;
export const CONTENT_PADDING_PX = 32;
export const DIALOG_TEXT_MAX_HEIGHT_PX = 400;

// feedback
export const TOAST_MS = 3000;
export const TOAST_WIDE_LANDSCAPE_MS = 2000;
export const POPUP_CLOSE_DELAY_MS = 300;
export const THROTTLE_DEFAULT_MS = 1500;

// verification codes
export const CODE_RESEND_SECONDS = 60;
export const CODE_INPUT_MAX = 8;
export const CODE_LENGTH = 6;
export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;
/** Wrong codes of one type to one address in 24 hours, across re-sends, before every code of that type is refused. */
export const CODE_DAILY_WRONG_MAX = 10;
/** Failed sign-ins of one address from any IPs within the guard window over which sign-in needs a LOGIN e-mail code too. */
export const LOGIN_GUARD_FAILURES = 10;
export const LOGIN_GUARD_MINUTES = 60;
/** A second-step code as typed: a recovery code with dashes and spaces is the longest. */
export const TWO_FACTOR_CODE_MAX = 20;
/** The sign-in's second step: how long its challenge lives and how many wrong codes void it. */
export const LOGIN_CHALLENGE_TTL_MS = 5 * 60_000;
export const LOGIN_CHALLENGE_MAX_ATTEMPTS = 5;
/** Wrong step-up codes in a row before step-up pauses for TWO_FACTOR_LOCK_MINUTES. */
export const TWO_FACTOR_MAX_FAILURES = 5;
export const TWO_FACTOR_LOCK_MINUTES = 15;
/** The security lock: withdrawals and new addresses wait this long after a password, payment password or two-step change. */
export const SECURITY_LOCK_HOURS = 24;
/** At most this many of a user's live sessions are listed (the newest used first). */
export const SESSIONS_LIST_MAX = 100;
/** Wrong payment passwords in a row before paying locks, and for how long (wallet issue). */
export const PAY_PWD_MAX_FAILURES = 5;
export const PAY_LOCK_MINUTES = 15;

// input rules
export const INPUT_MAX_DEFAULT = 140;
export const NICKNAME_MAX = 8;
export const PAY_PWD_LENGTH = 6;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 32;
export const MAIL_MAX = 254;
export const INVITE_CODE_MAX = 16;
/** Countries whose residents may not register (spec §5). */
export const REFUSED_COUNTRIES = ['CN', 'JP'] as const;

// backtests and orders
export const CAPITAL_MIN = 1000;
export const BACKTEST_RANGE_MIN_DAYS = 7;
export const GRID_COUNT_MIN = 2;
export const GRID_MULTIPLIER_MIN = 0.01;
export const PIP_POINTS = 10;
export const BIG_POINT_SMALL_POINTS = 10;
export const CREATE_ORDER_TYPE = { backtest: 0, robot: 1 } as const;
export const BACKTEST_STATUS = {
  running: 1,
  success: 2,
  fail: 3,
  liquidate: 4,
  capital: 5,
} as const;
export const CONTRACT_CACHE_MS = 86_400_000;
/** Symbols: letters followed by USDT or USD (spec §5). */
export const SYMBOL_PATTERN = /^[A-Z]+(USDT|USD)$/;

// wallet
export const CONVERSION_MIN = 10;
export const CONVERSION_FEE = 3;
export const DEPOSIT_MIN = 0.1;
export const BASIC_UNLOCK_PRICE = 100;
export const SEAT_PACK_PRICE_MONTH = 10;
export const SEAT_PACK_DAYS = 30;
export const EXPORT_KEEP_DAYS = 3;

// users
export const USER_LEVELS = ['none', 'VIP1', 'VIP2', 'VIP3', 'VIP4', 'VIP5'] as const;
export type UserLevel = (typeof USER_LEVELS)[number];
/** Spec §3: a user is VIP when userLevel contains the text VIP. */
export const isVipLevel = (level: string | null | undefined): boolean =>
  !!level && level.includes('VIP');

/** Persisted client-store keys (spec §3). */
export const STORAGE_KEYS = {
  locale: 'locale',
  theme: 'theme',
  currentDataSource: 'currentDataSource',
  token: 'token',
  user: 'user',
} as const;
