import { describe, expect, it } from 'vitest';
import { acceptedLanguages, firstScreenHints } from './first-screen-hints';

// A manifest as vite writes it: the entry with what it imports, the login page sharing some of it.
const manifest = {
  'index.html': { file: 'assets/index-1.js', imports: ['_react-1.js', '_router-1.js'] },
  '_react-1.js': { file: 'assets/react-1.js' },
  '_router-1.js': { file: 'assets/router-1.js' },
  '_form-1.js': { file: 'assets/form-1.js', imports: ['_react-1.js', '_field-1.js'] },
  '_field-1.js': { file: 'assets/field-1.js', imports: ['_form-1.js'] },
  'src/features/auth/LoginPage.tsx': { file: 'assets/LoginPage-1.js', imports: ['_react-1.js', '_router-1.js', '_form-1.js'] },
  'src/i18n/locales/en-US.json': { file: 'assets/en-US-1.js' },
  'src/i18n/locales/zh-TW.json': { file: 'assets/zh-TW-1.js' },
  'src/i18n/locales/ja-JP.json': { file: 'assets/ja-JP-1.js' },
};
const files = (link: string | undefined) => [...(link ?? '').matchAll(/<\/([^>]+)>; rel=preload; as=script; crossorigin/g)].map((m) => m[1]);

describe('first-screen preload hints', () => {
  it('orders Accept-Language by quality, then by position, and drops q=0 and *', () => {
    expect(acceptedLanguages('fr;q=0.2, ja-JP, en-GB;q=0.8, de;q=0, *;q=0.1')).toEqual(['ja-JP', 'en-GB', 'fr']);
    expect(acceptedLanguages(undefined)).toEqual([]);
    expect(acceptedLanguages('')).toEqual([]);
  });

  it('names the language the app would pick and the login page with what the entry does not load', () => {
    const hints = firstScreenHints(manifest);
    // The login page and what it imports beyond the entry's files (a cycle is followed once).
    const page = ['assets/LoginPage-1.js', 'assets/form-1.js', 'assets/field-1.js'];
    expect(files(hints('en-GB,en;q=0.9'))).toEqual(['assets/en-US-1.js', ...page]);
    expect(files(hints('zh-HK, en;q=0.5'))).toEqual(['assets/zh-TW-1.js', ...page]);
    expect(files(hints('fr;q=0.9, ja;q=0.95'))).toEqual(['assets/ja-JP-1.js', ...page]);
    // None of ours (the app then takes its default; no texts named) or no header.
    expect(files(hints('fr-FR'))).toEqual(page);
    expect(files(hints(undefined))).toEqual(page);
  });

  it('names nothing for a build without the login page or texts', () => {
    expect(firstScreenHints({ 'index.html': { file: 'assets/index-1.js' } })('en-US')).toBeUndefined();
  });
});
