// `npm test`: the whole suite. Makes sure Debian's Chromium (its headless shell, and the full browser for the push test) is there for the browser tests, then
// runs typecheck, lint, unit + integration tests on PGlite, builds the web app and runs the
// Playwright end-to-end tests, in two phases (below); each job's and lane's time is printed at the end.
// TEST_POSTGRES_URL (set by .ci/run): the integration suite runs a second time on that PostgreSQL,
// after the PGlite pass.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { budgetReport, failuresReport, RESULTS, slowestReport } from './test-budget.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';
// The full browser, for e2e/push.spec.ts only: the headless shell has no notifications.
const CHROMIUM_FULL = process.env.CHROMIUM_FULL_PATH ?? '/usr/bin/chromium';

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
  if (existsSync(CHROMIUM) && existsSync(CHROMIUM_FULL)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `[test] Chromium is missing at ${CHROMIUM} or ${CHROMIUM_FULL}. Install Debian's packages first:\n` +
        '  sudo apt-get update && sudo apt-get install -y chromium-headless-shell chromium\n' +
        '(or set CHROMIUM_PATH / CHROMIUM_FULL_PATH to Chromium binaries)',
    );
    process.exit(1);
  }
  run('install chromium', 'apt-get', ['update', '-qq']);
  run('install chromium', 'apt-get', ['install', '-y', '-qq', 'chromium-headless-shell', 'chromium'], {
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
    const child = spawn(job.cmd, job.args, { stdio: 'inherit', env: { ...process.env, ...(job.env ?? {}) } });
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
  const total = ((Date.now() - suiteStarted) / 1000).toFixed(1);
  console.log(`[test]   ${total.padStart(7)}  total`);
  // The whole suite only: a part run alone has no total to compare.
  const measured = only ? timings : [...timings, { label: 'total', seconds: total }];
  console.log('');
  for (const line of budgetReport(measured)) console.log(line);
  if (process.env.CI || process.env.TEST_SLOWEST) {
    console.log('');
    for (const line of slowestReport()) console.log(line);
  }
  // Last: what failed (CI keeps the tail of the output).
  const failedJobs = timings.filter((t) => t.code !== 0);
  const failures = failuresReport();
  if (failedJobs.length === 0 && failures.length === 0) return;
  console.log('');
  for (const line of failures) console.log(line);
  for (const t of failedJobs) console.error(`[test] FAILED job: ${t.label} (exit ${t.code} after ${t.seconds}s)`);
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
/** Vitest's usual output, and each test's time in a JSON report for the budget (scripts/test-budget.mjs). */
function jsonReport(path) {
  mkdirSync(dirname(path), { recursive: true });
  rmSync(path, { force: true });
  return ['--reporter=default', '--reporter=json', `--outputFile.json=${path}`];
}
// A report left by an earlier run would be read as this run's.
rmSync(RESULTS.e2e, { force: true });
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
        args: ['vitest', 'run', '--project', 'integration', '--exclude', 'packages/venues/**', ...jsonReport(RESULTS.postgres)],
        env: { DATABASE_URL: postgres, RUNNER_CRASH_KILLS: '8', WALLET_KILLS: '5', DEPOSIT_KILLS: '5', WITHDRAW_KILLS: '5', BENEFIT_KILLS: '5', REBATE_KILLS: '5', FUZZ_RUNS: '100' },
      },
    ]
  : [];
const typecheck = { label: 'typecheck', cmd: 'npm', args: ['run', 'typecheck'] };
// Lint in two parts, so both cores work through it: the web app (its React rules and its own
// program) after the typecheck, everything else beside them (measured side by side: 91 s, against
// 96 for one `eslint .` beside the typecheck; the parts cover the same files, the second ignores
// only apps/web).
const lintWeb = { label: 'lint (web)', cmd: 'npx', args: ['eslint', 'apps/web'] };
const lintRest = { label: 'lint (all but web)', cmd: 'npx', args: ['eslint', '.', '--ignore-pattern', 'apps/web/**'] };
const buildWeb = { label: 'build web', cmd: 'npm', args: ['run', 'build', '-w', '@lq/web'] };
const e2e = { label: 'end-to-end', cmd: 'npx', args: ['playwright', 'test'] };
// CI (every session pays its minutes) kills each SIGKILL test's child half as often as a local
// `npm test` does; the soak command and the env variables run any count.
const ciKills = process.env.CI ? { RUNNER_CRASH_KILLS: '25', WALLET_KILLS: '10', DEPOSIT_KILLS: '10', WITHDRAW_KILLS: '10', BENEFIT_KILLS: '10', REBATE_KILLS: '10' } : {};
const vitestPglite = { label: 'unit + integration (PGlite)', cmd: 'npx', args: ['vitest', 'run', ...jsonReport(RESULTS.vitest)], env: ciKills };

// Phases for two cores (`npm test -- <part>` runs one part alone: static, vitest, e2e), each
// using both cores on its own. Measured alone on a quiet machine (wall seconds, 2026-11-28):
// typecheck 48 and lint 75 (side by side about 100); the web build and browser tests 560 (968
// test-seconds on two workers: both cores busy); the PGlite suite 540, the PostgreSQL pass about
// 250. Anything beside the browser tests slows them more than it saves: with typecheck and lint
// niced beside them they took 787 s in CI.
if (!only) {
  await runLanes([[typecheck, lintWeb], [lintRest]]);
  await runLanes([[buildWeb, e2e]]);
  await runLanes([[vitestPglite, ...postgresPass]]);
} else if (only === 'static') {
  await runLanes([[typecheck, lintWeb], [lintRest]]);
} else if (only === 'vitest') {
  await runLanes([[vitestPglite, ...postgresPass]]);
} else if (only === 'e2e') {
  await runLanes([[buildWeb, e2e]]);
} else {
  console.error(`[test] unknown part ${only}: static, vitest or e2e (or none for the whole suite)`);
  process.exit(2);
}
printTimings();
