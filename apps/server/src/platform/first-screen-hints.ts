import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LOCALES, localeFromLanguages } from '@lq/contracts';

/**
 * Preload hints for index.html (a `Link` header). The page a visitor sees first at `/` is the login
 * page, in the language of their browser; its chunk and the language's texts are imported by the
 * entry only once it has run, a round trip after index.html's own preloads. Named in the header of
 * index.html they load beside the entry (issue 28: the first screen's largest paint).
 *
 * The files come from the build's manifest (`.vite/manifest.json`, vite's `build.manifest`); the
 * language from `Accept-Language` as the app picks it (`localeFromLanguages`: a language stored
 * earlier wins in the app, and costs a returning visitor one unused ~4 KB file here).
 */

interface ManifestChunk {
  file: string;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const LOGIN_PAGE = 'src/features/auth/LoginPage.tsx';
const localeKey = (locale: string) => `src/i18n/locales/${locale}.json`;

/** `Accept-Language` → tags, most preferred first (q=0 dropped). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((l) => l.tag && l.tag !== '*' && l.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((l) => l.tag);
}

/** The chunk's file and those it imports, minus the files the entry already preloads. */
function withImports(manifest: Manifest, key: string, loaded: Set<string>): string[] {
  const files: string[] = [];
  const visit = (k: string) => {
    const chunk = manifest[k];
    if (!chunk || loaded.has(chunk.file) || files.includes(chunk.file)) return;
    files.push(chunk.file);
    chunk.imports?.forEach(visit);
  };
  visit(key);
  return files;
}

/** The Link header for a request's `Accept-Language`; undefined without a manifest (a build without one). */
export type FirstScreenHints = (acceptLanguage: string | undefined) => string | undefined;

export function firstScreenHints(manifest: Manifest): FirstScreenHints {
  const loaded = new Set(withImports(manifest, 'index.html', new Set()));
  const link = (file: string) => `</${file}>; rel=preload; as=script; crossorigin`;
  const page = withImports(manifest, LOGIN_PAGE, loaded).map(link);
  const texts = new Map(LOCALES.map((locale) => [locale, manifest[localeKey(locale)]?.file]));
  return (acceptLanguage) => {
    const locale = localeFromLanguages(acceptedLanguages(acceptLanguage));
    const textsFile = locale ? texts.get(locale) : undefined;
    const all = [...(textsFile ? [link(textsFile)] : []), ...page];
    return all.length ? all.join(', ') : undefined;
  };
}

/** Reads the build's manifest; undefined when the build has none. */
export function loadFirstScreenHints(webDist: string): FirstScreenHints | undefined {
  const file = path.join(webDist, '.vite', 'manifest.json');
  if (!existsSync(file)) return undefined;
  return firstScreenHints(JSON.parse(readFileSync(file, 'utf8')) as Manifest);
}
