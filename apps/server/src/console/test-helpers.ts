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
  let approver: Awaited<ReturnType<typeof signedIn>> | undefined;
  /**
   * A money settings change (settings/money, settings/prices, settings/rebates) asked by `op` and
   * approved by a second operator, as the two-person rule needs; values already in force are left
   * as they are. Answers the settings after.
   */
  async function settingsApproved<T>(op: { token: string }, url: '/settings/money' | '/settings/prices' | '/settings/rebates', body: unknown): Promise<T> {
    const asked = await t().call('POST', `/console/api${url}`, { token: op.token, body });
    const read = async () => (await t().call('GET', `/console/api${url === '/settings/money' ? url : '/settings/business'}`, { token: op.token })).json<Envelope<T>>().data;
    if (asked.json<Envelope>().code === 'A0396') return read();
    expect(asked.statusCode, asked.body).toBe(200);
    const settings = asked.json<Envelope<{ pending: { id: number } | Record<string, { id: number } | null> }>>().data;
    const group = url.slice('/settings/'.length);
    const pending = (url === '/settings/money' ? settings.pending : (settings.pending as Record<string, { id: number } | null>)[group]) as { id: number };
    approver ??= await signedIn();
    const approved = await t().call('POST', '/console/api/approvals/approve', { token: approver.token, body: { id: pending.id } });
    expect(approved.statusCode, approved.body).toBe(200);
    return read();
  }
  return { ops, newOperator, login, signedIn, settingsApproved };
}
