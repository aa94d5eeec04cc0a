// Session wiring shared by every feature: the app's API client, 401 handling, login and logout.
import type { UserInfo } from '@lq/contracts';
import i18n from 'i18next';
import { createApiClient, TransportError } from './api';
import { emit } from './events';
import { onStorageChange, onUnauthorized, type SessionSyncDeps } from './sessionSync';
import { browserStorage } from './storage';
import { appStore } from './store';
import { throttle } from './throttle';
import { showToast } from './toast';

export const LOGIN_PATH = '/pages/login/login';

const currentPath = () => window.location.hash.replace(/^#/, '').split('?')[0] || '/';

const openLoginOnce = throttle(() => {
  if (currentPath() !== LOGIN_PATH) window.location.hash = `#${LOGIN_PATH}`;
});

const sync: SessionSyncDeps = {
  store: appStore,
  storage: browserStorage(),
  emit: (name) => emit(name),
  openLogin: () => openLoginOnce(),
};

/**
 * HTTP 401: stored user and token cleared, store reset, login page opened (spec §4), unless
 * another tab has stored a newer session since the request left: this tab then takes it over.
 */
export function handleUnauthorized(failedToken: string | null): void {
  onUnauthorized(sync, failedToken);
}

// A login or logout in another tab reaches this one.
if (typeof window !== 'undefined') window.addEventListener('storage', (e) => onStorageChange(sync, e.key, e.newValue));

export const api = createApiClient({
  fetch: (...args) => fetch(...args),
  baseUrl: typeof window === 'undefined' ? 'http://127.0.0.1:8080/' : `${window.location.origin}/`,
  getToken: () => appStore.getState().token,
  getLocale: () => appStore.getState().locale,
  onUnauthorized: handleUnauthorized,
  notify: (error) => {
    if (error instanceof TransportError) showToast(i18n.t(error.timeout ? 'common.timeout' : 'common.networkError'), 'error');
    else showToast(error.message, 'error');
  },
});

export function startSession(token: string, user: UserInfo): void {
  appStore.getState().setSession(token, user);
  emit('login');
}

/** Logout: the server revokes the token; locally token, user and user data go and `logout` is raised. */
export async function logout(): Promise<void> {
  if (appStore.getState().token) await api.post('user/api/logout', {}, { silent: true }).catch(() => undefined);
  appStore.getState().clearSession();
  emit('logout');
  window.location.hash = `#${LOGIN_PATH}`;
}
