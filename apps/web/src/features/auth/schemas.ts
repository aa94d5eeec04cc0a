import { z } from 'zod';
import { password, userMail, verifyCode, INVITE_CODE_MAX } from '@lq/contracts';

// Form schemas reuse the field schemas of contracts; form-only fields (confirmation, agreement)
// are added here and stripped before sending.

// `code`: shown (and required) only while the address is guarded (A0248); empty otherwise.
export const loginForm = z.object({ userMail, password: z.string().min(1).max(128), code: z.union([z.literal(''), verifyCode]) });
export type LoginForm = z.input<typeof loginForm>;

export const registerForm = z
  .object({
    userMail,
    code: verifyCode,
    password,
    passwordAgain: z.string().max(128),
    inviteCode: z.string().trim().max(INVITE_CODE_MAX),
    country: z.string().regex(/^[A-Z]{2}$/, { error: 'validation.country' }),
    agree: z.boolean().refine((v) => v, { error: 'validation.agree' }),
  })
  .refine((f) => f.password === f.passwordAgain, { error: 'errors.PASSWORDS_DIFFER', path: ['passwordAgain'] });
export type RegisterForm = z.input<typeof registerForm>;

export const resetForm = z
  .object({ userMail, code: verifyCode, password, passwordAgain: z.string().max(128) })
  .refine((f) => f.password === f.passwordAgain, { error: 'errors.PASSWORDS_DIFFER', path: ['passwordAgain'] });
export type ResetForm = z.input<typeof resetForm>;

/** Checks only the e-mail field, for the send-code button. */
export const mailOnly = z.object({ userMail });
