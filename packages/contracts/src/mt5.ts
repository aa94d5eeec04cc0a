// The MetaTrader 5 bridge protocol (design: ../shared/design/mt5-bridge.md §4). JSON text frames
// `{v:1, type, mid, ts, …}` over a WebSocket at BRIDGE_PATH; decimals and 64-bit ids are strings.
// Both ends validate with these schemas: the server (apps/server/src/bridge), the venue adapter
// and the fake terminal (packages/venues/src/mt5). mt5/BridgeProtocol.mqh is generated from the
// constants below (scripts/gen-mql-protocol.ts); a unit test fails when the committed file is stale.
import { z } from 'zod';

export const BRIDGE_PROTOCOL_VERSION = 1;
export const BRIDGE_PATH = '/bridge/v1';
/** Largest frame either side accepts. */
export const BRIDGE_MAX_PAYLOAD = 64 * 1024;
/** The EA sends `hb` this often. */
export const BRIDGE_HEARTBEAT_MS = 5_000;
/** Silent this long (or terminal off-broker): stale, no new intents. */
export const BRIDGE_STALE_MS = 15_000;
/** Silent this long: offline, the account's robots are paused. */
export const BRIDGE_OFFLINE_MS = 60_000;
/** The EA reconnects after this much silence from the server. */
export const BRIDGE_RECONNECT_SILENCE_MS = 20_000;
/** A session that has not said hello within this time is closed. */
export const BRIDGE_HELLO_TIMEOUT_MS = 10_000;
/** Journal entries the EA sends in hello (the newest ones). */
export const BRIDGE_JOURNAL_TAIL = 200;
/** Most 1m bars one `bars` answer carries. */
export const BRIDGE_MAX_BARS = 500;
/** Deals are resent from this long before the welcome's dealCursor. */
export const BRIDGE_DEAL_OVERLAP_MS = 10 * 60_000;
/** Our magic numbers: MAGIC_BASE + 40 bits of SHA-256(clientId); the EA touches only this range. */
export const BRIDGE_MAGIC_BASE = 7_700_000_000_000_000;
export const BRIDGE_MAGIC_SPAN = 2 ** 40;
/** clientId: ≤ 32 characters of [A-Za-z0-9_-] (derived from robot, signal, leg). */
export const BRIDGE_CLIENT_ID = /^[A-Za-z0-9_-]{1,32}$/;
export const BRIDGE_CLIENT_ID_MAX = 32;

/** WebSocket close codes the server uses. */
export const BRIDGE_CLOSE = {
  /** A frame that is not JSON or not a valid message. */
  protocol: 4400,
  /** The token was revoked (rotated or account unbound). */
  revoked: 4401,
  /** hello's login/server differ from the ones the token is bound to. */
  mismatch: 4403,
  /** No hello in time. */
  helloTimeout: 4408,
  /** Another session of this account is live. */
  duplicate: 4409,
  /** This session was replaced by a newer one (the old one was stale). */
  replaced: 4410,
} as const;

