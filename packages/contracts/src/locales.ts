// Seven locales. Canonical ids are spelled as the spec spells them (in_ID included); the `lang`
// header uses underscores (zh_TW). Both spellings, any case, and bare languages are accepted.

export const LOCALES = ['en-US', 'zh-TW', 'th-TH', 'vi-VN', 'zh-CN', 'ja-JP', 'in_ID'] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = 'zh-TW';

/** Header spelling of a locale: `zh-TW` → `zh_TW`. */
export const toLangHeader = (locale: Locale): string => locale.replace('-', '_');

const aliases = new Map<string, Locale>();
for (const l of LOCALES) {
  const lower = l.toLowerCase();
  aliases.set(lower, l);
  aliases.set(lower.replace('-', '_'), l);
  aliases.set(lower.replace('_', '-'), l);
}
for (const [alias, l] of [
  ['en', 'en-US'],
  ['th', 'th-TH'],
  ['vi', 'vi-VN'],
  ['ja', 'ja-JP'],
  ['in', 'in_ID'],
  ['id', 'in_ID'],
  ['id-id', 'in_ID'],
  ['id_id', 'in_ID'],
  ['zh-hant', 'zh-TW'],
  ['zh-hk', 'zh-TW'],
  ['zh_hk', 'zh-TW'],
  ['zh-hans', 'zh-CN'],
  ['zh', 'zh-CN'],
] as const) {
  aliases.set(alias, l);
}

/** The locale named by a `lang` header or stored value, or undefined when it names none of ours. */
export function parseLocale(value: string | null | undefined): Locale | undefined {
  if (!value) return undefined;
  return aliases.get(value.trim().toLowerCase());
}

export const resolveLocale = (value: string | null | undefined): Locale =>
  parseLocale(value) ?? DEFAULT_LOCALE;

export const isLocale = (value: unknown): value is Locale =>
  typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/**
 * The first of a browser's languages (`navigator.languages`, in order) that is one of ours: a
 * region we lack falls back to its language (en-GB → en-US), Chinese goes by script or region
 * (zh-Hant, zh-HK, zh-MO → zh-TW; other Chinese → zh-CN). Undefined when none matches.
 */
export function localeFromLanguages(languages: readonly string[]): Locale | undefined {
  for (const raw of languages) {
    const tag = raw.trim().toLowerCase().replace(/_/g, '-');
    const exact = parseLocale(tag);
    if (exact) return exact;
    const [language, ...rest] = tag.split('-');
    if (language === 'zh') return rest.some((s) => s === 'hant' || s === 'tw' || s === 'hk' || s === 'mo') ? 'zh-TW' : 'zh-CN';
    const byLanguage = parseLocale(language);
    if (byLanguage) return byLanguage;
  }
  return undefined;
}
