import { z } from 'zod';
import {
  CODE_INPUT_MAX,
  INVITE_CODE_MAX,
  MAIL_MAX,
  NICKNAME_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  PAY_PWD_LENGTH,
  TWO_FACTOR_CODE_MAX,
} from './constants';
import { parseLocale, type Locale } from './locales';

// Request bodies are strict: unknown fields are rejected. Messages are catalog keys: `errors.*`
// names an error of the catalog, `validation.*` a validation message (see messages/en-US.ts).

export const CODE_TYPES = ['REGISTER', 'LOGIN', 'LOGIN_PWD_RESET', 'MAIL_PAID_PWD_RESET', 'WITHDRAW_ADDRESS', 'API_KEY', 'SECURITY'] as const;
export type CodeType = (typeof CODE_TYPES)[number];
/** Codes sent only to a signed-in user's own address (the body's `userMail` is ignored). */
export const OWN_ADDRESS_CODE_TYPES = ['MAIL_PAID_PWD_RESET', 'WITHDRAW_ADDRESS', 'API_KEY', 'SECURITY'] as const satisfies readonly CodeType[];
export const isOwnAddressCodeType = (t: CodeType): boolean => (OWN_ADDRESS_CODE_TYPES as readonly string[]).includes(t);

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

/**
 * A second-step code as typed: 6 digits from the authenticator app, or a recovery code
 * (XXXX-XXXX-XXXX; dashes, spaces and case do not matter).
 */
export const twoFactorCode = z
  .string({ error: 'errors.TWO_FACTOR_CODE_REQUIRED' })
  .trim()
  .min(1, { error: 'errors.TWO_FACTOR_CODE_REQUIRED' })
  .max(TWO_FACTOR_CODE_MAX, { error: 'errors.TWO_FACTOR_CODE_WRONG' });

/**
 * A WebAuthn credential's answer as @simplewebauthn/browser gives it (registration or assertion):
 * checked in depth by @simplewebauthn/server; here only its shape and size.
 */
const b64url = z.string().max(16_384).regex(/^[A-Za-z0-9_-]*$/, { error: 'validation.invalid' });
export const webauthnResponse = z.looseObject({
  id: b64url.min(1),
  rawId: b64url.min(1),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: b64url }),
  clientExtensionResults: z.looseObject({}).default({}),
});
/** A browser's WebAuthn answer as sent (registration or assertion JSON). */
export type WebauthnResponse = z.input<typeof webauthnResponse>;

/**
 * What an action that moves money or keys carries to prove it is the owner asking: with two-step
 * on, `twoFactorCode` or `passkey` (an assertion of the options from `user/api/2fa/passkey`);
 * without it, the e-mail `code` of the action's type (verify-code/send).
 */
export const stepUpFields = {
  twoFactorCode: twoFactorCode.optional(),
  passkey: webauthnResponse.optional(),
  code: verifyCode.optional(),
};


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
  /** A LOGIN e-mail code: needed only while the address is guarded (422 `A0248` says so). */
  code: verifyCode.optional(),
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
  .strictObject({
    code: verifyCode,
    paidPwd: payPwd,
    paidPwdAgain: z.string().max(32),
    /** Two-step on: a fresh two-step code (or a passkey) as well as the e-mail code. */
    twoFactorCode: twoFactorCode.optional(),
    passkey: webauthnResponse.optional(),
  })
  .refine((b) => b.paidPwd === b.paidPwdAgain, {
    error: 'errors.PAY_PWD_DIFFER',
    path: ['paidPwdAgain'],
  });
export type PaidPwdEditBody = z.input<typeof paidPwdEditBody>;

// ---- two-step verification (TOTP, recovery codes) and step-up ----

export const twoFactorSetupResult = z.object({
  /** Base32 secret, for typing into an authenticator app by hand. */
  secret: z.string(),
  /** otpauth://totp/… for the QR code. */
  otpauthUrl: z.string(),
});
export type TwoFactorSetupResult = z.infer<typeof twoFactorSetupResult>;

export const twoFactorEnableBody = z.strictObject({ code: twoFactorCode, password: z.string().min(1).max(128) });
export type TwoFactorEnableBody = z.input<typeof twoFactorEnableBody>;
export const twoFactorEnableResult = z.object({
  /** Ten codes, each good once in place of the app: shown this once, stored hashed. */
  recoveryCodes: z.array(z.string()),
});
export type TwoFactorEnableResult = z.infer<typeof twoFactorEnableResult>;

export const twoFactorDisableBody = z.strictObject({ code: twoFactorCode, password: z.string().min(1).max(128) });
export type TwoFactorDisableBody = z.input<typeof twoFactorDisableBody>;

export const TWO_FACTOR_METHODS = ['totp', 'recovery', 'passkey'] as const;
export type TwoFactorMethod = (typeof TWO_FACTOR_METHODS)[number];

/** `login`'s answer when two-step is on: no session yet, a challenge for `login/2fa`. */
export const twoFactorChallenge = z.object({
  twoFactorRequired: z.literal(true),
  /** Opaque; good for 5 minutes and 5 wrong codes. */
  challenge: z.string(),
  methods: z.array(z.enum(TWO_FACTOR_METHODS)),
});
export type TwoFactorChallenge = z.infer<typeof twoFactorChallenge>;

