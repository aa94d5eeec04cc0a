// Client store of spec §3. Persisted, each under its own localStorage key: `locale` (string),
// `theme` (string), `token` (string), `currentDataSource` (JSON) and `user` (JSON).
import { createStore, useStore } from 'zustand';
import {
  DEFAULT_DATA_SOURCE,
  STORAGE_KEYS,
  isLocale,
  localeFromLanguages,
  parseLocale,
  type DataSourceItem,
  type Locale,
  type Theme,
  type UserInfo,
} from '@lq/contracts';
import { browserStorage, readJson, writeValue, type KeyValueStorage } from './storage';

/** Spec §4: stored locale when none is stored yet and none of the browser's languages is ours. */
export const INITIAL_STORED_LOCALE: Locale = 'zh-CN';

/** The browser's languages, most preferred first. */
export const browserLanguages = (): readonly string[] =>
  typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];

export const DEFAULT_CURRENT_DATA_SOURCE: DataSourceItem = {
  type: DEFAULT_DATA_SOURCE,
  isOpen: true,
  text: 'Forex',
  value: DEFAULT_DATA_SOURCE,
  icon: '/icons/mt5.svg',
};

export const THEMES = ['forex', 'crypto'] as const;
export const isTheme = (value: unknown): value is Theme => value === 'forex' || value === 'crypto';

export interface AppState {
  locale: Locale;
  theme: Theme;
  token: string | null;
  user: UserInfo | null;
  currentDataSource: DataSourceItem;
  dataSourceList: DataSourceItem[];
  menuShow: boolean;
  walletData: unknown;
  /** Selected robot item, kept per data-source type (spec §4). */
  robotItems: Record<string, unknown>;
}

export interface AppActions {
  setLocale(locale: Locale): void;
  /** Only forex and crypto are themes; anything else is refused with a warning. */
  setTheme(theme: string): boolean;
  setSession(token: string, user: UserInfo): void;
  setUser(user: UserInfo): void;
  clearSession(): void;
  setDataSources(list: DataSourceItem[], current: DataSourceItem): void;
  setCurrentDataSource(current: DataSourceItem): void;
  setMenuShow(show: boolean): void;
  setRobotItem(type: string, item: unknown): void;
}

export type AppStore = AppState & AppActions;

function isDataSource(v: unknown): v is DataSourceItem {
  const o = v as Partial<DataSourceItem> | null;
  return !!o && typeof o.type === 'string' && typeof o.isOpen === 'boolean';
}

export function loadPersisted(
  storage: KeyValueStorage,
  languages: readonly string[] = browserLanguages(),
): Pick<AppState, 'locale' | 'theme' | 'token' | 'user' | 'currentDataSource'> {
  const storedLocale = parseLocale(storage.getItem(STORAGE_KEYS.locale));
  // First visit: the browser's language when it is one of ours.
  const locale = storedLocale ?? localeFromLanguages(languages) ?? INITIAL_STORED_LOCALE;
  if (!storedLocale) writeValue(storage, STORAGE_KEYS.locale, locale);
  const theme = storage.getItem(STORAGE_KEYS.theme);
  const token = storage.getItem(STORAGE_KEYS.token);
  const user = readJson<UserInfo>(storage, STORAGE_KEYS.user);
  const current = readJson<unknown>(storage, STORAGE_KEYS.currentDataSource);
  return {
    locale,
    theme: isTheme(theme) ? theme : 'forex',
    token: token || null,
    user: token && user && typeof user === 'object' ? user : null,
    currentDataSource: isDataSource(current) ? current : DEFAULT_CURRENT_DATA_SOURCE,
  };
}

export function createAppStore(storage: KeyValueStorage = browserStorage(), languages: readonly string[] = browserLanguages()) {
  const store = createStore<AppStore>()((set) => ({
    ...loadPersisted(storage, languages),
    dataSourceList: [],
    menuShow: true,
    walletData: null,
    robotItems: {},
    setLocale: (locale) => {
      if (isLocale(locale)) set({ locale });
    },
    setTheme: (theme) => {
      if (!isTheme(theme)) {
        console.warn(`[theme] "${theme}" is not a theme; use one of ${THEMES.join(', ')}`);
        return false;
      }
      set({ theme });
      return true;
    },
    setSession: (token, user) => set({ token, user }),
    setUser: (user) => set({ user }),
    clearSession: () => set({ token: null, user: null, walletData: null }),
    setDataSources: (dataSourceList, currentDataSource) => set({ dataSourceList, currentDataSource }),
    setCurrentDataSource: (currentDataSource) => set({ currentDataSource }),
    setMenuShow: (menuShow) => set({ menuShow }),
    setRobotItem: (type, item) => set((s) => ({ robotItems: { ...s.robotItems, [type]: item } })),
  }));
  // Persist each key on its own, as spec §3 names them.
  store.subscribe((s, prev) => {
    if (s.locale !== prev.locale) writeValue(storage, STORAGE_KEYS.locale, s.locale);
    if (s.theme !== prev.theme) writeValue(storage, STORAGE_KEYS.theme, s.theme);
    if (s.token !== prev.token) writeValue(storage, STORAGE_KEYS.token, s.token);
    if (s.user !== prev.user) writeValue(storage, STORAGE_KEYS.user, s.user);
    if (s.currentDataSource !== prev.currentDataSource) writeValue(storage, STORAGE_KEYS.currentDataSource, s.currentDataSource);
  });
  return store;
}

export type AppStoreApi = ReturnType<typeof createAppStore>;

export const appStore: AppStoreApi = createAppStore();

export function useAppStore<T>(selector: (s: AppStore) => T): T {
  return useStore(appStore, selector);
}
