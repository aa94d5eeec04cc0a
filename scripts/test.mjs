// `npm test`: the whole suite. Makes sure Debian's Chromium is there for the browser tests, then
// runs typecheck, lint, unit + integration tests (PGlite, and PostgreSQL when DATABASE_URL is
// set), builds the web app and runs the Playwright end-to-end tests.
import { spawn, spawnSync } from 'node:child_process';
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

/** Runs commands side by side (the machines have 2 cores; each of these is mostly one). */
async function runTogether(jobs) {
  const started = Date.now();
  console.log(`\n[test] ${jobs.map((j) => j.label).join(' + ')} (side by side)`);
  const results = await Promise.all(
    jobs.map(
      (j) =>
        new Promise((resolve) => {
          const child = spawn(j.cmd, j.args, { stdio: 'inherit', env: { ...process.env, ...(j.env ?? {}) } });
          child.on('exit', (code) => resolve({ label: j.label, code: code ?? 1, seconds: ((Date.now() - started) / 1000).toFixed(1) }));
        }),
    ),
  );
  for (const r of results) {
    if (r.code !== 0) console.error(`[test] ${r.label} FAILED after ${r.seconds}s`);
    else console.log(`[test] ${r.label} ok in ${r.seconds}s`);
  }
  if (results.some((r) => r.code !== 0)) process.exit(1);
}

// The runner crash test spends most of its minutes waiting on child processes: it runs beside the
// rest of the suite instead of after it (integration files otherwise run one at a time).
const CRASH_TEST = 'apps/server/src/runner/crash.int.test.ts';

const only = process.argv[2];
ensureChromium();
ensureFonts();
if (!only || only === 'static') {
  await runTogether([
    { label: 'typecheck', cmd: 'npm', args: ['run', 'typecheck'] },
    { label: 'lint', cmd: 'npx', args: ['eslint', '.'] },
  ]);
}
if (!only || only === 'vitest') {
  await runTogether([
    { label: 'unit + integration', cmd: 'npx', args: ['vitest', 'run', '--exclude', CRASH_TEST] },
    { label: 'runner crash test', cmd: 'npx', args: ['vitest', 'run', '--project', 'integration', CRASH_TEST] },
  ]);
}
if (!only || only === 'e2e') {
  run('build web', 'npm', ['run', 'build', '-w', '@lq/web']);
  run('end-to-end', 'npx', ['playwright', 'test']);
}
