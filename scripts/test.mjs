// `npm test`: the whole suite. Makes sure Debian's Chromium is there for the browser tests, then
// runs typecheck, lint, unit + integration tests (PGlite, and PostgreSQL when DATABASE_URL is
// set), builds the web app and runs the Playwright end-to-end tests.
// TEST_POSTGRES_URL (set by .ci/run): the integration suite runs a second time on that PostgreSQL,
// beside the end-to-end tests.
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

function runOne(job, started) {
  return new Promise((resolve) => {
    const child = spawn(job.cmd, job.args, { stdio: 'inherit', env: { ...process.env, ...(job.env ?? {}) } });
    child.on('exit', (code) => {
      const r = { label: job.label, code: code ?? 1, seconds: ((Date.now() - started) / 1000).toFixed(1) };
      if (r.code !== 0) console.error(`[test] ${r.label} FAILED after ${r.seconds}s`);
      else console.log(`[test] ${r.label} ok in ${r.seconds}s`);
      resolve(r);
    });
  });
}

/**
 * Runs lanes side by side (the machines have 2 cores; each lane is mostly one); the jobs of one
 * lane run one after another, and a lane stops at its first failure.
 */
async function runLanes(lanes) {
  const started = Date.now();
  console.log(`\n[test] ${lanes.map((lane) => lane.map((j) => j.label).join(' → ')).join(' + ')} (side by side)`);
  const results = await Promise.all(
    lanes.map(async (lane) => {
      for (const job of lane) {
        const r = await runOne(job, started);
        if (r.code !== 0) return false;
      }
      return true;
    }),
  );
  if (results.some((ok) => !ok)) process.exit(1);
}

const only = process.argv[2];
ensureChromium();
ensureFonts();
// The second pass on PostgreSQL: the venue tests (packages/venues) open no database, so they ran
// once; the SIGKILL tests ran their full counts on PGlite and run shorter here, the API fuzz
// half its runs.
const postgres = process.env.TEST_POSTGRES_URL;
const postgresPass = postgres
  ? [
      {
        label: 'integration on PostgreSQL',
        cmd: 'npx',
        args: ['vitest', 'run', '--project', 'integration', '--exclude', 'packages/venues/**'],
        env: { DATABASE_URL: postgres, RUNNER_CRASH_KILLS: '8', WALLET_KILLS: '5', DEPOSIT_KILLS: '5', WITHDRAW_KILLS: '5', FUZZ_RUNS: '100' },
      },
    ]
  : [];

if (!only || only === 'static') {
  await runLanes([
    [{ label: 'typecheck', cmd: 'npm', args: ['run', 'typecheck'] }],
    [{ label: 'lint', cmd: 'npx', args: ['eslint', '.'] }],
  ]);
}
// The PGlite suite took 556 s alone on a 2-core machine, and 1,524 s in CI beside the PostgreSQL
// pass: each wants more than a core. So the suites run one after another; only the browser tests,
// which mostly wait (half a core), share the machine with the PostgreSQL pass.
// The runner's crash test (50 SIGKILLs, about a core for 3 minutes) runs in the whole suite beside
// the browser tests, after the PostgreSQL pass: that lane finished about 5 minutes before them.
const CRASH_TEST = 'apps/server/src/runner/crash.int.test.ts';
const crashTest = { label: 'runner crash test', cmd: 'npx', args: ['vitest', 'run', '--project', 'integration', CRASH_TEST] };
if (only === 'vitest') run('unit + integration', 'npx', ['vitest', 'run']);
if (!only) run('unit + integration (the crash test later)', 'npx', ['vitest', 'run', '--exclude', CRASH_TEST]);
if (!only || only === 'e2e') {
  run('build web', 'npm', ['run', 'build', '-w', '@lq/web']);
  await runLanes([[{ label: 'end-to-end', cmd: 'npx', args: ['playwright', 'test'] }], [...postgresPass, ...(only ? [] : [crashTest])]]);
} else if (only === 'vitest' && postgresPass.length > 0) {
  await runLanes([postgresPass]);
}
