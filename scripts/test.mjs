// `npm test`: installs what is missing (dependencies, Debian's Chromium), then runs every suite:
// typecheck, lint, the layer check, unit and API tests on PGlite, the API tests again on PostgreSQL when
// TEST_DATABASE_URL is set, then per edition (both, or the one EDITION names) the console build and
// the end-to-end tests in Chromium. The suites before the builds do not depend on the edition (the
// server tests choose theirs per test), so they run once.
// Ends with one line `N passed, N failed` totalled over all suites.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildConsole, buildServer } from './build.mjs';
import { ensureDependencies, root, run, runtimeNode } from './runtime.mjs';

const CHROMIUM = '/usr/bin/chromium';
const allEditions = ['oss', 'cloud'];
const editions = process.env.EDITION ? [process.env.EDITION] : allEditions;
if (!editions.every((edition) => allEditions.includes(edition))) {
  console.error(`EDITION must be one of ${allEditions.join(', ')} (or unset for both).`);
  process.exit(2);
}
const tmp = join(root, '.tmp');
mkdirSync(tmp, { recursive: true });
const suites = [];
/** Every test's seconds, `{ suite, title, seconds }`: the summary names the slowest. */
const testTimes = [];
/**
 * Every failure, `{ suite, title, message }`, printed again at the very end of the run: CI keeps only the end of its
 * log, and a refused landing must say which test failed and why.
 */