/** MQL5 trade server return codes (TRADE_RETCODE_*) and what the EA and server do with each. */
export type RetcodeClass = 'ok' | 'retry' | 'unknown' | 'final';
export const MT5_RETCODES = {
  REQUOTE: { code: 10004, cls: 'retry' },
  REJECT: { code: 10006, cls: 'final' },
  CANCEL: { code: 10007, cls: 'final' },
  PLACED: { code: 10008, cls: 'ok' },
  DONE: { code: 10009, cls: 'ok' },
  DONE_PARTIAL: { code: 10010, cls: 'ok' },
  ERROR: { code: 10011, cls: 'unknown' },
  TIMEOUT: { code: 10012, cls: 'unknown' },
  INVALID: { code: 10013, cls: 'final' },
  INVALID_VOLUME: { code: 10014, cls: 'final' },
  INVALID_PRICE: { code: 10015, cls: 'final' },
  INVALID_STOPS: { code: 10016, cls: 'final' },
  TRADE_DISABLED: { code: 10017, cls: 'final' },
  MARKET_CLOSED: { code: 10018, cls: 'final' },
  NO_MONEY: { code: 10019, cls: 'final' },
  PRICE_CHANGED: { code: 10020, cls: 'retry' },
  PRICE_OFF: { code: 10021, cls: 'retry' },
  INVALID_EXPIRATION: { code: 10022, cls: 'final' },
  ORDER_CHANGED: { code: 10023, cls: 'final' },
  TOO_MANY_REQUESTS: { code: 10024, cls: 'retry' },
  NO_CHANGES: { code: 10025, cls: 'ok' },
  SERVER_DISABLES_AT: { code: 10026, cls: 'final' },
  CLIENT_DISABLES_AT: { code: 10027, cls: 'final' },
  LOCKED: { code: 10028, cls: 'retry' },
  FROZEN: { code: 10029, cls: 'final' },
  INVALID_FILL: { code: 10030, cls: 'final' },
  CONNECTION: { code: 10031, cls: 'retry' },
  ONLY_REAL: { code: 10032, cls: 'final' },
  LIMIT_ORDERS: { code: 10033, cls: 'final' },
  LIMIT_VOLUME: { code: 10034, cls: 'final' },
  INVALID_ORDER: { code: 10035, cls: 'final' },
  POSITION_CLOSED: { code: 10036, cls: 'final' },
  INVALID_CLOSE_VOLUME: { code: 10038, cls: 'final' },
  CLOSE_ORDER_EXIST: { code: 10039, cls: 'final' },
  LIMIT_POSITIONS: { code: 10040, cls: 'final' },
  REJECT_CANCEL: { code: 10041, cls: 'final' },
  LONG_ONLY: { code: 10042, cls: 'final' },
  SHORT_ONLY: { code: 10043, cls: 'final' },
  CLOSE_ONLY: { code: 10044, cls: 'final' },
  FIFO_CLOSE: { code: 10045, cls: 'final' },
  HEDGE_PROHIBITED: { code: 10046, cls: 'final' },
} as const satisfies Record<string, { code: number; cls: RetcodeClass }>;
export type Mt5RetcodeName = keyof typeof MT5_RETCODES;

/** Final retcodes that mean the account cannot trade now: the robot is paused, not just refused. */
export const MT5_PAUSE_RETCODES: readonly Mt5RetcodeName[] = [
  'NO_MONEY',
  'TRADE_DISABLED',
  'MARKET_CLOSED',
  'SERVER_DISABLES_AT',
  'CLIENT_DISABLES_AT',
  'ONLY_REAL',
];

/** The class of a retcode; anything we do not know is `unknown` (never resend, look it up). */
export function retcodeClass(code: number | null | undefined): RetcodeClass {
  if (code === null || code === undefined) return 'unknown';
  for (const r of Object.values(MT5_RETCODES)) if (r.code === code) return r.cls;
  return 'unknown';
}

export function retcodeName(code: number | null | undefined): Mt5RetcodeName | null {
  for (const [name, r] of Object.entries(MT5_RETCODES)) if (r.code === code) return name as Mt5RetcodeName;
  return null;
}

// ---------------------------------------------------------------- field types

/** A decimal as a string: "0.10", "1.08512", "-3.2". */
export const decimalString = z.string().regex(/^-?\d{1,20}(\.\d{1,12})?$/, 'decimal string');
/** A 64-bit unsigned id as a string (tickets, deals, logins, magics). */
export const u64String = z.string().regex(/^\d{1,20}$/, 'u64 string');
export const bridgeClientId = z.string().regex(BRIDGE_CLIENT_ID, 'clientId');
const text = (max: number) => z.string().max(max);

