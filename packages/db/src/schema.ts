import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

// Ids are bigint identities everywhere (mode 'number': safe below 2^53). Timestamps are timestamptz.
// Wallets, ledger, seats and slots come in later migrations; users already carry the referrer
// (bound once at registration) and the level they need.

const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: id(),
    /** Lower-cased e-mail address, the login name. */
    mail: text('mail').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Invite code / UID shown to the user; unique, never reused. */
    userCode: text('user_code').notNull(),
    referrerId: bigint('referrer_id', { mode: 'number' }).references((): AnyPgColumn => users.id),
    userLevel: text('user_level').notNull().default('none'),
    locale: text('locale').notNull().default('zh-TW'),
    nickname: text('nickname'),
    payPwdHash: text('pay_pwd_hash'),
    selectedDataSource: text('selected_data_source'),
    /** ISO country of residence declared at registration. */
    country: text('country').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_mail_key').on(t.mail),
    uniqueIndex('users_user_code_key').on(t.userCode),
    index('users_referrer_idx').on(t.referrerId),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** sha256 (hex) of the bearer token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_key').on(t.tokenHash),
    index('sessions_user_idx').on(t.userId),
  ],
);

export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: id(),
    mail: text('mail').notNull(),
    /** REGISTER | LOGIN_PWD_RESET | MAIL_PAID_PWD_RESET */
    type: text('type').notNull(),
    /** sha256 (hex) of mail, type and code; null when no code was issued (answer kept identical). */
    codeHash: text('code_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('verification_codes_mail_idx').on(t.mail, t.createdAt)],
);

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    error: text('error'),
  },
  (t) => [index('mail_outbox_to_idx').on(t.to, t.createdAt)],
);

export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: id(),
    mail: text('mail').notNull(),
    ip: text('ip').notNull(),
    success: boolean('success').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('login_attempts_mail_idx').on(t.mail, t.createdAt),
    index('login_attempts_ip_idx').on(t.ip, t.createdAt),
  ],
);

export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .default(sql`now()`),
});

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type SessionRow = typeof sessions.$inferSelect;
