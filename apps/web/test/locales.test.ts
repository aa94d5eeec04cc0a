// Every locale has every key the others have, each with a non-empty text and the same
// {{placeholders}}; the other locales are translations, not copies of English.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIELD_LABELS, inParamOrder, LOCALES, PARAM_ORDER, translate } from '@lq/contracts';

const dir = join(import.meta.dirname, '../src/i18n/locales');

function flatten(value: unknown, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else out[prefix] = value;
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

for (const ns of ['common', 'legal', 'console', 'backtest']) {
  describe(`${ns} texts`, () => {
    const file = (locale: string) => `${ns === 'common' ? '' : `${ns}.`}${locale}.json`;
    const texts = Object.fromEntries(LOCALES.map((l) => [l, flatten(JSON.parse(readFileSync(join(dir, file(l)), 'utf8')))]));
    const allKeys = [...new Set(Object.values(texts).flatMap((t) => Object.keys(t)))].sort();

    it('has a file for every locale and no stray files', () => {
      const files = readdirSync(dir).filter((f) => (ns === 'common' ? !f.includes('.', f.indexOf('.') + 1) && !f.startsWith('legal.') : f.startsWith(`${ns}.`)));
      expect(files.sort()).toEqual(LOCALES.map(file).sort());
    });

    for (const locale of LOCALES) {
      it(`${locale} has every key with a non-empty string`, () => {
        const missing = allKeys.filter((k) => typeof texts[locale][k] !== 'string' || (texts[locale][k]).trim() === '');
        expect(missing).toEqual([]);
      });
      it(`${locale} keeps the placeholders`, () => {
        const wrong = allKeys.filter((k) => JSON.stringify(placeholders(String(texts[locale][k]))) !== JSON.stringify(placeholders(String(texts['en-US'][k]))));
        expect(wrong).toEqual([]);
      });
    }

    it('translates: long texts differ from English in every other locale', () => {
      const english = texts['en-US'];
      for (const locale of LOCALES.filter((l) => l !== 'en-US')) {
        const copied = allKeys.filter((k) => String(english[k]).length > 24 && texts[locale][k] === english[k]);
        expect({ locale, copied }).toEqual({ locale, copied: [] });
      }
    });
  });
}

describe('wallet record words', () => {
  it('an exported file names each record type, wallet and status as the wallet page does', () => {
    const differ: string[] = [];
    for (const locale of LOCALES) {
      const web = flatten(JSON.parse(readFileSync(join(dir, `wallet.${locale}.json`), 'utf8')));
      for (const column of ['type', 'wallet', 'status']) {
        for (const [key, word] of Object.entries(web).filter(([k]) => k.startsWith(`${column}.`))) {
          const server = translate(locale, `export.${key}`);
          if (server !== word) differ.push(`${locale} ${key}: page "${String(word)}", export "${server}"`);
        }
      }
    }
    expect(differ).toEqual([]);
  });
});

describe('field labels', () => {
  it('a form labels each strategy field as the server names it in its messages', () => {
    const differ: string[] = [];
    for (const locale of LOCALES) {
      const web = (JSON.parse(readFileSync(join(dir, `backtest.${locale}.json`), 'utf8')) as { field: Record<string, string> }).field;
      for (const [name, label] of Object.entries(web)) {
        if (name === 'order') continue; // "Order {{n}}": the slot heading, not a field
        if (FIELD_LABELS[locale][name] !== label) differ.push(`${locale} ${name}: web "${label}", server "${FIELD_LABELS[locale][name]}"`);
      }
    }
    expect(differ).toEqual([]);
  });
});

describe('parameter order', () => {
  it('parameters are shown in the form order whatever order the database gives (jsonb: first, third, second)', () => {
    const stored = Object.entries({ gap: 1, thirdLots: 3, firstLots: 1, capital: 10, secondLots: 2, custom: 'x' });
    expect(inParamOrder(stored).map(([k]) => k)).toEqual(['capital', 'firstLots', 'secondLots', 'thirdLots', 'gap', 'custom']);
  });
  it('the order lists every field the forms label', () => {
    const web = (JSON.parse(readFileSync(join(dir, 'backtest.en-US.json'), 'utf8')) as { field: Record<string, string> }).field;
    expect(Object.keys(web).filter((k) => k !== 'order')).toEqual([...PARAM_ORDER]);
  });
});

describe('one name for one thing', () => {
  // The wallet's button, the page, its records and its detail: one word per language (the page used
  // to say "Convert", the records "Conversion history" beside a "Withdraw" button).
  const STEM: Record<string, RegExp> = { 'en-US': /withdraw/i, 'zh-TW': /提現/, 'zh-CN': /提现/, 'th-TH': /ถอน/, 'vi-VN': /Rút/i, 'ja-JP': /出金/, in_ID: /arik/i };
  const OTHER = /convert|conversion|兌換|兑换|แลกเปลี่ยน|^quy đổi|換金|konversi|提領/i; // ("quy đổi" also means "annualised": only as a name)
  for (const locale of LOCALES) {
    it(`withdrawal is one word in ${locale}`, () => {
      const common = flatten(JSON.parse(readFileSync(join(dir, `${locale}.json`), 'utf8')));
      const wallet = flatten(JSON.parse(readFileSync(join(dir, `wallet.${locale}.json`), 'utf8')));
      const names = [common['page.withdraw'], common['page.withdrawRecord'], common['page.withdrawDetail'], wallet.withdraw, wallet['withdrawForm.title'], wallet['withdrawForm.records'], wallet['type.withdrawal']];
      for (const name of names) expect(name, locale).toMatch(STEM[locale]);
      const texts = [...Object.values(common), ...Object.values(wallet)].filter((v): v is string => typeof v === 'string');
      expect(texts.filter((v) => OTHER.test(v))).toEqual([]);
    });
  }
});

describe('the backtest namespace', () => {
  const src = join(import.meta.dirname, '../src');
  const walk = (folder: string): string[] =>
    readdirSync(join(src, folder), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(`${folder}/${e.name}`) : /\.tsx?$/.test(e.name) ? [`${folder}/${e.name}`] : [],
    );
  const groups = Object.keys(JSON.parse(readFileSync(join(dir, 'backtest.en-US.json'), 'utf8')) as object);
  const common = Object.keys(JSON.parse(readFileSync(join(dir, 'en-US.json'), 'utf8')) as object);
  // Only pages loaded with the backtest words (app/pages.tsx) may use them.
  const owners = /^features\/(backtest|robot)\//;

  it('shares no group with the common texts (a key resolves in one place)', () => {
    expect(groups.filter((g) => common.includes(g))).toEqual([]);
  });

  it('is used only by the backtest and robot screens, which read it with the common texts', () => {
    const strays: string[] = [];
    for (const file of walk('.').map((f) => f.slice(2))) {
      const text = readFileSync(join(src, file), 'utf8');
      if (owners.test(file)) {
        // Their common `t` must be the one that also reads the backtest words.
        if (text.includes('useTranslation()')) strays.push(`${file}: useTranslation() without the backtest words`);
        continue;
      }
      for (const group of groups) {
        if (new RegExp(`['"\`]${group}\\.`).test(text)) strays.push(`${file}: ${group}.*`);
      }
    }
    expect(strays).toEqual([]);
  });
});