export const MT5_MARGIN_MODES = ['netting', 'hedging', 'exchange'] as const;
export const MT5_EXEC_MODES = ['request', 'instant', 'market', 'exchange'] as const;
export const MT5_INTENT_ACTIONS = ['deal', 'pending', 'sltp', 'remove'] as const;
export const MT5_ORDER_TYPES = ['market', 'limit', 'stop'] as const;
export const MT5_ACK_STATUSES = ['accepted', 'duplicate', 'rejected'] as const;
export const MT5_OUTCOMES = ['filled', 'partial', 'placed', 'rejected', 'unknown', 'not_found'] as const;
export const MT5_JOURNAL_STATES = ['received', 'sending', 'result'] as const;
export const MT5_DEAL_ENTRIES = ['in', 'out', 'inout', 'out_by'] as const;

export const mt5SymbolSchema = z.object({
  /** The broker's name (EURUSD.m, GOLD). */
  name: text(32),
  /** SYMBOL_CURRENCY_BASE / SYMBOL_CURRENCY_PROFIT: how the server maps it to ours. */
  base: text(16),
  quote: text(16),
  digits: z.number().int().min(0).max(12),
  point: decimalString,
  tickSize: decimalString,
  contractSize: decimalString,
  volumeMin: decimalString,
  volumeMax: decimalString,
  volumeStep: decimalString,
  stopsLevel: z.number().int().min(0),
  freezeLevel: z.number().int().min(0),
  /** SYMBOL_FILLING_MODE flags (1 FOK, 2 IOC). */
  fillingMode: z.number().int().min(0),
  executionMode: z.enum(MT5_EXEC_MODES),
});
export type Mt5Symbol = z.infer<typeof mt5SymbolSchema>;

/** The stored result of one intent (the `exec` fields). */
export const mt5ResultSchema = z.object({
  outcome: z.enum(MT5_OUTCOMES),
  retcode: z.number().int().nullable(),
  order: u64String.nullable(),
  deal: u64String.nullable(),
  price: decimalString.nullable(),
  volume: decimalString.nullable(),
  comment: text(128).nullable(),
});
export type Mt5Result = z.infer<typeof mt5ResultSchema>;

export const mt5JournalEntrySchema = z.object({
  clientId: bridgeClientId,
  seq: z.number().int().min(0),
  magic: u64String,
  state: z.enum(MT5_JOURNAL_STATES),
  result: mt5ResultSchema.nullable(),
});
export type Mt5JournalEntry = z.infer<typeof mt5JournalEntrySchema>;

export const mt5PositionSchema = z.object({
  ticket: u64String,
  symbol: text(32),
  side: z.enum(['buy', 'sell']),
  volume: decimalString,
  priceOpen: decimalString,
  sl: decimalString.nullable(),
  tp: decimalString.nullable(),
  magic: u64String,
  profit: decimalString,
  swap: decimalString,
  timeMsc: z.number().int(),
});
export type Mt5Position = z.infer<typeof mt5PositionSchema>;

export const mt5OrderSchema = z.object({
  ticket: u64String,
  symbol: text(32),
  side: z.enum(['buy', 'sell']),
  type: z.enum(MT5_ORDER_TYPES),
  volumeInitial: decimalString,
  volumeCurrent: decimalString,
  priceOpen: decimalString,
  magic: u64String,
  timeMsc: z.number().int(),
});
export type Mt5Order = z.infer<typeof mt5OrderSchema>;

// ---------------------------------------------------------------- messages

const header = <T extends string>(type: T) =>
  z.object({
    v: z.literal(BRIDGE_PROTOCOL_VERSION),
    type: z.literal(type),
    /** Message id (unique per sender and session). */
    mid: text(64),
    /** Sender's UTC epoch ms. */
    ts: z.number().int(),
  });

