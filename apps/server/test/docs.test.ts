import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '@lq/contracts';
import { configSchema } from '../src/platform/config';

// Table cells without the padding a formatter may add.
const doc = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../../../docs/${name}`, import.meta.url)), 'utf8').replace(
    / *\| */g,
    ' | ',
  );

describe('docs stay in step with the code', () => {
  it('api.md lists every error code with its status', () => {
    const api = doc('api.md');
    for (const [name, def] of Object.entries(ERRORS))
      expect(api).toContain(`| \`${def.code}\` | ${def.status} | \`${name}\` |`);
  });
  it('operations.md describes every configuration key', () => {
    const ops = doc('operations.md');
    for (const key of Object.keys(configSchema.shape)) expect(ops).toContain(`| \`${key}\` |`);
  });
});
