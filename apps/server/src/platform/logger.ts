import type { LoggerOptions } from 'pino';

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
];

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service: 'lightning-quant' },
  };
}