export const mt5HelloSchema = header('hello').extend({
  version: text(32),
  login: u64String,
  server: text(128),
  company: text(128).nullable(),
  /** ACCOUNT_CURRENCY */
  currency: text(16),
  marginMode: z.enum(MT5_MARGIN_MODES),
  demo: z.boolean(),
  /** TERMINAL_TRADE_ALLOWED && ACCOUNT_TRADE_EXPERT && MQL_TRADE_ALLOWED */
  tradeAllowed: z.boolean(),
  symbols: z.array(mt5SymbolSchema).max(500),
  /** The newest journal entries (restart resolution). */
  journal: z.array(mt5JournalEntrySchema).max(BRIDGE_JOURNAL_TAIL),
  /** The EA's local caps (inputs); the server cannot raise them. */
  caps: z.object({
    allowedSymbols: z.array(text(32)).max(500),
    maxLotsPerOrder: decimalString,
    maxOpenPositions: z.number().int().min(0),
    maxOrdersPerMinute: z.number().int().min(0),
    allowRealAccount: z.boolean(),
  }),
});

export const mt5AckSchema = header('ack').extend({
  clientId: bridgeClientId,
  seq: z.number().int().min(0),
  status: z.enum(MT5_ACK_STATUSES),
  reason: text(128).nullable(),
  /** duplicate: the stored result (null while it is still being resolved). */
  result: mt5ResultSchema.nullable(),
});

export const mt5ExecSchema = header('exec').extend({ clientId: bridgeClientId }).extend(mt5ResultSchema.shape);

export const mt5DealSchema = header('deal').extend({
  deal: u64String,
  order: u64String,
  positionId: u64String,
  magic: u64String,
  symbol: text(32),
  side: z.enum(['buy', 'sell']),
  entry: z.enum(MT5_DEAL_ENTRIES),
  volume: decimalString,
  price: decimalString,
  commission: decimalString,
  swap: decimalString,
  fee: decimalString,
  profit: decimalString,
  /** DEAL_REASON_* as text: expert, client, sl, tp, so (stop-out), … */
  reason: text(32),
  /** DEAL_TIME_MSC (broker time, not UTC). */
  brokerTimeMsc: z.number().int(),
});

export const mt5SnapshotSchema = header('snapshot').extend({
  positions: z.array(mt5PositionSchema).max(1000),
  orders: z.array(mt5OrderSchema).max(1000),
});

export const mt5HeartbeatSchema = header('hb').extend({
  termConnected: z.boolean(),
  pingMs: z.number().int().min(0),
  /** TimeTradeServer() and TimeGMT(), epoch seconds. */
  brokerTime: z.number().int(),
  gmtTime: z.number().int(),
  balance: decimalString,
  equity: decimalString,
  margin: decimalString,
  freeMargin: decimalString,
});

export const mt5WelcomeSchema = header('welcome').extend({
  sessionId: text(64),
  limits: z.object({
    maxLotsPerOrder: decimalString,
    maxOpenPositions: z.number().int().min(0),
    maxOrdersPerMinute: z.number().int().min(0),
  }),
  /** Send deals from this time (broker ms) − BRIDGE_DEAL_OVERLAP_MS; "0" = all history kept. */
  dealCursor: z.number().int().min(0),
  serverUtc: z.number().int(),
  magicBase: u64String,
  magicSpan: u64String,
});

export const mt5IntentSchema = header('intent').extend({
  clientId: bridgeClientId,
  seq: z.number().int().min(1),
  magic: u64String,
  action: z.enum(MT5_INTENT_ACTIONS),
  /** The broker's symbol name. */
  symbol: text(32),
  side: z.enum(['buy', 'sell']),
  orderType: z.enum(MT5_ORDER_TYPES),
  volume: decimalString,
  price: decimalString.nullable(),
  sl: decimalString.nullable(),
  tp: decimalString.nullable(),
  deviationPts: z.number().int().min(0),
  /** Close / modify this position (hedging), or remove this order (`remove`). */
  positionTicket: u64String.nullable(),
  orderTicket: u64String.nullable(),
  /** Not executed when received later than ts + ttlMs (server clock as the EA estimates it). */
  ttlMs: z.number().int().min(1),
  /** Pending order expiry (UTC ms); null = GTC. */
  expiry: z.number().int().nullable(),
});

