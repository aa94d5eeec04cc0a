// One session per browser, whatever the number of tabs: every tab shares the stored token (spec §3
// `token` / `user` in localStorage), so a tab follows a login or logout made in another, and a
// stale tab's 401 never clears the newer session another tab stored.
import { STORAGE_KEYS, type UserInfo } from '@lq/contracts';
import type { AppEvents } from './events';
import { readJson, type KeyValueStorage } from './storage';
import type { AppStoreApi } from './store';

export interface SessionSyncDeps {
  store: AppStoreApi;
  storage: KeyValueStorage;
  emit(name: keyof Pick<AppEvents, 'login' | 'logout'>): void;
  openLogin(): void;
}

/**
 * The session another tab stored, taken over by this one (false when none is stored). A different
 * session first ends this one (`logout`: cached data of the old one goes), then starts (`login`).
 */
function adoptStored(deps: SessionSyncDeps): boolean {
  const token = deps.storage.getItem(STORAGE_KEYS.token);
  const user = readJson<UserInfo>(deps.storage, STORAGE_KEYS.user);
  if (!token || !user || typeof user !== 'object') return false;
  const previous = deps.store.getState().token;
  deps.store.getState().setSession(token, user);
  if (previous !== token) {
    if (previous !== null) deps.emit('logout');
    deps.emit('login');
  }
  return true;
}

function endSession(deps: SessionSyncDeps): void {
  const hadSession = deps.store.getState().token !== null;
  deps.store.getState().clearSession();
  if (hadSession) deps.emit('logout');
  deps.openLogin();
}

/**
 * HTTP 401 for a request sent with `failedToken`: the session ends only when that token is still
 * the stored one. When another tab stored a newer one meanwhile, this tab takes it over instead.
 */
export function onUnauthorized(deps: SessionSyncDeps, failedToken: string | null): 'ended' | 'adopted' {
  const stored = deps.storage.getItem(STORAGE_KEYS.token) || null;
  if (stored !== null && stored !== failedToken && adoptStored(deps)) return 'adopted';
  endSession(deps);
  return 'ended';
}

/**
 * A `storage` event from another tab: a logout there ends the session here, a login there (or a
 * new user) is taken over. Events for other keys, or carrying this tab's own token, change nothing.
 */
export function onStorageChange(deps: SessionSyncDeps, key: string | null, newValue: string | null): void {
  // key null: the other tab cleared the whole storage.
  if (key !== null && key !== STORAGE_KEYS.token && key !== STORAGE_KEYS.user) return;
  const current = deps.store.getState();
  const stored = key === STORAGE_KEYS.token ? newValue : deps.storage.getItem(STORAGE_KEYS.token);
  if (!stored) {
    if (current.token !== null) endSession(deps);
    return;
  }
  if (stored === current.token && key !== STORAGE_KEYS.user) return;
  adoptStored(deps);
}
