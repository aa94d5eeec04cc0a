// Type-checks every workspace. The Node workspaces (types node, no DOM) are one program,
// tsconfig.node.json, so the sources they share are checked once (8 programs took 70 s, the one
// takes 19 s); the web app (DOM types), the engine (no Node types) and the root (e2e, scripts) are
// checked with their own tsconfig.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const APART = ['apps/web', 'packages/engine'];
const nodeProgram = readFileSync('tsconfig.node.json', 'utf8');
const workspaces = ['apps', 'packages'].flatMap((top) =>
  readdirSync(top).map((d) => `${top}/${d}`).filter((d) => existsSync(`${d}/tsconfig.json`)),
);
// A new workspace is checked too: it joins tsconfig.node.json or is named here.
const missing = workspaces.filter((d) => !APART.includes(d) && !nodeProgram.includes(`"${d}/src"`));
if (missing.length > 0) {
  console.error(`typecheck: add ${missing.join(', ')} to tsconfig.node.json's include (or check it apart in scripts/typecheck.mjs)`);
  process.exit(1);
}
let failed = false;
// The service worker has WebWorker types instead of DOM: a program of its own.
for (const project of ['tsconfig.node.json', ...APART.map((d) => `${d}/tsconfig.json`), 'apps/web/sw/tsconfig.json', 'tsconfig.json']) {
  const started = Date.now();
  try {
    execFileSync('npx', ['tsc', '-p', project], { stdio: 'inherit' });
    console.log(`typecheck ok: ${project} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch {
    failed = true;
    console.error(`typecheck FAILED: ${project}`);
  }
}
process.exit(failed ? 1 : 0);