/** Closed 1m bars of a broker symbol (the forex robots' candles come from the user's terminal). */
export const mt5BarsRequestSchema = header('bars_req').extend({
  reqId: text(64),
  symbol: text(32),
  /** UTC ms: bars opened at or after this time. */
  fromMs: z.number().int().min(0),
  count: z.number().int().min(1).max(BRIDGE_MAX_BARS),
});

/** One bar: [open time UTC ms, open, high, low, close, tick volume]. */
export const mt5BarSchema = z.tuple([z.number().int(), decimalString, decimalString, decimalString, decimalString, decimalString]);
export type Mt5Bar = z.infer<typeof mt5BarSchema>;

export const mt5BarsSchema = header('bars').extend({
  reqId: text(64),
  symbol: text(32),
  /** Closed bars only, oldest first. */
  bars: z.array(mt5BarSchema).max(BRIDGE_MAX_BARS),
  error: text(128).nullable(),
});

export const mt5HeartbeatAckSchema = header('hb_ack').extend({ serverUtc: z.number().int() });
export const mt5HaltSchema = header('halt').extend({ reason: text(128) });
export const mt5ResumeSchema = header('resume');
export const mt5ErrorSchema = header('error').extend({ code: text(64), message: text(256) });

export const mt5EaMessageSchema = z.discriminatedUnion('type', [
  mt5HelloSchema,
  mt5AckSchema,
  mt5ExecSchema,
  mt5DealSchema,
  mt5SnapshotSchema,
  mt5HeartbeatSchema,
  mt5BarsSchema,
]);
export const mt5ServerMessageSchema = z.discriminatedUnion('type', [
  mt5WelcomeSchema,
  mt5IntentSchema,
  mt5HeartbeatAckSchema,
  mt5HaltSchema,
  mt5ResumeSchema,
  mt5ErrorSchema,
  mt5BarsRequestSchema,
]);

export type Mt5Hello = z.infer<typeof mt5HelloSchema>;
export type Mt5Ack = z.infer<typeof mt5AckSchema>;
export type Mt5Exec = z.infer<typeof mt5ExecSchema>;
export type Mt5Deal = z.infer<typeof mt5DealSchema>;
export type Mt5Snapshot = z.infer<typeof mt5SnapshotSchema>;
export type Mt5Heartbeat = z.infer<typeof mt5HeartbeatSchema>;
export type Mt5Welcome = z.infer<typeof mt5WelcomeSchema>;
export type Mt5Intent = z.infer<typeof mt5IntentSchema>;
export type Mt5Bars = z.infer<typeof mt5BarsSchema>;
export type Mt5BarsRequest = z.infer<typeof mt5BarsRequestSchema>;
export type Mt5EaMessage = z.infer<typeof mt5EaMessageSchema>;
export type Mt5ServerMessage = z.infer<typeof mt5ServerMessageSchema>;

/** The EA → server message types and the server → EA ones (the .mqh names them). */
export const MT5_EA_MESSAGE_TYPES = ['hello', 'ack', 'exec', 'deal', 'snapshot', 'hb', 'bars'] as const;
export const MT5_SERVER_MESSAGE_TYPES = ['welcome', 'intent', 'hb_ack', 'halt', 'resume', 'error', 'bars_req'] as const;

/** Parses one text frame; null when it is not JSON or not a valid message of that direction. */
export function parseEaMessage(raw: string): Mt5EaMessage | null {
  try {
    const r = mt5EaMessageSchema.safeParse(JSON.parse(raw));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

export function parseServerMessage(raw: string): Mt5ServerMessage | null {
  try {
    const r = mt5ServerMessageSchema.safeParse(JSON.parse(raw));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}
