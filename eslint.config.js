// Lint enforces the dependency direction of docs/architecture.md:
// web → contracts, strategies/schemas (zod only) · server → contracts, db, engine, strategies, venues, workers · cli → engine, strategies, workers
// strategies → engine · workers → engine, strategies · venues → engine, contracts · db → contracts · engine → nothing
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';

const ws = (name) => `./${name}`;
const zones = [
  { target: ws('packages/engine'), from: ['./apps', './packages'], except: ['./engine'], message: 'engine is pure: it imports nothing of ours' },
  { target: ws('packages/contracts'), from: ['./apps', './packages'], except: ['./contracts'], message: 'contracts import nothing of ours' },
  { target: ws('packages/db'), from: ['./apps', './packages'], except: ['./db', './contracts'], message: 'db → contracts only' },
  { target: ws('packages/strategies'), from: ['./apps', './packages'], except: ['./strategies', './engine'], message: 'strategies → engine only' },
  { target: ws('packages/workers'), from: ['./apps', './packages'], except: ['./workers', './engine', './strategies'], message: 'workers → engine, strategies' },
  { target: ws('packages/venues'), from: ['./apps', './packages'], except: ['./venues', './engine', './contracts'], message: 'venues → engine, contracts' },
  { target: ws('apps/web'), from: ['./apps', './packages'], except: ['./web', './contracts', './strategies/src/schemas.ts'], message: 'web → contracts and strategies/schemas only' },
  { target: ws('apps/cli'), from: ['./apps', './packages'], except: ['./cli', './engine', './strategies', './workers'], message: 'cli → engine, strategies, workers' },
  { target: ws('apps/server'), from: ['./apps'], except: ['./server'], message: 'server does not import other apps' },
];
// Inside apps/server/src: one folder per area. An area imports platform/ and other areas only
// through their index.ts; platform/ imports no area (docs/architecture.md, "Server areas").
const SERVER = './apps/server/src';
// Every folder but platform/ is an area, so a new area (wallet/, benefits/, …) is covered the day it appears.
const serverAreas = readdirSync(new URL('./apps/server/src/', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'platform')
  .map((d) => d.name);
const serverRoots = ['app.ts', 'main.ts', 'index.ts'].map((f) => `${SERVER}/${f}`);
const serverZones = [
  ...serverAreas.flatMap((area) =>
    serverAreas
      .filter((other) => other !== area)
      .map((other) => ({
        target: `${SERVER}/${area}`,
        from: `${SERVER}/${other}`,
        except: ['./index.ts'],
        message: `server area ${area}/ may import ${other}/ only through ${other}/index.ts (docs/architecture.md)`,
      })),
  ),
  ...serverAreas.map((other) => ({
    target: serverRoots,
    from: `${SERVER}/${other}`,
    except: ['./index.ts'],
    message: `the app's composition imports ${other}/ only through ${other}/index.ts (docs/architecture.md)`,
  })),
  {
    target: `${SERVER}/platform`,
    from: [...serverAreas.map((a) => `${SERVER}/${a}`), ...serverRoots],
    message: 'platform/ is what every area uses: it imports no area (docs/architecture.md)',
  },
];
const pkgZones = [
  ['packages/engine', ['@lq/contracts', '@lq/db', '@lq/strategies', '@lq/venues', '@lq/workers', '@lq/server', '@lq/web', '@lq/cli']],
  ['packages/contracts', ['@lq/engine', '@lq/db', '@lq/strategies', '@lq/venues', '@lq/workers', '@lq/server', '@lq/web', '@lq/cli']],
  ['packages/db', ['@lq/engine', '@lq/strategies', '@lq/venues', '@lq/workers', '@lq/server', '@lq/web', '@lq/cli']],
  ['packages/strategies', ['@lq/contracts', '@lq/db', '@lq/venues', '@lq/workers', '@lq/server', '@lq/web', '@lq/cli']],
  ['packages/workers', ['@lq/contracts', '@lq/db', '@lq/venues', '@lq/server', '@lq/web', '@lq/cli']],
  ['packages/venues', ['@lq/db', '@lq/strategies', '@lq/workers', '@lq/server', '@lq/web', '@lq/cli']],
  ['apps/web', ['@lq/engine', '@lq/db', '@lq/venues', '@lq/workers', '@lq/server', '@lq/cli'], '^@lq/strategies(?!/schemas$)'],
  ['apps/cli', ['@lq/contracts', '@lq/db', '@lq/venues', '@lq/server', '@lq/web']],
  ['apps/server', ['@lq/web', '@lq/cli']],
];

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'e2e/artifacts/**', 'test-results/**', 'playwright-report/**', '**/*.mjs', '**/*.cjs', 'eslint.config.js'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // The typecheck's programs (scripts/typecheck.mjs), not one per workspace: the sources the Node
      // workspaces share are parsed and typed once (a file goes to the first program holding it).
      parserOptions: {
        project: ['apps/web/tsconfig.json', 'apps/web/sw/tsconfig.json', 'packages/engine/tsconfig.json', 'tsconfig.node.json', 'tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver': { typescript: { project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json', 'tsconfig.json'], noWarnOnMultipleProjects: true } } },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...zones, ...serverZones] }],
      'import-x/no-cycle': ['error', { maxDepth: 10, ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  ...pkgZones.map(([dir, banned, bannedRegex]) => {
    const message = `${dir} may not import this package (docs/architecture.md)`;
    const patterns = [{ group: banned, message }, ...(bannedRegex ? [{ regex: bannedRegex, message }] : [])];
    return { files: [`${dir}/**/*.{ts,tsx}`], rules: { 'no-restricted-imports': ['error', { patterns }] } };
  }),
  {
    files: ['packages/engine/src/**/*.ts', 'packages/strategies/src/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', 'Date', 'process', 'window', 'document', 'setTimeout', 'setInterval', 'fetch', 'require'],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'randomness comes in through a seed' }],
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*', 'fs', 'path', 'os', 'zlib', 'worker_threads', '@lq/*', '!@lq/engine'], message: 'engine and strategies are pure: no I/O, no Node modules' }] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['**/test/**/*.ts', '**/*.test.ts', '**/*.test.tsx', 'e2e/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
    },
  },
);
