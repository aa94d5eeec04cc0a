// An endpoint URL's secret (an API key in its path or query, a password) never reaches an error a
// log or an operator reads: the chain readers' errors name the endpoint by its origin only.
import { stdSerializers } from 'pino';
import { describe, expect, it } from 'vitest';
import { withoutUrlSecrets } from '../platform/urls';
import { hotWalletOf } from '../withdrawals';
import { bscChain } from './bsc';
import { tronChain } from './tron';

const SECRET = 'k3y-0f-the-rpc-provider';

describe('URLs in errors', () => {
  it('cuts every URL to its origin', () => {
    expect(withoutUrlSecrets(`HTTP request failed. URL: https://bsc.example/v1/${SECRET}?x=1 Status: 500`)).toBe('HTTP request failed. URL: https://bsc.example/… Status: 500');
    expect(withoutUrlSecrets(`at http://user:${SECRET}@node.example:8545`)).toBe('at http://node.example:8545');
    expect(withoutUrlSecrets('plain text, http://host.example/ and more')).toBe('plain text, http://host.example and more');
  });

  it('a chain endpoint that fails is named without its path, in the message and in what the logger writes', async () => {
    const url = `http://127.0.0.1:9/v1/${SECRET}`;
    const token = '0x55d398326f99059fF775485246999027B3197955';
    const failures = await Promise.all([
      bscChain({ url, token, timeoutMs: 2_000 }).head().catch((e: unknown) => e),
      bscChain({ url, token, timeoutMs: 2_000 }).transaction(`0x${'ab'.repeat(32)}`).catch((e: unknown) => e),
      hotWalletOf({ url, token, privateKey: `0x${'11'.repeat(32)}` }).pendingNonce().catch((e: unknown) => e),
      tronChain({ url, token: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', timeoutMs: 2_000 }).head().catch((e: unknown) => e),
    ]);
    for (const e of failures) {
      expect(e).toBeInstanceOf(Error);
      const logged = JSON.stringify(stdSerializers.err(e as Error));
      expect(logged).not.toContain(SECRET);
      expect((e as Error).message).toMatch(/^(BSC|Tron) /);
    }
  });
});
