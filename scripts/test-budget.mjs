// The suite's time budget (issue 54): `scripts/test-budget.json` holds each job's and phase's
// seconds as measured on a fresh clone of this 2-core machine when the budget was set, and the
// commit it was set at. `npm test` prints every time beside its budget and, for one over it, the
// slowest tests in test files added or changed since that commit — where the new minutes most
// likely come from. A report, never a failure: machines differ by 1.6×, so the change that adds
// minutes sees it and says so in its note (or sets the budget again, with its reason).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const BUDGET_FILE = new URL('./test-budget.json', import.meta.url);
/** Where the jobs write their per-test results (JSON reporters; e2e/artifacts is ignored by git). */
export const RESULTS = {
  vitest: 'e2e/artifacts/timings/vitest.json',
  postgres: 'e2e/artifacts/timings/vitest-postgres.json',
  e2e: 'e2e/artifacts/timings/playwright.json',
};

function readBudget() {
  try {
    return JSON.parse(readFileSync(BUDGET_FILE, 'utf8'));
  } catch {
    return null;
  }
}

/** Test files added or changed since the budget was set (none when git or the commit is missing). */
function changedTestFiles(since) {
  try {
    const out = execFileSync('git', ['diff', '--name-only', `${since}..HEAD`, '--', '*.test.ts', '*.test.tsx', '*.spec.ts'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return new Set(out.split('\n').filter(Boolean));
  } catch {
    return new Set();
  }
}

/**
 * [{file, name, seconds, failed, error}] of a Vitest JSON report; `failed` names a failed test, and
 * a file that failed outside its tests (an error in a hook or at import) is a row without a name.
 */
function vitestTests(path) {
  const report = JSON.parse(readFileSync(path, 'utf8'));
  return report.testResults.flatMap((file) => {
    const rows = file.assertionResults.map((t) => ({
      file: relative(process.cwd(), file.name),
      name: t.fullName ?? t.title,
      seconds: (t.duration ?? 0) / 1000,
      failed: t.status === 'failed' ? 'FAILED' : undefined,
      error: t.failureMessages?.[0],
    }));
    if (file.status === 'failed' && !rows.some((r) => r.failed)) rows.push({ file: relative(process.cwd(), file.name), name: '', seconds: 0, failed: 'FAILED', error: file.message });
    return rows;
  });
}

/** [{file, name, seconds, failed, error}] of a Playwright JSON report (each project's run its own row). */
function playwrightTests(path) {
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const rows = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const seconds = (test.results ?? []).reduce((s, r) => s + (r.duration ?? 0), 0) / 1000;
        const failed = test.status === 'unexpected' ? 'FAILED' : test.status === 'flaky' ? 'FLAKY (passed on retry)' : undefined;
        const error = (test.results ?? []).map((r) => r.error?.message).find(Boolean);
        rows.push({ file: `e2e/${spec.file}`, line: spec.line, name: `[${test.projectName}] ${spec.title}`, seconds, failed, error });
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  // Errors outside any test (global setup, a spec that does not load).
  for (const error of report.errors ?? []) rows.push({ file: 'e2e', name: '', seconds: 0, failed: 'FAILED', error: error.message });
  return rows;
}

const RESULTS_OF = { 'unit + integration (PGlite)': ['vitest', vitestTests], 'integration on PostgreSQL': ['postgres', vitestTests], 'end-to-end': ['e2e', playwrightTests] };

/**
 * Lines for `timings` ({label, seconds}): each beside its budget; under one over it, the slowest
 * tests of the files new or changed since the budget was set.
 */
export function budgetReport(timings) {
  const budget = readBudget();
  if (!budget) return ['[test] no scripts/test-budget.json: no budget to compare with'];
  const changed = changedTestFiles(budget.setAt);
  const lines = [`[test] against the budget set at ${String(budget.setAt).slice(0, 10)} (${budget.measured ?? 'fresh clone'}):`];
  for (const t of timings) {
    const limit = budget.seconds?.[t.label];
    if (limit === undefined) continue;
    const over = Number(t.seconds) > limit;
    lines.push(`[test]   ${String(t.seconds).padStart(7)} s of ${String(limit).padStart(5)} s  ${over ? 'OVER  ' : 'within'}  ${t.label}`);
    const source = RESULTS_OF[t.label];
    if (!over || !source) continue;
    const path = RESULTS[source[0]];
    if (!existsSync(path)) continue;
    const fresh = source[1](path)
      .filter((r) => r.name && changed.has(r.file))
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, 10);
    if (fresh.length === 0) lines.push('[test]       no test file changed since the budget was set: the time went elsewhere (the machine, the app)');
    for (const r of fresh) lines.push(`[test]       ${r.seconds.toFixed(1).padStart(6)} s  ${r.file} › ${r.name}`);
  }
  return lines;
}

/** The slowest files and tests of the reports there are (the note's "where the minutes go"). */
export function slowestReport(n = 20) {
  const lines = [];
  for (const [label, [key, read]] of Object.entries(RESULTS_OF)) {
    const path = RESULTS[key];
    if (!existsSync(path)) continue;
    // Rows without a name are failures outside any test: no time of their own.
    const tests = read(path).filter((t) => t.name);
    const files = new Map();
    for (const t of tests) files.set(t.file, (files.get(t.file) ?? 0) + t.seconds);
    lines.push(`[test] ${label}: ${tests.length} tests in ${files.size} files; the slowest files (test-seconds):`);
    for (const [file, s] of [...files].sort((a, b) => b[1] - a[1]).slice(0, n)) lines.push(`[test]   ${s.toFixed(1).padStart(7)}  ${file}`);
    lines.push(`[test] ${label}: the slowest tests:`);
    for (const t of [...tests].sort((a, b) => b.seconds - a.seconds).slice(0, n)) lines.push(`[test]   ${t.seconds.toFixed(1).padStart(7)}  ${t.file} › ${t.name}`);
  }
  return lines;
}

/** The first line of an error message, trimmed for a one-line report. */
function firstLine(message) {
  const line = String(message ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((l) => l.trim()) ?? '';
  return line.trim().slice(0, 240);
}

/**
 * What failed, from the reports there are, printed last: CI keeps only the tail of its output, and a
 * failure scrolled above the timings is one nobody can read. Flaky browser tests (passed on retry)
 * are named too: the next run's failure.
 */
export function failuresReport() {
  const lines = [];
  for (const [label, [key, read]] of Object.entries(RESULTS_OF)) {
    if (!existsSync(RESULTS[key])) continue;
    for (const r of read(RESULTS[key])) {
      if (!r.failed) continue;
      const where = r.line ? `${r.file}:${r.line}` : r.file;
      lines.push(`[test] ${r.failed} ${label}: ${where}${r.name ? ` › ${r.name}` : ''}: ${firstLine(r.error)}`);
    }
  }
  return lines;
}
