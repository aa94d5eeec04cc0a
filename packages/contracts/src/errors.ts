// One catalog of error codes (Alibaba Java manual convention): A#### the caller's input or state,
// B#### our own system, C#### third parties. HTTP status stays honest; `msg` comes from the
// message catalog under `errors.<NAME>` in the caller's locale.

export interface ErrorDef {
  readonly code: string;
  readonly status: number;
}

export const ERRORS = {
  // request shape
  BAD_REQUEST: { code: 'A0400', status: 400 },
  MALFORMED_BODY: { code: 'A0401', status: 400 },
  BODY_TOO_LARGE: { code: 'A0402', status: 413 },
  UNSUPPORTED_MEDIA_TYPE: { code: 'A0403', status: 415 },
  HEADERS_TOO_LARGE: { code: 'A0405', status: 431 },
  VALIDATION_FAILED: { code: 'A0410', status: 422 },
  UNKNOWN_FIELD: { code: 'A0411', status: 422 },
  NOT_FOUND: { code: 'A0404', status: 404 },
  RATE_LIMITED: { code: 'A0429', status: 429 },
  // identity
  UNAUTHENTICATED: { code: 'A0200', status: 401 },
  FORBIDDEN: { code: 'A0201', status: 403 },
  LOGIN_FAILED: { code: 'A0210', status: 400 },
  LOGIN_LOCKED: { code: 'A0211', status: 429 },
  OLD_PASSWORD_WRONG: { code: 'A0212', status: 422 },
  PASSWORDS_DIFFER: { code: 'A0213', status: 422 },
  PASSWORD_WEAK: { code: 'A0214', status: 422 },
  // operators (console/api)
  SECOND_FACTOR_REQUIRED: { code: 'A0215', status: 401 },
  SECOND_FACTOR_INVALID: { code: 'A0216', status: 422 },
  // a user an operator froze (console)
  USER_FROZEN: { code: 'A0217', status: 403 },
  // two people for big money: nobody approves their own; a decided approval stays decided
  APPROVAL_OWN: { code: 'A0218', status: 403 },
  APPROVAL_DECIDED: { code: 'A0219', status: 409 },
  // settings under two keys: one pending change per group; approved only onto the values it was asked against
  SETTINGS_CHANGE_PENDING: { code: 'A0388', status: 409 },
  SETTINGS_CHANGED_SINCE: { code: 'A0389', status: 409 },
  SETTINGS_UNCHANGED: { code: 'A0396', status: 422 },
  // level grants under two keys: one per user waits; approved only onto the level it was asked from
  LEVEL_GRANT_PENDING: { code: 'A0397', status: 409 },
  LEVEL_CHANGED_SINCE: { code: 'A0398', status: 409 },
  // verification codes
  CODE_INVALID: { code: 'A0220', status: 422 },
  CODE_EXPIRED: { code: 'A0221', status: 422 },
  CODE_TOO_MANY_ATTEMPTS: { code: 'A0222', status: 422 },
  CODE_SENT_TOO_RECENTLY: { code: 'A0223', status: 429 },
  // two-step verification and step-up
  TWO_FACTOR_CODE_REQUIRED: { code: 'A0224', status: 422 },
  TWO_FACTOR_CODE_WRONG: { code: 'A0225', status: 422 },
  TWO_FACTOR_LOCKED: { code: 'A0226', status: 429 },
  TWO_FACTOR_CHALLENGE_EXPIRED: { code: 'A0227', status: 422 },
  TWO_FACTOR_ALREADY_ON: { code: 'A0228', status: 409 },
  TWO_FACTOR_NOT_ON: { code: 'A0229', status: 409 },
  TWO_FACTOR_SETUP_MISSING: { code: 'A0245', status: 409 },
  CODE_REQUIRED: { code: 'A0246', status: 422 },
  SESSION_NOT_FOUND: { code: 'A0247', status: 404 },
  LOGIN_CODE_REQUIRED: { code: 'A0248', status: 422 },
  CODE_DAILY_LIMIT: { code: 'A0249', status: 429 },
  PASSKEY_REFUSED: { code: 'A0234', status: 422 },
  PASSKEY_CEREMONY_EXPIRED: { code: 'A0235', status: 422 },
  PASSKEYS_FULL: { code: 'A0236', status: 409 },
  PASSKEYS_UNAVAILABLE: { code: 'A0237', status: 409 },
  // registration and profile
  REGISTER_COUNTRY_REFUSED: { code: 'A0230', status: 403 },
  INVITE_CODE_NOT_FOUND: { code: 'A0231', status: 422 },
  CONSOLE_SESSION_ENDED: { code: 'A0232', status: 401 },
  SECOND_FACTOR_LOCKED: { code: 'A0233', status: 429 },
  NICKNAME_TOO_LONG: { code: 'A0240', status: 422 },
  PAY_PWD_FORMAT: { code: 'A0241', status: 422 },
  PAY_PWD_DIFFER: { code: 'A0242', status: 422 },
  PAY_PWD_NOT_SET: { code: 'A0243', status: 409 },
  PAY_PWD_WRONG: { code: 'A0244', status: 422 },
  // markets
  MARKET_NOT_OPEN: { code: 'A0250', status: 409 },
  DATA_SOURCE_UNKNOWN: { code: 'A0251', status: 422 },
  INVALID_SYMBOL: { code: 'A0252', status: 422 },
  // trading and money
  NOT_VIP: { code: 'A0300', status: 403 },
  INSUFFICIENT_BALANCE: { code: 'A0310', status: 409 },
  INSUFFICIENT_CAPITAL: { code: 'A0311', status: 422 },
  NO_FREE_SEAT: { code: 'A0312', status: 409 },
  // backtests and recommendations
  BACKTEST_SLOTS_FULL: { code: 'A0320', status: 409 },
  MARKET_DATA_MISSING: { code: 'A0321', status: 422 },
  STRATEGY_NOT_FOR_MARKET: { code: 'A0322', status: 422 },
  SYMBOL_NOT_SUPPORTED: { code: 'A0323', status: 422 },
  ORDER_SIZE_TOO_SMALL: { code: 'A0324', status: 422 },
  INTERVAL_TOO_FINE: { code: 'A0325', status: 422 },
  BACKTEST_NO_REPORT: { code: 'A0326', status: 409 },
  BACKTEST_NOT_RUNNING: { code: 'A0327', status: 409 },
  RECOMMEND_BUSY: { code: 'A0328', status: 409 },
  ORDER_SIZE_TOO_LARGE: { code: 'A0329', status: 422 },
  CONFLICT: { code: 'A0409', status: 409 },
  // trading accounts and robots
  ACCOUNT_KEY_REJECTED: { code: 'A0330', status: 422 },
  ACCOUNT_KEY_CAN_WITHDRAW: { code: 'A0331', status: 422 },
  ACCOUNT_KEY_CANNOT_TRADE: { code: 'A0332', status: 422 },
  ACCOUNT_IN_USE: { code: 'A0333', status: 409 },
  ACCOUNT_FROZEN: { code: 'A0334', status: 409 },
  ACCOUNT_DUPLICATE: { code: 'A0335', status: 409 },
  SECRET_UNREADABLE: { code: 'A0336', status: 422 },
  ACCOUNT_WRONG_MARKET: { code: 'A0337', status: 422 },
  ACCOUNT_REQUIRED: { code: 'A0338', status: 422 },
  COIN_TAKEN: { code: 'A0340', status: 409 },
  ROBOT_NOT_RUNNING: { code: 'A0341', status: 409 },
  ROBOT_NOT_PAUSED: { code: 'A0342', status: 409 },
  ROBOT_STOPPED: { code: 'A0343', status: 409 },
  // wallet
  IDEMPOTENCY_KEY_REUSED: { code: 'A0350', status: 409 },
  INSUFFICIENT_REBATE: { code: 'A0351', status: 409 },
  PAY_LOCKED: { code: 'A0352', status: 429 },
  // deposits
  DEPOSIT_NETWORK_CLOSED: { code: 'A0360', status: 409 },
  CARD_AMOUNT_OUT_OF_RANGE: { code: 'A0361', status: 422 },
  CARD_CLOSED: { code: 'A0362', status: 409 },
  WEBHOOK_SIGNATURE_INVALID: { code: 'A0363', status: 400 },
  WEBHOOK_STALE: { code: 'A0364', status: 400 },
  WEBHOOK_UNKNOWN_CHECKOUT: { code: 'A0365', status: 404 },
  WEBHOOK_AMOUNT_MISMATCH: { code: 'A0366', status: 422 },
  // withdrawals
  WITHDRAW_BELOW_MIN: { code: 'A0370', status: 422 },
  WITHDRAW_ADDRESS_INVALID: { code: 'A0371', status: 422 },
  WITHDRAW_STATE: { code: 'A0372', status: 409 },
  WITHDRAW_TX_INVALID: { code: 'A0373', status: 422 },
  WITHDRAW_TX_MISMATCH: { code: 'A0374', status: 422 },
  WITHDRAW_TX_USED: { code: 'A0375', status: 409 },
  WITHDRAW_ADDRESS_CONTRACT: { code: 'A0376', status: 422 },
  WITHDRAW_ADDRESS_OWN_DEPOSIT: { code: 'A0377', status: 422 },
  WITHDRAW_ADDRESS_PLATFORM: { code: 'A0378', status: 422 },
  WITHDRAW_LOCKED: { code: 'A0379', status: 403 },
  WITHDRAW_ADDRESS_NOT_IN_BOOK: { code: 'A0353', status: 422 },
  WITHDRAW_ADDRESS_NOT_YET: { code: 'A0354', status: 409 },
  WITHDRAW_ADDRESS_EXISTS: { code: 'A0355', status: 409 },
  WITHDRAW_ADDRESS_BOOK_FULL: { code: 'A0356', status: 409 },
  // benefits
  BENEFIT_ALREADY_UNLOCKED: { code: 'A0380', status: 409 },
  BENEFIT_NOT_UNLOCKED: { code: 'A0381', status: 409 },
  AGREEMENT_REQUIRED: { code: 'A0382', status: 409 },
  AGREEMENT_VERSION: { code: 'A0383', status: 409 },
  BENEFIT_STATE: { code: 'A0384', status: 409 },
  PRICE_CHANGED: { code: 'A0387', status: 409 },
  ACCOUNT_NOT_RELEASABLE: { code: 'A0385', status: 409 },
  // referrals: rates that would pay out more than the cap of a payment
  REBATE_RATES_OVER_CAP: { code: 'A0386', status: 422 },
  // notifications
  TELEGRAM_CLOSED: { code: 'A0390', status: 409 },
  NOTIFY_MAIL_REQUIRED: { code: 'A0391', status: 409 },
  PUSH_ENDPOINT_REFUSED: { code: 'A0392', status: 422 },
  PUSH_CLOSED: { code: 'A0393', status: 409 },
  // notices (console)
  NOTICE_NEEDS_ENGLISH: { code: 'A0394', status: 409 },
  NOTICE_STATE: { code: 'A0395', status: 409 },
  // system
  INTERNAL: { code: 'B0001', status: 500 },
  DB_UNAVAILABLE: { code: 'B0002', status: 503 },
  LIMITS_UNAVAILABLE: { code: 'B0003', status: 503 },
  BACKTEST_MAINTENANCE: { code: 'B0300', status: 503 },
  // third parties
  MAIL_FAILED: { code: 'C0001', status: 502 },
  EXCHANGE_ERROR: { code: 'C0100', status: 502 },
  EXCHANGE_UNREACHABLE: { code: 'C0101', status: 502 },
  MT5_BRIDGE_OFFLINE: { code: 'C0110', status: 503 },
  PAYMENT_PROVIDER_ERROR: { code: 'C0200', status: 502 },
  CHAIN_UNAVAILABLE: { code: 'C0300', status: 503 },
} as const satisfies Record<string, ErrorDef>;

export type ErrorName = keyof typeof ERRORS;
export type ErrorCode = (typeof ERRORS)[ErrorName]['code'];

export const ERROR_NAMES = Object.keys(ERRORS) as ErrorName[];

/** Message key of an error in the catalogs. */
export const errorMessageKey = (name: ErrorName) => `errors.${name}` as const;

const byCode = new Map<string, ErrorName>(ERROR_NAMES.map((n) => [ERRORS[n].code, n]));
export const errorNameOfCode = (code: string): ErrorName | undefined => byCode.get(code);

/** Thrown by services; the server turns it into an envelope with the localized message. */
export class AppError extends Error {
  readonly errorName: ErrorName;
  readonly code: string;
  readonly status: number;
  readonly params: Record<string, string | number>;
  readonly field: string | undefined;
  constructor(name: ErrorName, params: Record<string, string | number> = {}, field?: string) {
    super(name);
    this.name = 'AppError';
    this.errorName = name;
    this.code = ERRORS[name].code;
    this.status = ERRORS[name].status;
    this.params = params;
    this.field = field;
  }
}
