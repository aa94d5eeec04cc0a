// App-wide events (spec §4: login, logout, data-source-changed, locale-changed). Features talk
// through these instead of importing each other.
import type { DataSourceItem, Locale } from '@lq/contracts';

export interface AppEvents {
  login: undefined;
  logout: undefined;
  'locale-changed': Locale;
  'data-source-changed': DataSourceItem;
}

type Handler<T> = (payload: T) => void;
const handlers = new Map<keyof AppEvents, Set<Handler<never>>>();

export function on<K extends keyof AppEvents>(name: K, handler: Handler<AppEvents[K]>): () => void {
  let set = handlers.get(name);
  if (!set) handlers.set(name, (set = new Set()));
  set.add(handler);
  return () => set.delete(handler);
}

export function emit<K extends keyof AppEvents>(name: K, ...payload: AppEvents[K] extends undefined ? [] : [AppEvents[K]]): void {
  for (const h of handlers.get(name) ?? []) (h as Handler<AppEvents[K] | undefined>)(payload[0]);
}
