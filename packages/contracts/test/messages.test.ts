import { describe, expect, it } from 'vitest';
import { ERROR_NAMES, errorMessageKey, LOCALES, MESSAGES, translate } from '../src';

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('message catalogs', () => {
  const allKeys = new Set(LOCALES.flatMap((l) => Object.keys(MESSAGES[l])));

  it.each(LOCALES)('%s has every key any locale has, none empty', (locale) => {
    const own = MESSAGES[locale] as Record<string, string>;
    const missing = [...allKeys].filter((k) => !(k in own));
    expect(missing).toEqual([]);
    for (const k of allKeys) expect(own[k].trim(), `${locale} ${k}`).not.toBe('');
  });

  it.each(LOCALES)('%s uses the same placeholders as en-US', (locale) => {
    const en = MESSAGES['en-US'] as Record<string, string>;
    const own = MESSAGES[locale] as Record<string, string>;
    for (const k of allKeys)
      expect(placeholders(own[k]), `${locale} ${k}`).toEqual(placeholders(en[k]));
  });

  it.each(LOCALES.filter((l) => l !== 'en-US'))(
    '%s is a translation, not a copy of English',
    (locale) => {
      const en = MESSAGES['en-US'] as Record<string, string>;
      const own = MESSAGES[locale] as Record<string, string>;
      const same = [...allKeys].filter((k) => own[k] === en[k]);
      expect(same.length).toBeLessThan(allKeys.size * 0.1);
    },
  );

  it('has a message for every error of the catalog', () => {
    for (const name of ERROR_NAMES) expect(allKeys.has(errorMessageKey(name)), name).toBe(true);
  });

  it('names a withdrawal state in words of the reader\'s language, never by its internal name', () => {
    expect(translate('en-US', 'errors.WITHDRAW_STATE', { state: 'pendingReview' })).toBe('This withdrawal is pending review: that cannot be done now');
    for (const locale of LOCALES) {
      for (const state of ['pendingReview', 'processing', 'completed', 'rejected', 'failed', 'cancelled']) {
        const text = translate(locale, 'errors.WITHDRAW_STATE', { state, expected: 'pendingReview, processing' });
        expect(text).toContain(translate(locale, `withdraw.state.${state}`));
        expect(text).not.toMatch(/pendingReview|processing/);
      }
    }
    // A value that is not a state is left as it is.
    expect(translate('en-US', 'errors.WITHDRAW_STATE', { state: 'pendingReviewX' })).toContain('pendingReviewX');
  });
  it('translates with parameters and falls back to the key', () => {
    expect(translate('en-US', 'errors.CODE_SENT_TOO_RECENTLY', { seconds: 42 })).toContain('42');
    expect(translate('zh-TW', 'errors.NOT_FOUND')).toBe('找不到資源');
    expect(translate('ja-JP', 'no.such.key')).toBe('no.such.key');
  });
});
