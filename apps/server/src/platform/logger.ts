import { stdSerializers, type LoggerOptions } from 'pino';

/** Paths pino blanks out wherever they appear in a log line. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.password',
  '*.passwordAgain',
  '*.oldPassword',
  '*.paidPwd',
  '*.paidPwdAgain',
  // a verification code is only secret inside a request body ('code' elsewhere is an error code)
  'body.code',
  '*.body.code',
  '*.token',
  '*.apiKey',
  '*.secretKey',
  '*.passphrase',
  '*.bridgeToken',
  '*.secret',
  'password',
  'paidPwd',
  'token',
  'apiKey',
  'secretKey',
  'passphrase',
  'bridgeToken',
  // two-step: codes, the sign-in challenge, the secret's URL and the recovery codes
  '*.twoFactorCode',
  '*.challenge',
  '*.otpauthUrl',
  '*.recoveryCodes',
  'twoFactorCode',
  'challenge',
  'otpauthUrl',
  'recoveryCodes',
];

/**
 * A logged error without the values of a failed query: drizzle puts them in `params` and in the
 * message ("Failed query: … params: a@b.example,…"), and they are users' data (e-mails, names).
 * The SQL text itself (placeholders only) stays: it is what an operator needs.
 */
export function errWithoutParams(err: unknown): Record<string, unknown> {
  const out = stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
  const scrub = (o: Record<string, unknown>, depth: number): Record<string, unknown> => {
    const copy: Record<string, unknown> = { ...o };
    if ('params' in copy) copy.params = '[redacted]';
    for (const key of ['message', 'stack'] as const) {
      if (typeof copy[key] === 'string') copy[key] = copy[key].replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, '\nparams: [redacted]');
    }
    if (depth < 3 && copy.cause && typeof copy.cause === 'object') copy.cause = scrub(copy.cause as Record<string, unknown>, depth + 1);
    return copy;
  };
  return scrub(out, 0);
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: errWithoutParams },
    base: { service: 'lightning-quant' },
  };
}
