// i18next with our 7 locales. Every locale, and the long agreement texts, load on demand as chunks
// of their own: a visitor downloads one language. No fallback language: every locale has every key
// (test/locales.test.ts), and a fallback would be downloaded with every locale.
import i18n, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import type { Locale } from '@lq/contracts';

type Resource = Record<string, unknown>;
// Keys relative to ./locales and the module (not its default export) per loader: each of the 60-odd
// entries sits in the first screen's script, and `.then(m => m.default)` repeated in every one of
// them cost about 0.2 KB gzip; it is done once in read() instead.
// The operator console's texts are not listed: its own chunk carries and adds them.
const loaders = import.meta.glob<{ default: Resource }>(['./*.json', '!./console.*.json'], { base: './locales' });

/** File of a locale's namespace: `common` → `zh-CN.json`, `legal` → `legal.zh-CN.json`. */
export const localeFile = (locale: string, ns: string) => `./${ns === 'common' ? '' : `${ns}.`}${locale}.json`;

const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const load = loaders[localeFile(language, namespace)];
    if (!load) return callback(new Error(`no ${namespace} texts for ${language}`), false);
    load().then(
      (module) => callback(null, module.default as never),
      (error: Error) => callback(error, false),
    );
  },
};

/**
 * The backtest and robot screens' words (strategies, their fields and hints, metrics, the report):
 * a namespace of their own, so the first screen (login, register) does not download them.
 */
export const BACKTEST_TEXTS = ['common', 'backtest'];

/** `t` over the common texts and the backtest ones (a key is looked up in that order). */
export const useBacktestTranslation = () => useTranslation(BACKTEST_TEXTS, { nsMode: 'fallback' });

/** BCP 47 tag for `lang` attributes and Intl: in_ID → id-ID. */
export const bcp47 = (locale: string) => (locale === 'in_ID' ? 'id-ID' : locale);

export function initI18n(locale: Locale): Promise<unknown> {
  i18n.on('languageChanged', (lng) => {
    if (typeof document !== 'undefined') document.documentElement.lang = bcp47(lng);
  });
  return i18n
    .use(lazyBackend)
    .use(initReactI18next)
    .init({
      lng: locale,
      fallbackLng: false,
      load: 'currentOnly',
      ns: ['common'],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      react: { useSuspense: true },
      returnNull: false,
    });
}

export default i18n;
