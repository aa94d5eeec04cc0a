import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { errWithoutParams, REDACT_PATHS } from './logger';

describe('config', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ PORT: 8080, HOST: '127.0.0.1', ROLE: 'all', CORS_ORIGINS: [] });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.SMTP_URL).toBeUndefined();
    expect(c.dataDir.endsWith('/data')).toBe(true);
    expect(c.webDist.endsWith('apps/web/dist')).toBe(true);
  });

  it('parses values and ignores empty ones', () => {
    const c = loadConfig({
      PORT: '9000',
      ROLE: 'worker',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      DATABASE_URL: '',
      TRUST_PROXY: 'true',
    });
    expect(c).toMatchObject({
      PORT: 9000,
      ROLE: 'worker',
      CORS_ORIGINS: ['https://a.example', 'https://b.example'],
      TRUST_PROXY: true,
    });
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it('names every bad key in one error', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', ROLE: 'boss', DATABASE_URL: 'mysql://x', SMTP_URL: 'http://x' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const msg = (error as Error).message;
    for (const key of ['PORT', 'ROLE', 'DATABASE_URL', 'SMTP_URL']) expect(msg).toContain(key);
  });

  it('reads a renamed key under its old name when the new one is not set', () => {
    expect(loadConfig({ ACCOUNT_RATE_PER_MINUTE: '7' }).USER_RATE_PER_MINUTE).toBe(7);
    expect(loadConfig({ ACCOUNT_RATE_PER_MINUTE: '7', USER_RATE_PER_MINUTE: '9' }).USER_RATE_PER_MINUTE).toBe(9);
    expect(loadConfig({}).USER_RATE_PER_MINUTE).toBe(20);
  });

  it("logs a failed query's SQL but never its values (users' e-mails)", () => {
    const cause = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
    const err = Object.assign(new Error('Failed query: select id from users where mail = $1\nparams: alice@example.com,bob@example.com', { cause }), {
      query: 'select id from users where mail = $1',
      params: ['alice@example.com'],
    });
    const logged = JSON.stringify(errWithoutParams(err));
    expect(logged).not.toContain('example.com');
    expect(logged).toContain('select id from users where mail = $1');
    expect(logged).toContain('0x00');
  });

  it('redacts secrets in logs', () => {
    for (const p of [
      'req.headers.authorization',
      '*.password',
      '*.paidPwd',
      '*.token',
      '*.apiKey',
      '*.secretKey',
      '*.passphrase',
      'body.code',
    ])
      expect(REDACT_PATHS).toContain(p);
  });
});