export const loginTwoFactorBody = z
  .strictObject({
    challenge: z.string().trim().min(20).max(100),
    /** A TOTP or recovery code… */
    code: twoFactorCode.optional(),
    /** …or a passkey's assertion of the options from login/2fa/passkey. */
    passkey: webauthnResponse.optional(),
  })
  .refine((b) => (b.code === undefined) !== (b.passkey === undefined), { error: 'validation.required', path: ['code'] });
export type LoginTwoFactorBody = z.input<typeof loginTwoFactorBody>;

/** login/2fa/passkey: the options for navigator.credentials.get of this sign-in. */
export const loginPasskeyBody = z.strictObject({ challenge: z.string().trim().min(20).max(100) });

/** Passkeys (user/api/passkeys…): at most this many per user. */
export const PASSKEYS_MAX = 10;
export const PASSKEY_NAME_MAX = 32;
export const passkeyItem = z.object({ id: z.number().int(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() });
export type PasskeyItem = z.infer<typeof passkeyItem>;
export const passkeyList = z.array(passkeyItem);
/** Adds the passkey the browser made from passkeys/options; the step-up: a fresh two-step code. */
export const passkeyAddBody = z.strictObject({
  name: z.string().trim().min(1).max(PASSKEY_NAME_MAX).regex(/^[^\p{Cc}]*$/u, { error: 'validation.invalid' }),
  response: webauthnResponse,
  twoFactorCode: twoFactorCode.optional(),
  passkey: webauthnResponse.optional(),
});
export const passkeyRemoveBody = z.strictObject({ id: z.number().int().positive(), twoFactorCode: twoFactorCode.optional(), passkey: webauthnResponse.optional() });

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
  /** Two-step verification (TOTP) is on: actions that move money or keys ask for its code. */
  twoFactorEnabled: z.boolean(),
  /** Invite code of the referrer bound at registration, or null. */
  referrerCode: z.string().nullable(),
  /** ISO 8601. */
  createdAt: z.string(),
});
export type UserInfo = z.infer<typeof userInfo>;

/** `user/api/security`: the account's protections as they stand. */
export const securityInfo = z.object({
  twoFactorEnabled: z.boolean(),
  /** ISO 8601 while the security lock holds withdrawals and new addresses back, else null. */
  withdrawLockedUntil: z.string().nullable(),
  /** Printed on the first line of every e-mail the platform sends the user; null: none set. */
  antiPhishingPhrase: z.string().nullable(),
});
export type SecurityInfo = z.infer<typeof securityInfo>;

export const ANTI_PHISHING_PHRASE_MAX = 32;
/** POST user/api/security/anti-phishing: an empty phrase removes it. A step-up (SECURITY code or two-step code). */
export const antiPhishingBody = z.strictObject({
  phrase: z.string().trim().max(ANTI_PHISHING_PHRASE_MAX).regex(/^[^\p{Cc}]*$/u, { error: 'validation.invalid' }),
  ...stepUpFields,
});
export type AntiPhishingBody = z.input<typeof antiPhishingBody>;

/** One of the user's live sessions (`user/api/sessions`). */
export const sessionInfo = z.object({
  id: z.number().int(),
  /** The session this request came with. */
  current: z.boolean(),
  createdAt: z.string(),
  /** ISO 8601, to the minute. */
  lastSeenAt: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type SessionInfo = z.infer<typeof sessionInfo>;
export const sessionList = z.array(sessionInfo);

/** Ends one session; another than the current one needs the step-up (twoFactorCode, or a SECURITY e-mail code). */
export const sessionRevokeBody = z.strictObject({
  id: z.number().int().positive(),
  ...stepUpFields,
});
export type SessionRevokeBody = z.input<typeof sessionRevokeBody>;

/** Ends every session but the current one: the step-up is required. */
export const sessionRevokeOthersBody = z.strictObject({ ...stepUpFields });
export type SessionRevokeOthersBody = z.input<typeof sessionRevokeOthersBody>;

export const sessionRevokeOthersResult = z.object({ ended: z.number().int() });

export const loginResult = z.object({
  /** Send as `Authorization: Bearer <token>`. */
  token: z.string(),
  /** ISO 8601 expiry of the token. */
  expiresAt: z.string(),
  user: userInfo,
});
export type LoginResult = z.infer<typeof loginResult>;

/** `user/api/login`: a session, or (two-step on) the challenge of the second step. */
export const loginAnswer = z.union([loginResult, twoFactorChallenge]);
export type LoginAnswer = z.infer<typeof loginAnswer>;
export const isTwoFactorChallenge = (a: LoginAnswer): a is TwoFactorChallenge => 'twoFactorRequired' in a;

export const paidPwdJudgeResult = z.boolean();

/** GET user/api/site: what the operator configured that screens show (public, no session). */
export const siteInfo = z.object({
  /** Where users write about their data (the privacy policy); null: unset. */
  supportMail: z.string().nullable(),
  /** Addresses our exchange requests leave from, to whitelist with an API key; empty: none to advise. */
  egressIps: z.array(z.string()),
});
export type SiteInfo = z.infer<typeof siteInfo>;
