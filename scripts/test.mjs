// `npm test`: the whole suite. Makes sure Debian's Chromium is there for the browser tests, then
// runs typecheck, lint, unit + integration tests (PGlite, and PostgreSQL when DATABASE_URL is
// set), builds the web app and runs the Playwright end-to-end tests.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function run(label, cmd, args, env = {}) {
  const started = Date.now();
  console.log(`\n[test] ${label}: ${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`[test] ${label} FAILED after ${seconds}s`);
    process.exit(result.status ?? 1);
  }
  console.log(`[test] ${label} ok in ${seconds}s`);
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `[test] Chromium is missing at ${CHROMIUM}. Install Debian's package first:\n` +
        '  sudo apt-get update && sudo apt-get install -y chromium\n' +
        '(or set CHROMIUM_PATH to a Chromium binary)',
    );
    process.exit(1);
  }
  run('install chromium', 'apt-get', ['update', '-qq']);
  run('install chromium', 'apt-get', ['install', '-y', '-qq', 'chromium'], {
    DEBIAN_FRONTEND: 'noninteractive',
  });
}

/** Screenshots of the zh/ja/th pages need fonts that cover those scripts (else boxes). */
function ensureFonts() {
  const probe = spawnSync('fc-list', [':lang=zh'], { encoding: 'utf8' });
  if (probe.status !== 0 || probe.stdout.trim()) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.warn('[test] no CJK font found: screenshots show boxes for zh/ja text (apt-get install fonts-noto-cjk)');
    return;
  }
  run('install fonts', 'apt-get', ['update', '-qq']);
  run('install fonts', 'apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'fonts-noto-cjk', 'fonts-thai-tlwg'], {
    DEBIAN_FRONTEND: 'noninteractive',
  });
}

const only = process.argv[2];
ensureChromium();
ensureFonts();
if (!only || only === 'static') {
  run('typecheck', 'npm', ['run', 'typecheck']);
  run('lint', 'npx', ['eslint', '.']);
}
if (!only || only === 'vitest') run('unit + integration', 'npx', ['vitest', 'run']);
if (!only || only === 'e2e') {
  run('build web', 'npm', ['run', 'build', '-w', '@lq/web']);
  run('end-to-end', 'npx', ['playwright', 'test']);
}
