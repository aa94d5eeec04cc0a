import i18n from 'i18next';
import type { Locale } from '@lq/contracts';
import { emit } from '../../lib/events';
import { api } from '../../lib/session';
import { appStore } from '../../lib/store';

/** Native names: a language is always listed in itself. */
export const LOCALE_NAMES: Record<Locale, string> = {
  'en-US': 'English',
  'zh-TW': '繁體中文',
  'th-TH': 'ไทย',
  'vi-VN': 'Tiếng Việt',
  'zh-CN': '简体中文',
  'ja-JP': '日本語',
  in_ID: 'Bahasa Indonesia',
};

/**
 * Spec §4: the locale is stored, texts and tab labels switch, the server learns it when logged
 * in, and the data-source list (whose labels the server localizes) is fetched again.
 */
export async function changeLocale(locale: Locale): Promise<void> {
  appStore.getState().setLocale(locale);
  await i18n.changeLanguage(locale);
  if (appStore.getState().token) await api.post('user/api/locale', { locale }, { silent: true }).catch(() => undefined);
  emit('locale-changed', locale);
}
