// Data-source list and choice (spec §4): fetched on launch, after login and on language change.
import { themeOfDataSource, type DataSourceItem, type DataSourceList } from '@lq/contracts';
import i18n from 'i18next';
import { emit } from '../../lib/events';
import { api } from '../../lib/session';
import { appStore } from '../../lib/store';
import { showToast } from '../../lib/toast';
import { pickCurrentDataSource } from './selection';

let inflight: Promise<void> | undefined;

export function refreshDataSources(): Promise<void> {
  // Coalesce bursts (launch + login + locale change at once) into one request.
  inflight ??= load().finally(() => (inflight = undefined));
  return inflight;
}

async function load(): Promise<void> {
  let result: DataSourceList;
  try {
    result = await api.get<DataSourceList>('user/api/index/datasouce-list', { silent: true });
  } catch {
    return; // spec §8: failures of the list are ignored silently
  }
  if (!Array.isArray(result?.list) || result.list.length === 0) return;
  const state = appStore.getState();
  const current = pickCurrentDataSource(result.list, result.selected, state.currentDataSource);
  if (!current) return;
  state.setDataSources(result.list, current);
  const theme = themeOfDataSource(current.type);
  if (theme && current.isOpen) state.setTheme(theme);
  emit('data-source-changed', current);
}

/** Choosing a market: an open one becomes current (with its theme) and is saved on the server. */
export async function chooseDataSource(item: DataSourceItem): Promise<boolean> {
  if (!item.isOpen) {
    showToast(i18n.t('market.notOpen'));
    return false;
  }
  const state = appStore.getState();
  state.setCurrentDataSource(item);
  const theme = themeOfDataSource(item.type);
  if (theme) state.setTheme(theme);
  emit('data-source-changed', item);
  if (state.token) await api.post('user/api/index/datasouce-select', { type: item.type }).catch(() => undefined);
  return true;
}
