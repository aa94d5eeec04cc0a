import { z } from 'zod';
import {
  CODE_INPUT_MAX,
  INVITE_CODE_MAX,
  MAIL_MAX,
  NICKNAME_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  PAY_PWD_LENGTH,
} from './constants';
import { parseLocale, type Locale } from './locales';

// Request bodies are strict: unknown fields are rejected. Messages are catalog keys: `errors.*`
// names an error of the catalog, `validation.*` a validation message (see messages/en-US.ts).

export const CODE_TYPES = ['REGISTER', 'LOGIN_PWD_RESET', 'MAIL_PAID_PWD_RESET'] as const;
export type CodeType = (typeof CODE_TYPES)[number];

export const userMail = z
  .string()
  .trim()
  .toLowerCase()
  .min(3)
  .max(MAIL_MAX)
  // RFC 5322 dot-atoms (no quoted local parts) and a domain of letter / digit labels: an address
  // the mail server will take, so a typo is a 422 here and never the SMTP server's refusal.
  .regex(/^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+\p{L}{2,63}$/u, {
    error: 'validation.invalidEmail',
  });

/** 8–32 characters with at least one letter and one digit. */
export const password = z
  .string()
  .min(PASSWORD_MIN, { error: 'errors.PASSWORD_WEAK' })
  .max(PASSWORD_MAX, { error: 'errors.PASSWORD_WEAK' })
  .regex(/[A-Za-z]/, { error: 'errors.PASSWORD_WEAK' })
  .regex(/[0-9]/, { error: 'errors.PASSWORD_WEAK' });

export const verifyCode = z.string().trim().min(1).max(CODE_INPUT_MAX);

export const payPwd = z
  .string()
  .regex(new RegExp(`^\\d{${PAY_PWD_LENGTH}}$`), { error: 'errors.PAY_PWD_FORMAT' });

/**
 * User-perceived characters (grapheme clusters): a family emoji or a flag is one, as the person
 * typing sees it. Without Intl.Segmenter (very old browsers), code points.
 */
export function graphemes(text: string): string[] {
  if (typeof Intl !== 'undefined' && 'Segmenter' in Intl) return Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text), (s) => s.segment);
  return [...text];
}

/** NICKNAME_MAX graphemes; one limit and one message whatever the length sent. */
export const nickname = z
  .string()
  .trim()
  .min(1)
  // A bound on the bytes only (8 family emoji are 88 UTF-16 units), with the same message.
  .max(NICKNAME_MAX * 32, { error: 'errors.NICKNAME_TOO_LONG' })
  .refine((s) => graphemes(s).length <= NICKNAME_MAX, { error: 'errors.NICKNAME_TOO_LONG' });

export const localeValue = z
  .string()
  .trim()
  .max(16)
  .refine((s) => parseLocale(s) !== undefined, { error: 'validation.invalidLocale' })
  .transform((s) => parseLocale(s) as Locale);

// ---- request bodies ----

export const verifyCodeSendBody = z.strictObject({
  userMail,
  codeType: z.enum(CODE_TYPES),
});
export type VerifyCodeSendBody = z.input<typeof verifyCodeSendBody>;

export const registerBody = z.strictObject({
  userMail,
  password,
  code: verifyCode,
  inviteCode: z.string().trim().max(INVITE_CODE_MAX).optional(),
  /** ISO 3166-1 alpha-2 country of residence. */
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, { error: 'validation.countryFormat' }),
});
export type RegisterBody = z.input<typeof registerBody>;

export const loginBody = z.strictObject({
  userMail,
  password: z.string().min(1).max(128),
});
export type LoginBody = z.input<typeof loginBody>;

export const passwordResetBody = z
  .strictObject({ userMail, code: verifyCode, password, passwordAgain: z.string().max(128) })
  .refine((b) => b.password === b.passwordAgain, {
    error: 'errors.PASSWORDS_DIFFER',
    path: ['passwordAgain'],
  });
export type PasswordResetBody = z.input<typeof passwordResetBody>;

export const passwordChangeBody = z
  .strictObject({
    oldPassword: z.string().min(1).max(128),
    password,
    passwordAgain: z.string().max(128),
  })
  .refine((b) => b.password === b.passwordAgain, {
    error: 'errors.PASSWORDS_DIFFER',
    path: ['passwordAgain'],
  });
export type PasswordChangeBody = z.input<typeof passwordChangeBody>;

export const nicknameBody = z.strictObject({ nickname });
export type NicknameBody = z.input<typeof nicknameBody>;

export const localeBody = z.strictObject({ locale: localeValue });
export type LocaleBody = z.input<typeof localeBody>;

export const paidPwdEditBody = z
  .strictObject({ code: verifyCode, paidPwd: payPwd, paidPwdAgain: z.string().max(32) })
  .refine((b) => b.paidPwd === b.paidPwdAgain, {
    error: 'errors.PAY_PWD_DIFFER',
    path: ['paidPwdAgain'],
  });
export type PaidPwdEditBody = z.input<typeof paidPwdEditBody>;

// ---- responses (the `data` of the envelope) ----

export const userInfo = z.object({
  /** Login name (the e-mail address). */
  userName: z.string(),
  mail: z.string(),
  /** Invite code / UID. */
  userCode: z.string(),
  nickname: z.string().nullable(),
  /** `none`, `VIP1`, `VIP2`, `VIP3`. A user is VIP when it contains "VIP". */
  userLevel: z.string(),
  locale: z.string(),
  isVip: z.boolean(),
  hasPaidPwd: z.boolean(),
  /** Invite code of the referrer bound at registration, or null. */
  referrerCode: z.string().nullable(),
  /** ISO 8601. */
  createdAt: z.string(),
});
export type UserInfo = z.infer<typeof userInfo>;

export const loginResult = z.object({
  /** Send as `Authorization: Bearer <token>`. */
  token: z.string(),
  /** ISO 8601 expiry of the token. */
  expiresAt: z.string(),
  user: userInfo,
});
export type LoginResult = z.infer<typeof loginResult>;

export const paidPwdJudgeResult = z.boolean();

/** GET user/api/site: what the operator configured that screens show (public, no session). */
export const siteInfo = z.object({
  /** Where users write about their data (the privacy policy); null: unset. */
  supportMail: z.string().nullable(),
  /** Addresses our exchange requests leave from, to whitelist with an API key; empty: none to advise. */
  egressIps: z.array(z.string()),
});
export type SiteInfo = z.infer<typeof siteInfo>;
