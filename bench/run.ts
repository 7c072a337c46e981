// `npm run bench [-- --only a,b]`: runs the benches, prints one table to stdout
// and writes bench/results.json; progress goes to stderr. Exits 1 when a bench fails or a figure is over budget.
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from './build.ts';
import { consoleSize, consoleSpeed } from './console-browser.ts';
import { crashSafety } from './crash-safety.ts';
import { install } from './install.ts';
import { type Bench, binDir, childEnv, type Figure, log, root, runToEnd } from './lib.ts';
import { load } from './load.ts';
import { managementApi, managementApiPglite } from './management-api.ts';
import { processes } from './processes.ts';
import { rss } from './rss.ts';
import { serverColdStart, start } from './start.ts';
import { statusThroughput } from './status-throughput.ts';
import { tokenIssuance } from './token-issuance.ts';
import { userImport, userImportPglite } from './user-import.ts';

const { values } = parseArgs({
  options: { only: { type: 'string' } },
});
const benches: Bench[] = [
  install,
  build,
  start,
  serverColdStart,
  rss,
  consoleSize,
  consoleSpeed,
  statusThroughput,
  tokenIssuance,
  managementApi,
  managementApiPglite,
  processes,
  userImport,
  userImportPglite,
  crashSafety,
  load,
];

// --only takes bench names (install, start…), part names (users-search…) or figure names
// (status-p99…), comma separated. A part or figure runs only that part of its bench.
const wanted = values.only
  ?.split(',')
  .map((name) => name.trim())
  .filter(Boolean);
const inBench = (b: Bench, name: string) => b.figures.includes(name) || (b.parts ?? []).includes(name);
const unknown = wanted?.filter((name) => !benches.some((b) => b.name === name || inBench(b, name)));
if (unknown?.length) {
  console.error(`Unknown bench: ${unknown.join(', ')}. Known: ${benches.map((b) => b.name).join(', ')}`);
  console.error(`Parts: ${benches.flatMap((b) => b.parts ?? []).join(', ')}`);
  process.exit(2);
}
const selected = benches.filter((b) => !wanted || wanted.some((name) => b.name === name || inBench(b, name)));
/** What to run of a bench: everything when it is named (or nothing was asked), else the named parts and figures. */
const partsOf = (b: Bench): ReadonlySet<string> | undefined =>
  !wanted || wanted.includes(b.name) ? undefined : new Set(wanted.filter((name) => inBench(b, name)));

const machine = {
  cores: cpus().length,
  loadavg: loadavg().map((load) => Number(load.toFixed(2))),
  node: process.version,
  date: new Date().toISOString(),
};
log(`${machine.cores} cores, load ${machine.loadavg.join(' ')}, node ${machine.node}`);
// The benches start the server bundle and serve the built console: build what is stale first.
await runToEnd(join(binDir, 'node'), [join(root, 'scripts', 'build.mjs')], { cwd: root, env: childEnv({}) });

const figures: (Figure & { ratio: number | null })[] = [];
const failures: { bench: string; error: string }[] = [];
const rows = [['name', 'value', 'unit', 'budget', 'ratio', 'status', 'note']];
for (const bench of selected) {
  log(`── ${bench.name}`);
  try {
    for (const figure of await bench.run(partsOf(bench))) {
      const ratio = !figure.budget ? null : Number((figure.value / figure.budget).toFixed(2));
      figures.push({ ...figure, ratio });
      const withinBudget =
        figure.budget === null
          ? null
          : figure.better === 'higher'
            ? figure.value >= figure.budget
            : figure.value <= figure.budget;
      const status = withinBudget === null ? '—' : withinBudget ? 'ok' : figure.better === 'higher' ? 'under' : 'over';
      const budget = figure.budget === null ? '—' : String(figure.budget);
      rows.push([
        figure.name,
        String(figure.value),
        figure.unit,
        budget,
        ratio?.toFixed(2) ?? '—',
        status,
        figure.note ?? '',
      ]);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`${bench.name} failed: ${message}`);
    failures.push({ bench: bench.name, error: message });
    rows.push([bench.name, 'FAILED', '', '', '', 'error (see stderr)', '']);
  }
}

const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
for (const row of rows)
  console.log(
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );

writeFileSync(join(root, 'bench', 'results.json'), `${JSON.stringify({ machine, figures, failures }, null, 2)}\n`);
log('wrote bench/results.json');
const missed = (f: (typeof figures)[number]) =>
  f.budget !== null && (f.better === 'higher' ? f.value < f.budget : f.value > f.budget);
process.exit(failures.length || figures.some(missed) ? 1 : 0);
