// The console's own session and API client (issue 32): an operator's token is not a user's. It is
// kept in sessionStorage (gone with the tab, as an operator session should be) and sent only to
// `console/api/...`. A 401 A0215 asks for the second factor again; any other 401 signs out.
import { createStore, useStore } from 'zustand';
import type { ConsoleSession } from '@lq/contracts';
import { getI18n } from 'react-i18next';
import { ApiError, createApiClient, TransportError, type RequestOptions } from '../../lib/api';
import { downloadFile } from '../../lib/download';
import { appStore } from '../../lib/store';
import { showToast } from '../../lib/toast';

const STORAGE_KEY = 'lq.console.session';
export const SECOND_FACTOR_REQUIRED = 'A0215';

export interface OperatorSession {
  token: string;
  mail: string;
  expiresAt: number;
  /** Until when console actions are allowed without a new code; null: a code is needed now. */
  secondFactorUntil: number | null;
}

function readStored(): OperatorSession | null {
  try {
    const raw = typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(STORAGE_KEY);
    const s = raw ? (JSON.parse(raw) as OperatorSession) : null;
    return s && typeof s.token === 'string' && s.expiresAt > Date.now() ? s : null;
  } catch {
    return null;
  }
}

export const consoleSessionStore = createStore<{ session: OperatorSession | null }>()(() => ({ session: readStored() }));

function store(session: OperatorSession | null) {
  if (session) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  else sessionStorage.removeItem(STORAGE_KEY);
  consoleSessionStore.setState({ session });
}

export const useOperatorSession = () => useStore(consoleSessionStore, (s) => s.session);

export function startOperatorSession(mail: string, s: ConsoleSession): void {
  store({ token: s.token, mail, expiresAt: s.expiresAt, secondFactorUntil: s.secondFactorUntil });
}

export function setSecondFactorUntil(until: number | null): void {
  const current = consoleSessionStore.getState().session;
  if (current) store({ ...current, secondFactorUntil: until });
}

export function endOperatorSession(): void {
  store(null);
}

const client = createApiClient({
  fetch: (...args) => fetch(...args),
  baseUrl: typeof window === 'undefined' ? 'http://127.0.0.1:8080/' : `${window.location.origin}/`,
  getToken: () => consoleSessionStore.getState().session?.token ?? null,
  getLocale: () => appStore.getState().locale,
  // Decided in `call` below, where the error's code is known.
  onUnauthorized: () => undefined,
  notify: (error) => {
    if (error instanceof TransportError) showToast(getI18n().t(error.timeout ? 'common.timeout' : 'common.networkError'), 'error');
    else if (error.status !== 401) showToast(error.message, 'error');
  },
});

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      if (error.code === SECOND_FACTOR_REQUIRED) setSecondFactorUntil(null);
      else endOperatorSession();
    }
    throw error;
  }
}

/** `console/api/...` calls with the operator's token. */
export const consoleApi = {
  get: <T>(path: string, options?: RequestOptions) => call(() => client.get<T>(`console/api/${path}`, options)),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => call(() => client.post<T>(`console/api/${path}`, body, options)),
};

/** Saves a file the console API serves (the audit log as CSV): a plain link cannot carry the token. */
export async function downloadConsoleFile(path: string, fileName: string): Promise<void> {
  try {
    await call(() => downloadFile(`console/api/${path}`, fileName, consoleSessionStore.getState().session?.token ?? null));
  } catch (error) {
    if (error instanceof ApiError && error.status !== 401) showToast(error.message, 'error');
    throw error;
  }
}