const failures = [];
/** The first lines of a failure message, without colour codes. */
const firstLines = (text, count = 8) =>
  String(text ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour sequences
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(0, count)
    .join('\n');
const startedAt = Date.now();
/** When the step being run began: each recorded suite gets its wall-clock seconds. */
let stepStartedAt = Date.now();
const beginStep = (title) => {
  console.log(`\n▶ ${title}`);
  stepStartedAt = Date.now();
};

function record(name, passed, failed, skipped = 0, note = '', flaky = 0) {
  const seconds = Math.round((Date.now() - stepStartedAt) / 100) / 10;
  suites.push({ name, passed, failed, skipped, flaky, seconds, note });
  stepStartedAt = Date.now();
}

/** A step that is one check: passes when the command exits 0. */
function check(name, command, args, options = {}) {
  beginStep(name);
  const result = run(command, args, { ...options, allowFailure: true });
  record(name, result.status === 0 ? 1 : 0, result.status === 0 ? 0 : 1);
}

/**
 * Checks that pass when their command exits 0, `limit` at a time. Each is recorded with its own seconds; its output is
 * printed whole when it ends, so the outputs of two checks never interleave.
 */
async function inParallel(checks, limit) {
  const queue = [...checks];
  const results = new Map();
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { name, command, args } = next;
      const began = Date.now();
      const child = spawn(command, args, { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      const status = await new Promise((resolve) => child.on('close', resolve));
      console.log(`\n▶ ${name}${output ? `\n${output.trimEnd()}` : ''}`);
      results.set(name, { status, seconds: Math.round((Date.now() - began) / 100) / 10 });
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  for (const { name } of checks) {
    const { status, seconds } = results.get(name);
    suites.push({
      name,
      passed: status === 0 ? 1 : 0,
      failed: status === 0 ? 0 : 1,
      skipped: 0,
      flaky: 0,
      seconds,
      note: '',
    });
  }
  stepStartedAt = Date.now();
}

function vitest(name, project, env = {}) {
  beginStep(name);
  const report = join(tmp, `vitest-${name.replace(/\W+/g, '-')}.json`);
  rmSync(report, { force: true });
  const vitestBin = join(root, 'node_modules', 'vitest', 'vitest.mjs');
  run(runtimeNode(), [vitestBin, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], {
    cwd: join(root, project),
    env,
    allowFailure: true,
  });
  if (!existsSync(report)) return record(name, 0, 1, 0, 'no report: the runner crashed');
  const summary = JSON.parse(readFileSync(report, 'utf8'));
  for (const file of summary.testResults ?? []) {
    const path = file.name.replace(`${root}/`, '');
    for (const test of file.assertionResults ?? []) {
      if (typeof test.duration === 'number') {
        testTimes.push({ suite: name, title: `${path}: ${test.fullName}`, seconds: test.duration / 1000 });
      }
    }
  }
  for (const file of summary.testResults ?? []) {
    const path = file.name.replace(`${root}/`, '');
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failedTests) {
      failures.push({
        suite: name,
        title: `${path}: ${test.fullName}`,
        message: firstLines(test.failureMessages?.join('\n')),
      });
    }
    // A file that failed without a failed test: its set-up, tear-down or an unhandled error.
    if (file.status === 'failed' && failedTests.length === 0) {
      failures.push({ suite: name, title: `${path} (the file, not a test)`, message: firstLines(file.message) });
    }
  }
  if (!summary.success && summary.numFailedTests === 0 && summary.numFailedTestSuites === 0) {
    failures.push({ suite: name, title: 'the run (an unhandled error, see the output above)', message: '' });
  }
  const crashed = summary.numFailedTestSuites > 0 && summary.numFailedTests === 0 ? 1 : 0;
  // A test that passed on a retry (CI retries once) but kept the failure of its first run.
  const flakyTitles = (summary.testResults ?? []).flatMap((file) =>
    (file.assertionResults ?? [])
      .filter((test) => test.status === 'passed' && (test.failureMessages ?? []).length > 0)
      .map((test) => `${file.name.replace(`${root}/`, '')}: ${test.fullName}`),
  );
  record(
    name,
    summary.numPassedTests,
    summary.numFailedTests + crashed,
    summary.numPendingTests + summary.numTodoTests,
    flakyTitles.length > 0 ? `flaky: ${flakyTitles.join('; ')}` : '',
    flakyTitles.length,
  );
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  if (process.getuid?.() !== 0) {
    console.error(`Chromium is missing at ${CHROMIUM}; install Debian's package: sudo apt-get install -y chromium`);
    return false;
  }
  console.log("Installing Debian's Chromium for the end-to-end tests…");
  run('apt-get', ['update', '-qq'], { allowFailure: true });
  return run('apt-get', ['install', '-y', '-qq', 'chromium'], { allowFailure: true }).status === 0;
}

ensureDependencies();
const hasChromium = ensureChromium();

const tsProjects = [
  'packages/schemas/tsconfig.json',
  'packages/server/tsconfig.json',
  'packages/console/tsconfig.json',
  'packages/console/tsconfig.node.json',
  'packages/e2e/tsconfig.json',
  'bench/tsconfig.json',
];
// tsc is single-threaded: the projects are checked two at a time, one per core (the server and the console together
// took ~80 s one after the other).
beginStep('typecheck');
await inParallel(
  tsProjects
    .filter((path) => existsSync(join(root, path)))
    .map((project) => ({
      name: `typecheck ${project.replace('packages/', '').replace('/tsconfig.json', '')}`,
      command: runtimeNode(),
      args: [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project],
    })),
  2,
);
check('lint (biome)', join(root, 'node_modules', '.bin', 'biome'), ['check', '.']);
// The import rules of the layer pictures (docs/conventions.md, .dependency-cruiser.cjs): one check, like lint.
check('layer check (dependency-cruiser)', runtimeNode(), [join(root, 'scripts', 'layer-check.mjs')]);

vitest('server unit + API on PGlite', 'packages/server', { TEST_DATABASE_URL: '' });
if (process.env.TEST_DATABASE_URL) {
  vitest('server API on PostgreSQL', 'packages/server', { TEST_DATABASE_URL: process.env.TEST_DATABASE_URL });
} else {
  console.log('\n!!! SKIPPED: the API tests on PostgreSQL. Set TEST_DATABASE_URL=postgres://… to run them. !!!');
  record('server API on PostgreSQL', 0, 0, 0, 'SKIPPED: TEST_DATABASE_URL is not set');
}
if (existsSync(join(root, 'packages', 'console', 'vitest.config.ts'))) vitest('console unit', 'packages/console');

/** The console build of one edition (and the server bundle), then its end-to-end tests in Chromium. */
async function buildAndEndToEnd(edition) {
  beginStep(`build: console (${edition}) and server bundle`);
  try {
    buildConsole({ force: true, edition });
    await buildServer({ force: true });
    record(`build (console ${edition}, server)`, 1, 0);
  } catch (error) {
    console.error(error);
    record(`build (console ${edition}, server)`, 0, 1);
    return;
  }
  if (!hasChromium) return record(`end-to-end (${edition})`, 0, 1, 0, 'Chromium is not installed');
  beginStep(`end-to-end in Chromium (${edition})`);
  const report = join(tmp, `playwright-${edition}.json`);
  rmSync(report, { force: true });
  const runner = run(
    runtimeNode(),
    [join(root, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '--reporter=list,json'],
    {
      cwd: join(root, 'packages', 'e2e'),
      env: { PLAYWRIGHT_JSON_OUTPUT_NAME: report, EDITION: edition },
      allowFailure: true,
    },
  );
  if (!existsSync(report)) return record(`end-to-end (${edition})`, 0, 1, 0, 'no report: the runner crashed');
  const { stats, suites: specSuites, errors: runErrors } = JSON.parse(readFileSync(report, 'utf8'));
  // A run that failed outside every test (its web server did not start, a global setup threw) reports no failed
  // test, yet tested nothing: it counts as one failure, or a dead suite would pass CI with 0 of 0.
  const ranNothing = stats.expected + stats.flaky + stats.unexpected === 0;
  if (stats.unexpected === 0 && (runner.status !== 0 || (runErrors ?? []).length > 0 || ranNothing)) {
    const reason = firstLines(runErrors?.[0]?.message) || `the runner exited with ${runner.status}, no test ran`;
    failures.push({ suite: `end-to-end (${edition})`, title: 'the run itself, outside any test', message: reason });
    stats.unexpected = 1;
  }
  const flakyTitles = [];
  const collect = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'flaky') flakyTitles.push(`${spec.file}: ${spec.title}`);
        if (test.status === 'unexpected') {
          const last = (test.results ?? []).at(-1);
          failures.push({
            suite: `end-to-end (${edition})`,
            title: `${spec.file}:${spec.line}: ${spec.title}`,
            message: firstLines(last?.error?.message ?? last?.errors?.[0]?.message),
          });
        }
      }
    }
    for (const child of suite.suites ?? []) collect(child);
  };
  for (const suite of specSuites ?? []) collect(suite);
  const timeTests = (suite, titles = []) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        // Each attempt counts: a retry costs the run as much as the first attempt.
        const ms = (test.results ?? []).reduce((sum, result) => sum + (result.duration ?? 0), 0);
        testTimes.push({
          suite: `end-to-end (${edition})`,
          title: `${spec.file}: ${[...titles, spec.title].join(' › ')}`,
          seconds: ms / 1000,
        });
      }
    }
    for (const child of suite.suites ?? []) timeTests(child, child.title ? [...titles, child.title] : titles);
  };
  for (const suite of specSuites ?? []) timeTests(suite);
  const note = flakyTitles.length > 0 ? `flaky: ${flakyTitles.join('; ')}` : '';
  record(`end-to-end (${edition})`, stats.expected + stats.flaky, stats.unexpected, stats.skipped, note, stats.flaky);
}

