import { HDKey } from '@scure/bip32';
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
      TRUST_PROXY: '127.0.0.1, 10.0.0.0/8',
    });
    expect(c).toMatchObject({
      PORT: 9000,
      ROLE: 'worker',
      CORS_ORIGINS: ['https://a.example', 'https://b.example'],
      TRUST_PROXY: ['127.0.0.1', '10.0.0.0/8'],
    });
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it('takes TRUST_PROXY as addresses, CIDRs or a hop count, and refuses true with the reason', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '::1,fd00::/8' }).TRUST_PROXY).toEqual(['::1', 'fd00::/8']);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: true would trust the client's own X-Forwarded-For/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33,proxy.local' })).toThrow(/TRUST_PROXY: not an IP address or CIDR: 10.0.0.0\/33, proxy.local/);
    expect(() => loadConfig({ TRUST_PROXY: '0.5' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '11' })).toThrow(/TRUST_PROXY: a hop count is 1 to 10/);
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

  it('takes the platform timezone as an IANA name (UTC+8 by default) and refuses an unknown one', () => {
    expect(loadConfig({}).PLATFORM_TIMEZONE).toBe('Asia/Shanghai');
    expect(loadConfig({ PLATFORM_TIMEZONE: 'UTC' }).PLATFORM_TIMEZONE).toBe('UTC');
    expect(() => loadConfig({ PLATFORM_TIMEZONE: 'Mars/Olympus' })).toThrow(/PLATFORM_TIMEZONE: must be an IANA time zone/);
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

  it('stops at start-up on a bad deposit key, naming the key and never echoing a private one', () => {
    const xprv = HDKey.fromMasterSeed(new Uint8Array(32).fill(7)).privateExtendedKey;
    expect(() => loadConfig({ DEPOSIT_XPUB: xprv })).toThrow(/DEPOSIT_XPUB: is an extended PRIVATE key/);
    for (const [env, key] of [
      [{ DEPOSIT_XPUB: 'xpub-garbage' }, 'DEPOSIT_XPUB'],
      [{ DEPOSIT_XPUB: xprv }, 'DEPOSIT_XPUB'],
      [{ BSC_USDT_CONTRACT: '0x123' }, 'BSC_USDT_CONTRACT'],
      [{ TRON_USDT_CONTRACT: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u' }, 'TRON_USDT_CONTRACT'],
      [{ BSC_RPC_URL: 'ftp://x' }, 'BSC_RPC_URL'],
    ] as const) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      try {
        loadConfig(env);
      } catch (e) {
        expect((e as Error).message).toContain(`${key}:`);
        expect((e as Error).message).not.toContain(xprv.slice(4));
      }
    }
    const c = loadConfig({});
    expect(c).toMatchObject({ BSC_CONFIRMATIONS: 15, TRON_CONFIRMATIONS: 20, BSC_USDT_CONTRACT: '0x55d398326f99059fF775485246999027B3197955' });
  });

  it('pays withdrawals by hand unless the hot wallet has its key and BSC endpoint; a bad key is never echoed', () => {
    expect(loadConfig({}).WITHDRAW_PAYOUT).toBe('manual');
    const key = `0x${'ab'.repeat(32)}`;
    const bad = `0x${'zz'.repeat(32)}`;
    for (const [env, named] of [
      [{ WITHDRAW_PAYOUT: 'hot-wallet', BSC_RPC_URL: 'http://127.0.0.1:8545' }, 'HOT_WALLET_KEY: is required'],
      [{ WITHDRAW_PAYOUT: 'hot-wallet', HOT_WALLET_KEY: key }, 'BSC_RPC_URL: is required'],
      [{ WITHDRAW_PAYOUT: 'hot-wallet', HOT_WALLET_KEY: bad, BSC_RPC_URL: 'http://127.0.0.1:8545' }, 'HOT_WALLET_KEY: must be a private key'],
      [{ WITHDRAW_PAYOUT: 'cold' }, 'WITHDRAW_PAYOUT:'],
    ] as const) {
      let message = '';
      try {
        loadConfig(env);
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        message = (e as Error).message;
      }
      expect(message).toContain(named);
      expect(message).not.toContain('zzzz');
      expect(message).not.toContain('abab');
    }
    expect(loadConfig({ WITHDRAW_PAYOUT: 'hot-wallet', HOT_WALLET_KEY: key, BSC_RPC_URL: 'http://127.0.0.1:8545' }).WITHDRAW_PAYOUT).toBe('hot-wallet');
  });

  it('the simulated card provider serves the embedded demo only: beside real money it is off, and refused unless acknowledged', () => {
    const xpub = HDKey.fromMasterSeed(new Uint8Array(32).fill(7)).derive("m/44'/60'/0'").publicExtendedKey;
    expect(loadConfig({}).CARD_PROVIDER).toBe('simulated');
    const realMoney = [
      { BSC_RPC_URL: 'http://127.0.0.1:8545' },
      { TRON_API_URL: 'http://127.0.0.1:8090' },
      { DEPOSIT_XPUB: xpub },
      { WITHDRAW_PAYOUT: 'manual' },
      { HOT_WALLET_KEY: `0x${'ab'.repeat(32)}` },
    ];
    for (const env of realMoney) {
      const key = Object.keys(env)[0];
      // Unset: closed where real money moves.
      expect(loadConfig(env).CARD_PROVIDER, key).toBe('none');
      // Asked for without the acknowledgement: start-up stops, naming both keys.
      expect(() => loadConfig({ ...env, CARD_PROVIDER: 'simulated' }), key).toThrow(new RegExp(`CARD_PROVIDER: simulated credits wallets without any payment.*${key}.*CARD_SIMULATED_WITH_REAL_MONEY`));
      expect(loadConfig({ ...env, CARD_PROVIDER: 'simulated', CARD_SIMULATED_WITH_REAL_MONEY: 'true' }).CARD_PROVIDER, key).toBe('simulated');
    }
  });

  it('the support address and the egress IPs: checked at start-up, absent by default', () => {
    const unset = loadConfig({});
    expect([unset.SUPPORT_MAIL, unset.EGRESS_IPS]).toEqual([undefined, []]);
    expect(loadConfig({ SUPPORT_MAIL: 'help@lq.test', EGRESS_IPS: '203.0.113.7, 2001:db8::1' })).toMatchObject({ SUPPORT_MAIL: 'help@lq.test', EGRESS_IPS: ['203.0.113.7', '2001:db8::1'] });
    expect(() => loadConfig({ SUPPORT_MAIL: 'nobody' })).toThrow(/SUPPORT_MAIL/);
    expect(() => loadConfig({ EGRESS_IPS: '203.0.113.7, our-server' })).toThrow(/EGRESS_IPS/);
  });

  it('amounts are parsed exactly: a value with 7 decimals, in exponent form or below zero stops start-up with the key named', () => {
    expect(loadConfig({})).toMatchObject({ CARD_DEPOSIT_MIN: 10_000_000n, CARD_DEPOSIT_MAX: 5_000_000_000n });
    expect(loadConfig({ CARD_DEPOSIT_MIN: '0.5', CARD_DEPOSIT_MAX: '2500.25' })).toMatchObject({ CARD_DEPOSIT_MIN: 500_000n, CARD_DEPOSIT_MAX: 2_500_250_000n });
    for (const [env, named] of [
      [{ CARD_DEPOSIT_MIN: '10.0000001' }, 'CARD_DEPOSIT_MIN: must be an amount'],
      [{ CARD_DEPOSIT_MAX: '5e3' }, 'CARD_DEPOSIT_MAX: must be an amount'],
      [{ CARD_DEPOSIT_MAX: '-1' }, 'CARD_DEPOSIT_MAX: must be an amount'],
      [{ CARD_DEPOSIT_MAX: '0' }, 'CARD_DEPOSIT_MAX: must be an amount'],
      [{ CARD_DEPOSIT_MIN: '20', CARD_DEPOSIT_MAX: '10' }, 'CARD_DEPOSIT_MIN: is above CARD_DEPOSIT_MAX'],
    ] as const) {
      expect(() => loadConfig(env), named).toThrow(named);
    }
  });
});
