// `rss`: resident memory of the idle server process (node itself, no wrapper), 5 s after it is ready,
// on PostgreSQL (`rss`: the database is a process of its own, as for any server) and on the embedded
// PGlite (`rss-pglite`: the process holds PostgreSQL too, compiled to WebAssembly).
import { readFileSync } from 'node:fs';
import { type Bench, dataDir, type Figure, log, round, sleep, startServer, tempDir } from './lib.ts';
import { databaseUrl } from './management-api.ts';

/** A /proc/<pid>/status field in kB (really KiB), as bytes. */
export function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match?.[1]) throw new Error(`no ${field} for pid ${pid}`);
  return Number(match[1]) * 1024;
}

/** User plus system CPU time a process has used, in seconds (/proc/<pid>/stat, clock ticks of 1/100 s). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // state ppid … utime (12th) stime (13th)
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Issue 38's budgets: the server alone on PostgreSQL; with PostgreSQL compiled to WebAssembly in it, more. */
const BUDGET_MB = { rss: 150, 'rss-pglite': 200 } as const;

async function idleRss(
  name: keyof typeof BUDGET_MB,
  dir: string,
  env: Record<string, string>,
  note: string,
): Promise<Figure> {
  const server = await startServer(dir, env);
  try {
    const pid = server.child.pid;
    if (!pid) throw new Error('server has no pid');
    log(`${name}: server ready, idling 5 s…`);
    await sleep(5000);
    const mb = round(statusBytes(pid, 'VmRSS') / 1e6, 1);
    const peak = round(statusBytes(pid, 'VmHWM') / 1e6, 1);
    return { name, value: mb, unit: 'MB', budget: BUDGET_MB[name], samples: [mb], note, details: { peakMB: peak } };
  } finally {
    await server.stop();
  }
}

export const rss: Bench = {
  name: 'rss',
  figures: ['rss', 'rss-pglite'],
  async run(only) {
    const figures: Figure[] = [];
    if (!only || only.has('rss')) {
      const database = await databaseUrl().catch((error: unknown) => {
        log(`rss: SKIPPED on PostgreSQL, no server at BENCH_DATABASE_URL (${String(error)})`);
        return undefined;
      });
      if (database)
        figures.push(
          await idleRss('rss', tempDir('rss'), { DATABASE_URL: database.url }, `server process; ${database.version}`),
        );
    }
    if (!only || only.has('rss-pglite'))
      figures.push(await idleRss('rss-pglite', await dataDir(), {}, 'server and its embedded PGlite in one process'));
    return figures;
  },
};
