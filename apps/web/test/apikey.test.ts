// Trading-account screens (src/features/apikey): the `apikey` texts are complete in every locale,
// and every key the screens use exists.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_EXCHANGES, ACCOUNT_MARKETS, ACCOUNT_WARNINGS, BRIDGE_STATUSES, LOCALES } from '@lq/contracts';
import { EXCHANGES, marketOf, marketOfDataSource } from '../src/features/apikey/api';

const dir = join(import.meta.dirname, '../src/i18n/locales');
const featureDir = join(import.meta.dirname, '../src/features/apikey');

function flatten(value: unknown, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else out[prefix] = value;
  return out;
}
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
const texts = Object.fromEntries(LOCALES.map((l) => [l, flatten(JSON.parse(readFileSync(join(dir, `apikey.${l}.json`), 'utf8')))]));
const allKeys = [...new Set(Object.values(texts).flatMap((t) => Object.keys(t)))].sort();

describe('apikey texts', () => {
  it('has a file per locale', () => {
    expect(readdirSync(dir).filter((f) => f.startsWith('apikey.')).sort()).toEqual(LOCALES.map((l) => `apikey.${l}.json`).sort());
  });
  for (const locale of LOCALES) {
    it(`${locale}: every key, non-empty, same placeholders`, () => {
      expect(allKeys.filter((k) => typeof texts[locale][k] !== 'string' || String(texts[locale][k]).trim() === '')).toEqual([]);
      expect(allKeys.filter((k) => JSON.stringify(placeholders(String(texts[locale][k]))) !== JSON.stringify(placeholders(String(texts['en-US'][k]))))).toEqual([]);
    });
  }
  it('translates: long texts differ from English', () => {
    for (const locale of LOCALES.filter((l) => l !== 'en-US')) {
      const copied = allKeys.filter((k) => String(texts['en-US'][k]).length > 24 && texts[locale][k] === texts['en-US'][k]);
      expect({ locale, copied }).toEqual({ locale, copied: [] });
    }
  });
  it('has every key the screens use, the dynamic ones included', () => {
    const en = texts['en-US'];
    const source = readdirSync(featureDir)
      .filter((f) => f.endsWith('.tsx'))
      .map((f) => readFileSync(join(featureDir, f), 'utf8'))
      .join('\n');
    // t('a.b') of the apikey namespace (tc(...) is the common one)
    const used = [...source.matchAll(/\bt\('([a-zA-Z0-9_.]+)'/g)].map((m) => m[1]);
    expect(used.length).toBeGreaterThan(40);
    expect(used.filter((k) => !(k in en))).toEqual([]);
    const dynamic = [
      ...ACCOUNT_EXCHANGES.flatMap((e) => [`exchange.${e}`, `exchangeHint.${e}`]),
      ...ACCOUNT_MARKETS.map((m) => `market.${m}`),
      ...ACCOUNT_WARNINGS.map((w) => `warning.${w}`),
      ...BRIDGE_STATUSES.map((s) => `bridgeStatus.${s}`),
      ...['binance', 'okx'].map((e) => `form.permissions.${e}`),
      ...['accountName', 'remark', 'apiKey', 'secretKey', 'passphrase', 'leverage'].map((f) => `form.error.${f}`),
    ];
    expect(dynamic.filter((k) => !(k in en))).toEqual([]);
  });
});

describe('markets and exchanges', () => {
  it('maps exchanges and data sources to markets as contracts do', () => {
    expect(EXCHANGES).toEqual({ crypto: ['binance', 'okx'], forex: ['mt5'] });
    expect(marketOf('mt5')).toBe('forex');
    expect(marketOf('okx')).toBe('crypto');
    expect(marketOfDataSource('mt5')).toBe('forex');
    expect(marketOfDataSource('binance')).toBe('crypto');
  });
});
