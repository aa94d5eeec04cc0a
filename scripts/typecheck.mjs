// Type-checks every workspace with its own tsconfig (web has DOM types, engine has no Node types).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const dirs = ['apps', 'packages'].flatMap((top) =>
  readdirSync(top).map((d) => `${top}/${d}`).filter((d) => existsSync(`${d}/tsconfig.json`)),
);
const extra = ['packages/engine/tsconfig.test.json', 'tsconfig.json'].filter(existsSync);
let failed = false;
for (const project of [...dirs.map((d) => `${d}/tsconfig.json`), ...extra]) {
  try {
    execFileSync('npx', ['tsc', '-p', project], { stdio: 'inherit' });
    console.log(`typecheck ok: ${project}`);
  } catch {
    failed = true;
    console.error(`typecheck FAILED: ${project}`);
  }
}
process.exit(failed ? 1 : 0);
