// The `robot`, `tools`, `wallet`, `benefits`, `team`, and `notice` namespaces (the installable app's texts are notice's `pwa.*`): every locale has every key (non-empty, same placeholders),
// other locales are translations, and every static key the screens use exists.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '@lq/contracts';

const dir = join(import.meta.dirname, '../src/i18n/locales');
const src = join(import.meta.dirname, '../src');

function flatten(value: unknown, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else out[prefix] = value;
  return out;
}
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

/** Static keys of `t('…')` calls bound to a namespace in the given files (`tr` in the create-order page). */
function usedKeys(files: string[], fn: string): string[] {
  const keys = new Set<string>();
  for (const f of files) {
    const text = readFileSync(join(src, f), 'utf8');
    for (const m of text.matchAll(new RegExp(`\\b${fn}\\('([A-Za-z0-9_.]+)'`, 'g'))) keys.add(m[1]);
  }
  return [...keys].sort();
}
const tsx = (folder: string) => readdirSync(join(src, folder)).filter((f) => f.endsWith('.tsx')).map((f) => `${folder}/${f}`);

const USES: Record<string, { files: string[]; fn: string }[]> = {
  robot: [
    // Files where `t` is the robot namespace's (`tc` is common's).
    { files: tsx('features/robot'), fn: 't' },
    { files: ['features/backtest/CreateOrderPage.tsx'], fn: 'tr' },
  ],
  tools: [{ files: tsx('features/tools'), fn: 't' }],
  wallet: [{ files: tsx('features/wallet'), fn: 't' }],
  benefits: [{ files: tsx('features/benefits'), fn: 't' }],
  team: [{ files: tsx('features/team'), fn: 't' }],
  notice: [{ files: tsx('features/notice'), fn: 't' }],
};

for (const ns of ['robot', 'tools', 'wallet', 'benefits', 'team', 'notice'] as const) {
  describe(`${ns} texts`, () => {
    const texts = Object.fromEntries(LOCALES.map((l) => [l, flatten(JSON.parse(readFileSync(join(dir, `${ns}.${l}.json`), 'utf8')))]));
    const allKeys = [...new Set(Object.values(texts).flatMap((t) => Object.keys(t)))].sort();

    for (const locale of LOCALES) {
      it(`${locale} has every key with a non-empty string and the same placeholders`, () => {
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
    it('has every static key the screens use', () => {
      const used = USES[ns].flatMap((u) => usedKeys(u.files, u.fn));
      // A floor that catches a scan finding nothing (the notice screens use few texts).
      expect(used.length).toBeGreaterThan(ns === 'notice' ? 5 : 10);
      expect(used.filter((k) => !allKeys.includes(k))).toEqual([]);
    });
  });
}

describe('notification texts', () => {
  it('the centre (notice namespace) and the e-mails and Telegram messages (server catalogs) say the same', async () => {
    const { MESSAGES, NOTIFICATION_KINDS } = await import('@lq/contracts');
    for (const locale of LOCALES) {
      const web = flatten(JSON.parse(readFileSync(join(dir, `notice.${locale}.json`), 'utf8')));
      const robot = flatten(JSON.parse(readFileSync(join(dir, `robot.${locale}.json`), 'utf8')));
      const server = MESSAGES[locale] as Record<string, string>;
      for (const kind of NOTIFICATION_KINDS) expect(String(web[`kind.${kind}`]).replace(/\{\{(\w+)\}\}/g, '{$1}'), `${locale} ${kind}`).toBe(server[`notify.${kind}`]);
      for (const [key, text] of Object.entries(robot).filter(([k]) => k.startsWith('reason.'))) expect(text, `${locale} ${key}`).toBe(server[`robot.${key}`]);
    }
  });
});
