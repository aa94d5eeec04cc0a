// `npm test`: the whole suite. Makes sure Debian's Chromium (its headless shell) is there for the browser tests, then
// runs typecheck, lint, unit + integration tests on PGlite, builds the web app and runs the
// Playwright end-to-end tests, in two phases (below); each job's and lane's time is printed at the end.
// TEST_POSTGRES_URL (set by .ci/run): the integration suite runs a second time on that PostgreSQL,
// after the PGlite pass.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

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
        '  sudo apt-get update && sudo apt-get install -y chromium-headless-shell\n' +
        '(or set CHROMIUM_PATH to a Chromium binary)',
    );
    process.exit(1);
  }
  run('install chromium', 'apt-get', ['update', '-qq']);
  run('install chromium', 'apt-get', ['install', '-y', '-qq', 'chromium-headless-shell'], {
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

const timings = [];

function runOne(job, started) {
  return new Promise((resolve) => {
    const jobStarted = Date.now();
    // A job marked `background` yields the cores to the others (nice 10; its children inherit it).
    const [cmd, args] = job.background ? ['nice', ['-n', '10', job.cmd, ...job.args]] : [job.cmd, job.args];
    const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, ...(job.env ?? {}) } });
    child.on('exit', (code) => {
      const r = { label: job.label, code: code ?? 1, seconds: ((Date.now() - jobStarted) / 1000).toFixed(1), at: ((Date.now() - started) / 1000).toFixed(1) };
      timings.push(r);
      if (r.code !== 0) console.error(`[test] ${r.label} FAILED after ${r.seconds}s (${r.at}s into the phase)`);
      else console.log(`[test] ${r.label} ok in ${r.seconds}s (${r.at}s into the phase)`);
      resolve(r);
    });
  });
}

/** Where the minutes went: every job's own time, and each lane's (printed at the end, pass or fail). */
function printTimings() {
  if (timings.length === 0) return;
  console.log('\n[test] timings (s):');
  for (const t of timings) console.log(`[test]   ${t.seconds.padStart(7)}  ${t.code === 0 ? 'ok    ' : 'FAILED'}  ${t.label}`);
  console.log(`[test]   ${((Date.now() - suiteStarted) / 1000).toFixed(1).padStart(7)}  total`);
}

/**
 * Runs lanes side by side (the machines have 2 cores); the jobs of one lane run one after another,
 * and a lane stops at its first failure. Each lane's time is printed when it ends.
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
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      timings.push({ label: `lane: ${lane.map((j) => j.label).join(' → ')}`, code: 0, seconds });
      return true;
    }),
  );
  if (results.some((ok) => !ok)) {
    printTimings();
    process.exit(1);
  }
}

const suiteStarted = Date.now();
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
const typecheck = { label: 'typecheck', cmd: 'npm', args: ['run', 'typecheck'] };
const lint = { label: 'lint', cmd: 'npx', args: ['eslint', '.'] };
const buildWeb = { label: 'build web', cmd: 'npm', args: ['run', 'build', '-w', '@lq/web'] };
const e2e = { label: 'end-to-end', cmd: 'npx', args: ['playwright', 'test'] };
const vitestPglite = { label: 'unit + integration (PGlite)', cmd: 'npx', args: ['vitest', 'run'] };

// Phases for two cores (`npm test -- <part>` runs one part alone: static, vitest, e2e). Measured
// alone on a quiet machine (wall / CPU seconds, 2026-11-27): the web build and browser tests
// 402 / 519 (about 1.3 cores: mostly waiting on the app); the PGlite suite 354 and the PostgreSQL
// pass 162, 516 / 846 together (about 1.6 cores); lint beside typecheck 100 / 182. All three lanes
// side by side took 1,665–1,861 s in CI against 1,016 s for the parts one after another: the
// integration tests and the browser flows wait on timers and jobs that starve when four processes
// share two cores. So:
// 1. the web build and browser tests, with typecheck and lint niced beside them in the spare
//    0.7 core (the browser tests keep the normal priority: they are the longer);
// 2. then the PGlite suite, then the PostgreSQL pass, each on both cores.
const background = (job) => ({ ...job, background: true });
if (!only) {
  await runLanes([[buildWeb, e2e], [typecheck, lint].map(background)]);
  await runLanes([[vitestPglite, ...postgresPass]]);
} else if (only === 'static') {
  await runLanes([[lint], [typecheck]]);
} else if (only === 'vitest') {
  await runLanes([[vitestPglite, ...postgresPass]]);
} else if (only === 'e2e') {
  await runLanes([[buildWeb, e2e]]);
} else {
  console.error(`[test] unknown part ${only}: static, vitest or e2e (or none for the whole suite)`);
  process.exit(2);
}
printTimings();
