import { describe, expect, it } from 'vitest';
import type { UserInfo } from '@lq/contracts';
import { onStorageChange, onUnauthorized, type SessionSyncDeps } from '../src/lib/sessionSync';
import type { KeyValueStorage } from '../src/lib/storage';
import { createAppStore } from '../src/lib/store';

const user = (mail: string): UserInfo => ({ userName: mail, mail, userCode: 'ABC123', nickname: null, userLevel: 'none', locale: 'en-US', isVip: false, hasPaidPwd: false,
    twoFactorEnabled: false, referrerCode: null, createdAt: '2025-01-01T00:00:00Z' });

/** Two tabs of one browser: one localStorage, a store each. */
function browser() {
  const data = new Map<string, string>();
  const storage: KeyValueStorage = { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
  const tab = () => {
    const events: string[] = [];
    let loginOpened = 0;
    const store = createAppStore(storage);
    const deps: SessionSyncDeps = { store, storage, emit: (name) => events.push(name), openLogin: () => loginOpened++ };
    return { store, deps, events, logins: () => loginOpened };
  };
  return { data, tab };
}

describe('one session across tabs', () => {
  it("a stale tab's 401 keeps the newer session another tab stored, and takes it over", () => {
    const b = browser();
    const stale = b.tab();
    stale.store.getState().setSession('old', user('a@b.co'));
    const fresh = b.tab();
    fresh.store.getState().setSession('new', user('a@b.co'));
    // The stale tab's request carried "old", revoked by the newer login.
    expect(onUnauthorized(stale.deps, 'old')).toBe('adopted');
    expect(b.data.get('token')).toBe('new');
    expect(stale.store.getState().token).toBe('new');
    expect(stale.logins()).toBe(0);
    // Cached data of the old session goes, the new one starts.
    expect(stale.events).toEqual(['logout', 'login']);
  });

  it('a 401 for the stored token ends the session in this tab and in storage', () => {
    const b = browser();
    const tab = b.tab();
    tab.store.getState().setSession('tok', user('a@b.co'));
    expect(onUnauthorized(tab.deps, 'tok')).toBe('ended');
    expect(b.data.has('token')).toBe(false);
    expect(tab.store.getState().token).toBeNull();
    expect(tab.events).toEqual(['logout']);
    expect(tab.logins()).toBe(1);
    // Without any session a 401 just opens the login page.
    expect(onUnauthorized(b.tab().deps, null)).toBe('ended');
  });

  it('a logout in another tab reaches this one; a login there is taken over', () => {
    const b = browser();
    const here = b.tab();
    const there = b.tab();
    here.store.getState().setSession('t1', user('a@b.co'));
    // The other tab logs out: storage loses the token, this tab gets the storage event.
    there.store.getState().clearSession();
    onStorageChange(here.deps, 'token', null);
    expect(here.store.getState().token).toBeNull();
    expect(here.events).toEqual(['logout']);
    expect(here.logins()).toBe(1);
    // The other tab logs in as someone else.
    there.store.getState().setSession('t2', user('c@d.co'));
    onStorageChange(here.deps, 'token', 't2');
    onStorageChange(here.deps, 'user', JSON.stringify(user('c@d.co')));
    expect(here.store.getState().token).toBe('t2');
    expect(here.store.getState().user?.mail).toBe('c@d.co');
    expect(here.events).toEqual(['logout', 'login']);
    // Other keys, and this tab's own token, change nothing.
    onStorageChange(here.deps, 'theme', 'crypto');
    onStorageChange(here.deps, 'token', 't2');
    expect(here.events).toEqual(['logout', 'login']);
    // storage.clear() in the other tab (key null) ends the session too.
    b.data.clear();
    onStorageChange(here.deps, null, null);
    expect(here.store.getState().token).toBeNull();
  });
});