for (const edition of editions) await buildAndEndToEnd(edition);

const total = suites.reduce(
  (sum, s) => ({
    passed: sum.passed + s.passed,
    failed: sum.failed + s.failed,
    skipped: sum.skipped + s.skipped,
    flaky: sum.flaky + s.flaky,
  }),
  { passed: 0, failed: 0, skipped: 0, flaky: 0 },
);
total.seconds = Math.round((Date.now() - startedAt) / 100) / 10;
const slowest = testTimes
  .sort((a, b) => b.seconds - a.seconds)
  .slice(0, 10)
  .map((entry) => ({ ...entry, seconds: Math.round(entry.seconds * 10) / 10 }));
writeFileSync(join(tmp, 'test-summary.json'), JSON.stringify({ editions, suites, slowest, total }, null, 2));
console.log('\nSuite                                      passed  failed  skipped  flaky  seconds');
const line = (name, s, note = '') =>
  console.log(
    `${name.padEnd(42)} ${String(s.passed).padStart(6)}  ${String(s.failed).padStart(6)}  ${String(s.skipped).padStart(7)}  ${String(s.flaky).padStart(5)}  ${s.seconds.toFixed(1).padStart(7)}  ${note}`,
  );
for (const s of suites) line(s.name, s, s.note);
line('total (wall clock, installs included)', total);
// What the run's time goes to (docs/testing.md keeps the per-area budget).
console.log('\nThe ten slowest tests (seconds, retries included):');
for (const entry of slowest) console.log(`${entry.seconds.toFixed(1).padStart(7)}  ${entry.suite}  ${entry.title}`);
if (failures.length > 0) {
  console.log(`\nWhat failed (${failures.length}):`);
  for (const failure of failures) {
    console.log(`\n✗ ${failure.suite}  ${failure.title}`);
    if (failure.message) console.log(failure.message.replace(/^/gm, '    '));
  }
}
// A test that passed only on a retry counts as passed and is named here: there should be none.
if (total.flaky > 0) console.log(`\n${total.flaky} flaky: passed only on a retry (see the end-to-end output above)`);
console.log(
  `\n${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}${total.flaky ? `, ${total.flaky} flaky` : ''}`,
);
process.exit(total.failed > 0 ? 1 : 0);
