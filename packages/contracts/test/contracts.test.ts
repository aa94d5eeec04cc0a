import { describe, expect, it } from 'vitest';
import {
  ERRORS,
  normalizeFullWidth,
  paidPwdEditBody,
  parseLocale,
  registerBody,
  resolveLocale,
  toHalfWidth,
  toLangHeader,
  nicknameBody,
  loginBody,
  isVipLevel,
} from '../src';

describe('normalize', () => {
  it('converts full-width ASCII and the ideographic space', () => {
    expect(toHalfWidth('ＡＢＣ１２３＠ｅｘａｍｐｌｅ．ｃｏｍ')).toBe('ABC123@example.com');
    expect(toHalfWidth('a\u3000b！～')).toBe('a b!~');
    expect(toHalfWidth('中文不變')).toBe('中文不變');
  });
  it('walks objects and arrays deeply, values only', () => {
    const input = { ｋｅｙ: 'ｖａｌ', list: ['１', { n: 1, s: '２' }], nil: null, ok: true };
    expect(normalizeFullWidth(input)).toEqual({
      ｋｅｙ: 'val',
      list: ['1', { n: 1, s: '2' }],
      nil: null,
      ok: true,
    });
    expect(input.list[0]).toBe('１');
  });
});

describe('locales', () => {
  it('accepts both spellings and defaults to zh-TW', () => {
    expect(parseLocale('zh_TW')).toBe('zh-TW');
    expect(parseLocale('EN-us')).toBe('en-US');
    expect(parseLocale('in_ID')).toBe('in_ID');
    expect(parseLocale('in-ID')).toBe('in_ID');
    expect(parseLocale('xx')).toBeUndefined();
    expect(resolveLocale(undefined)).toBe('zh-TW');
    expect(toLangHeader('ja-JP')).toBe('ja_JP');
  });
});

describe('errors', () => {
  it('codes are unique and well formed', () => {
    const codes = Object.values(ERRORS).map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const c of codes) expect(c).toMatch(/^[ABC]\d{4}$/);
  });
});

describe('schemas', () => {
  const reg = { userMail: ' A@B.co ', password: 'abc12345', code: '123456', country: 'th' };
  it('register normalizes mail and country and rejects unknown fields', () => {
    expect(registerBody.parse(reg)).toMatchObject({ userMail: 'a@b.co', country: 'TH' });
    expect(registerBody.safeParse({ ...reg, extra: 1 }).success).toBe(false);
  });
  it('takes addresses a mail server takes, refuses the rest', () => {
    for (const ok of ['a@b.co', 'first.last+tag@sub.example.co', "o'neil_99@x-y.example", 'a@bücher.de'])
      expect(registerBody.safeParse({ ...reg, userMail: ok }).success, ok).toBe(true);
    for (const bad of ['M*@#CErW.Xd0<<&2>cz', '<a>@b.co', 'a@b', 'a..b@c.co', '.a@b.co', 'a@-b.co', 'a@b.c', 'ünï@example.com', 'a b@c.co'])
      expect(registerBody.safeParse({ ...reg, userMail: bad }).success, bad).toBe(false);
  });
  it('register rejects weak passwords', () => {
    for (const p of ['short1', 'onlyletters', '12345678', 'a1'.repeat(17)])
      expect(registerBody.safeParse({ ...reg, password: p }).success, p).toBe(false);
  });
  it('payment password is six digits, twice the same', () => {
    expect(
      paidPwdEditBody.safeParse({ code: '1', paidPwd: '123456', paidPwdAgain: '123456' }).success,
    ).toBe(true);
    const differ = paidPwdEditBody.safeParse({
      code: '1',
      paidPwd: '123456',
      paidPwdAgain: '123457',
    });
    expect(differ.error?.issues[0].message).toBe('errors.PAY_PWD_DIFFER');
    const format = paidPwdEditBody.safeParse({
      code: '1',
      paidPwd: '12345a',
      paidPwdAgain: '12345a',
    });
    expect(format.error?.issues[0].message).toBe('errors.PAY_PWD_FORMAT');
  });
  it('nickname counts characters, not UTF-16 units', () => {
    expect(nicknameBody.safeParse({ nickname: '閃電量化交易用戶' }).success).toBe(true);
    expect(nicknameBody.safeParse({ nickname: '😀😀😀😀😀😀😀😀' }).success).toBe(true);
    expect(nicknameBody.safeParse({ nickname: '123456789' }).success).toBe(false);
  });
  it('login requires both fields', () => {
    expect(loginBody.safeParse({ userMail: 'a@b.co' }).success).toBe(false);
  });
  it('VIP is a level containing VIP', () => {
    expect(isVipLevel('VIP2')).toBe(true);
    expect(isVipLevel('none')).toBe(false);
  });
});
