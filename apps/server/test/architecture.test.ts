import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layout rules of docs/architecture.md ("Server areas") are lint rules; this checks that lint
// still refuses what they forbid. The probe source is linted under the path of an existing file
// (the type-aware parser only knows files of the project) and never written to disk.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const src = (p: string) => `${root}apps/server/src/${p}`;

async function restrictedPathMessages(filePath: string, code: string): Promise<string[]> {
  // With CI set, typescript-eslint builds its programs once from the files on disk (its single-run
  // mode) and would lint the file's own content instead of the probe.
  const eslint = new ESLint({ cwd: root, overrideConfig: { languageOptions: { parserOptions: { disallowAutomaticSingleRunInference: true } } } });
  const [result] = await eslint.lintText(code, { filePath });
  expect(result.messages.filter((m) => m.fatal)).toEqual([]);
  return result.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

describe('server areas meet only through index.ts', () => {
  it('refuses an inner file of another area, allows its index', async () => {
    const messages = await restrictedPathMessages(
      src('robots/service.ts'),
      `import { slotsOf } from '../backtests/service';\nimport { MARKET_OPS } from '../market';\nexport const probe = [slotsOf, MARKET_OPS];\n`,
    );
    expect(messages).toEqual([
      expect.stringContaining('server area robots/ may import backtests/ only through backtests/index.ts'),
    ]);
  });

  it('refuses any area in platform/, and inner files in app.ts', async () => {
    expect(
      await restrictedPathMessages(src('platform/http.ts'), `import { MARKET_OPS } from '../market';\nexport const probe = MARKET_OPS;\n`),
    ).toEqual([expect.stringContaining('platform/ is what every area uses: it imports no area')]);
    expect(
      await restrictedPathMessages(src('app.ts'), `import { userRoutes } from './users/routes';\nexport const probe = userRoutes;\n`),
    ).toEqual([expect.stringContaining('imports users/ only through users/index.ts')]);
  });
});
