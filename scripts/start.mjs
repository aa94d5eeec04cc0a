// `npm start`: build the web app when its sources changed, then run the server (API + SPA) on
// the embedded database unless DATABASE_URL is set.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const webDist = 'apps/web/dist/index.html';

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const sources = ['apps/web', 'packages/contracts', 'packages/strategies'].filter(existsSync);
const stale =
  !existsSync(webDist) ||
  Math.max(...sources.map(newestMtime)) > statSync(webDist).mtimeMs;
if (stale) {
  console.log('[start] building the web app…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@lq/web'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
