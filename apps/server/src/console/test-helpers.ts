// Shared by the console's database tests: operators added through `npm run ops` (in process) and
// signed in with their password and a TOTP code.
import { expect } from 'vitest';
import type { ConsoleSession } from '@lq/contracts';
import type { Envelope, TestApp } from '../../test/helpers';
import { opsRunner } from '../../test/ops-runner';
import { totpCode } from '../platform/totp';

export function consoleTestKit(t: () => TestApp) {
  const ops = opsRunner(t, { LQ_OPERATOR: '' });
  let counter = 0;
  /** A new operator through ops, with what operator:add printed. */
  async function newOperator() {
    const mail = `op${++counter}.${Date.now()}@lightning-quant.example`;
    const r = await ops('operator:add', mail);
    expect(r.code).toBe(0);
    const password = /password:\s+(\S+)/.exec(r.out)![1];
    const secret = /TOTP secret:\s+(\S+)/.exec(r.out)![1];
    const recovery = [...r.out.matchAll(/^\s+([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})$/gm)].map((m) => m[1]);
    expect(r.out).toMatch(/otpauth:\/\/totp\/.+secret=/);
    return { mail, password, secret, recovery };
  }
  const login = async (mail: string, password: string) => t().call('POST', '/console/api/login', { body: { userMail: mail, password } });
  /** A new operator signed in, with a fresh second factor unless told otherwise. */
  async function signedIn(withSecondFactor = true) {
    const op = await newOperator();
    const res = await login(op.mail, op.password);
    expect(res.statusCode).toBe(200);
    const session = res.json<Envelope<ConsoleSession>>().data;
    expect(session.secondFactorUntil).toBeNull();
    if (withSecondFactor) {
      const proved = await t().call('POST', '/console/api/second-factor', { token: session.token, body: { code: totpCode(op.mail, op.secret) } });
      expect(proved.statusCode).toBe(200);
    }
    return { ...op, token: session.token };
  }
  return { ops, newOperator, login, signedIn };
}
