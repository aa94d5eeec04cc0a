// Child processes of the kill and crash tests started from one bundled file instead of through tsx.
// A kill test starts a hundred of them, and each paid tsx's loader and the resolving and transpiling
// of a few hundred TypeScript modules of ours: 4.3 s of a core before the withdrawal child could
// open its database, 1.2 s from a bundle. Our workspaces are bundled; packages from npm stay
// external, imported by absolute path as Node would find them from the importing source (so
// nested copies such as packages/db's drizzle-orm are the ones used).
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const serverDir = path.resolve(import.meta.dirname, '..');
const bundles = new Map<string, Promise<string>>();

/** Our sources keep meaning their own location (migrations next to @lq/db, the repo root, …). */
const ownLocation: Plugin = {
  name: 'own-location',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?ts$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.')) return undefined;
      const contents = source
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: 'ts', resolveDir: path.dirname(args.path) };
    });
  },
};

/** npm packages stay outside the bundle, each resolved from where it is imported. */
const npmExternal: Plugin = {
  name: 'npm-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('node:')) return { external: true };
      if (args.path.startsWith('@lq/') || (args.pluginData as { inner?: boolean } | undefined)?.inner) return undefined;
      const found = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, pluginData: { inner: true } });
      if (found.errors.length > 0) return { errors: found.errors };
      return { path: found.path, external: true };
    });
  },
};

/**
 * `script` (relative to apps/server) bundled into one ES module under the temporary directory, built
 * once per process; the answer is the file to run with plain `node`.
 */
export function bundledScript(script: string): Promise<string> {
  let bundle = bundles.get(script);
  if (!bundle) {
    const dir = path.join(tmpdir(), 'lq-bundles', String(process.pid));
    mkdirSync(dir, { recursive: true });
    const outfile = path.join(dir, `${script.replace(/[^\w]+/g, '-')}.mjs`);
    bundle = build({
      entryPoints: [path.join(serverDir, script)],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'error',
      plugins: [ownLocation, npmExternal],
    }).then(() => outfile);
    bundles.set(script, bundle);
  }
  return bundle;
}
