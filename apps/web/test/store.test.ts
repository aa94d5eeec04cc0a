import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DataSourceItem, UserInfo } from '@lq/contracts';
import { pickCurrentDataSource } from '../src/features/market/selection';
import type { KeyValueStorage } from '../src/lib/storage';
import { createAppStore, DEFAULT_CURRENT_DATA_SOURCE } from '../src/lib/store';

function memory(initial: Record<string, string> = {}): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

const user: UserInfo = { userName: 'a@b.co', mail: 'a@b.co', userCode: 'ABC123', nickname: null, userLevel: 'none', locale: 'en-US', isVip: false, hasPaidPwd: false,
    twoFactorEnabled: false, referrerCode: null, createdAt: '2025-01-01T00:00:00Z' };
const src = (type: string, isOpen = true): DataSourceItem => ({ type, isOpen, text: type, value: type, icon: `/icons/${type}.svg` });

afterEach(() => vi.restoreAllMocks());

describe('app store', () => {
  it("follows the browser's languages on a first visit when one is ours, else zh-CN; a stored locale wins", () => {
    expect(createAppStore(memory(), ['ja-JP', 'ja', 'en-US']).getState().locale).toBe('ja-JP');
    expect(createAppStore(memory(), ['pt-BR', 'en-GB']).getState().locale).toBe('en-US');
    expect(createAppStore(memory(), ['zh-Hant-TW']).getState().locale).toBe('zh-TW');
    expect(createAppStore(memory(), ['zh-HK']).getState().locale).toBe('zh-TW');
    expect(createAppStore(memory(), ['zh-SG']).getState().locale).toBe('zh-CN');
    expect(createAppStore(memory(), ['id']).getState().locale).toBe('in_ID');
    expect(createAppStore(memory(), ['fr-FR', 'de']).getState().locale).toBe('zh-CN');
    const stored = memory({ locale: 'th-TH' });
    expect(createAppStore(stored, ['ja-JP']).getState().locale).toBe('th-TH');
    const first = memory();
    createAppStore(first, ['vi-VN']);
    expect(first.data.get('locale')).toBe('vi-VN');
  });

  it('starts with the spec defaults and stores zh-CN as the locale when none is stored', () => {
    const storage = memory();
    const store = createAppStore(storage, []);
    const s = store.getState();
    expect(s.locale).toBe('zh-CN');
    expect(storage.data.get('locale')).toBe('zh-CN');
    expect(s.theme).toBe('forex');
    expect(s.token).toBeNull();
    expect(s.menuShow).toBe(true);
    expect(s.walletData).toBeNull();
    expect(s.currentDataSource).toEqual(DEFAULT_CURRENT_DATA_SOURCE);
    expect(s.currentDataSource).toMatchObject({ type: 'mt5', isOpen: true });
  });

  it('persists exactly the keys of spec §3', () => {
    const storage = memory();
    const store = createAppStore(storage);
    store.getState().setSession('tok', user);
    store.getState().setLocale('ja-JP');
    store.getState().setTheme('crypto');
    store.getState().setCurrentDataSource(src('binance'));
    store.getState().setMenuShow(false);
    expect([...storage.data.keys()].sort()).toEqual(['currentDataSource', 'locale', 'theme', 'token', 'user']);
    expect(storage.data.get('token')).toBe('tok');
    expect(JSON.parse(storage.data.get('user')!)).toEqual(user);
    const again = createAppStore(storage).getState();
    expect([again.token, again.locale, again.theme, again.currentDataSource.type]).toEqual(['tok', 'ja-JP', 'crypto', 'binance']);
  });

  it('clears token and user on logout', () => {
    const storage = memory();
    const store = createAppStore(storage);
    store.getState().setSession('tok', user);
    store.getState().clearSession();
    expect(storage.data.has('token')).toBe(false);
    expect(storage.data.has('user')).toBe(false);
    expect(store.getState().user).toBeNull();
  });

  it('rejects themes other than forex and crypto with a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const store = createAppStore(memory());
    expect(store.getState().setTheme('light')).toBe(false);
    expect(store.getState().theme).toBe('forex');
    expect(warn).toHaveBeenCalledOnce();
  });

  it('ignores broken stored values', () => {
    const s = createAppStore(memory({ theme: 'pink', currentDataSource: '{oops', locale: 'xx', user: '{"mail":1}' })).getState();
    expect(s.theme).toBe('forex');
    expect(s.currentDataSource).toEqual(DEFAULT_CURRENT_DATA_SOURCE);
    expect(s.locale).toBe('zh-CN');
    expect(s.user).toBeNull(); // a user without a token is not a session
  });
});

describe('data-source selection (spec §4)', () => {
  const list = [src('mt5'), src('binance'), src('okx', false)];
  it('prefers the server selection', () => {
    expect(pickCurrentDataSource(list, 'binance', src('mt5'))?.type).toBe('binance');
  });
  it('else keeps the stored source of the same type, taking the fresh entry', () => {
    const stored = { ...src('binance'), text: 'old label' };
    const picked = pickCurrentDataSource(list, null, stored);
    expect(picked).toBe(list[1]);
  });
  it('else takes the first', () => {
    expect(pickCurrentDataSource(list, 'gone', src('also-gone'))?.type).toBe('mt5');
    expect(pickCurrentDataSource(list, undefined, null)?.type).toBe('mt5');
    expect(pickCurrentDataSource([], 'mt5', null)).toBeUndefined();
  });
});
