// `load` (issue 23): 200 connections for 60 s (BENCH_LOAD_SECONDS) of mixed management API reads and writes on
// PGlite and on PostgreSQL: errors, p99, and the server's resident memory before, right after, and 10 s after.
// Reads: a users page, a user, the applications, audit logs; writes: a new user, a user's name. One machine token.
import { randomBytes } from 'node:crypto';
import autocannon, { type Request } from 'autocannon';
import pg from 'pg';
import { type Bench, type Figure, log, round, runCli, sleep, startServer, tempDir } from './lib.ts';
import { cpuSeconds, statusBytes } from './rss.ts';

const CONNECTIONS = 200;
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const SEED_USERS = 200;

type Credentials = { clientId: string; clientSecret: string; resource: string; tokenEndpoint: string };
type Backend = 'pglite' | 'postgres';

async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `gatehouse_load_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: admin });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

async function loadRound(backend: Backend): Promise<Figure[]> {
  const database = backend === 'postgres' ? await freshDatabase() : undefined;
  const env: Record<string, string> = database ? { DATABASE_URL: database.url } : {};
  const dataDir = tempDir(`load-${backend}`);
  const server = await startServer(dataDir, env);
  try {
    const pid = server.child.pid;
    if (!pid) throw new Error('server has no pid');
    const credentials = await runCli<Credentials>(['m2m', 'create', '--name', 'load', '--tenant', 'default'], {
      DATA_DIR: dataDir,
      ...env,
    });
    const tokenResponse = await fetch(`${server.url}/oidc/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource: credentials.resource, scope: 'all' }),
    });
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const userIds: string[] = [];
    for (let index = 0; index < SEED_USERS; index++) {
      const response = await fetch(`${server.url}/api/users`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ username: `load_seed_${index}`, primaryEmail: `load${index}@example.com` }),
      });
      userIds.push(((await response.json()) as { id: string }).id);
    }
    const pick = () => userIds[Math.floor(Math.random() * userIds.length)] ?? '';
    let serial = 0;
    const requests: (Request & { setupRequest?: (request: Request) => Request })[] = [
      { method: 'GET', path: '/api/users?page=1&page_size=20' },
      { method: 'GET', setupRequest: (request) => ({ ...request, path: `/api/users/${pick()}` }) },
      { method: 'GET', path: '/api/applications' },
      { method: 'GET', path: '/api/logs?page=1&page_size=20' },
      {
        method: 'POST',
        setupRequest: (request) => ({
          ...request,
          path: '/api/users',
          body: JSON.stringify({ username: `load_${process.pid}_${serial++}` }),
        }),
      },
      {
        method: 'PATCH',
        setupRequest: (request) => ({
          ...request,
          path: `/api/users/${pick()}`,
          body: JSON.stringify({ name: `Name ${serial++}` }),
        }),
      },
    ];
    await sleep(2000);
    const before = statusBytes(pid, 'VmRSS');
    // VmHWM includes start-up (on PGlite, V8 compiling PostgreSQL's WebAssembly), so the load's own high mark is
    // sampled every second; the server's CPU time per request is steadier than req/s on a shared machine.
    const startupPeak = statusBytes(pid, 'VmHWM');
    const cpuBefore = cpuSeconds(pid);
    let loadPeak = before;
    const sampler = setInterval(() => {
      loadPeak = Math.max(loadPeak, statusBytes(pid, 'VmRSS'));
    }, 1000);
    log(`load: ${backend}, ${CONNECTIONS} connections, ${SECONDS} s of mixed reads and writes…`);
    const result = await autocannon({
      url: server.url,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers,
      requests,
      timeout: 10,
    });
    clearInterval(sampler);
    const cpuPerRequest = ((cpuSeconds(pid) - cpuBefore) * 1000) / Math.max(1, result.requests.total);
    const after = statusBytes(pid, 'VmRSS');
    loadPeak = Math.max(loadPeak, after);
    await sleep(10_000);
    const settled = statusBytes(pid, 'VmRSS');
    const peak = statusBytes(pid, 'VmHWM');
    const errors = result.errors + result.non2xx;
    const label = backend === 'postgres' ? 'load' : 'load-pglite';
    const mb = (bytes: number) => round(bytes / 1e6, 1);
    const note = `${CONNECTIONS} connections, ${SECONDS} s, ${backend === 'postgres' ? 'PostgreSQL' : 'PGlite'}`;
    return [
      {
        name: `${label}-rps`,
        value: round(result.requests.average, 0),
        unit: 'req/s',
        budget: null,
        samples: [result.requests.average],
        details: { serverCpuMsPerRequest: round(cpuPerRequest, 2) },
        note,
      },
      {
        name: `${label}-p99`,
        value: result.latency.p99,
        unit: 'ms',
        budget: null,
        samples: [result.latency.p99],
        details: { p50: result.latency.p50, p90: result.latency.p90, max: result.latency.max },
        note,
      },
      {
        name: `${label}-errors`,
        value: errors,
        unit: 'count',
        budget: 0,
        samples: [errors],
        details: {
          errors: result.errors,
          timeouts: result.timeouts,
          non2xx: result.non2xx,
          total: result.requests.total,
        },
        note,
      },
      {
        name: `${label}-rss`,
        value: mb(after),
        unit: 'MB',
        budget: null,
        samples: [mb(before), mb(after), mb(settled)],
        details: {
          beforeMB: mb(before),
          afterMB: mb(after),
          tenSecondsLaterMB: mb(settled),
          loadPeakMB: mb(loadPeak),
          startupPeakMB: mb(startupPeak),
          peakMB: mb(peak),
        },
        note: `${note}; before ${mb(before)} MB, peak under load ${mb(loadPeak)} MB, 10 s after ${mb(settled)} MB`,
      },
    ];
  } finally {
    await server.stop();
    await database?.drop();
  }
}

export const load: Bench = {
  name: 'load',
  figures: [
    'load-rps',
    'load-p99',
    'load-errors',
    'load-rss',
    'load-pglite-rps',
    'load-pglite-p99',
    'load-pglite-errors',
    'load-pglite-rss',
  ],
  async run() {
    const backends = (process.env.BENCH_LOAD_BACKENDS ?? 'postgres,pglite').split(',') as Backend[];
    const figures: Figure[] = [];
    for (const backend of backends) figures.push(...(await loadRound(backend)));
    return figures;
  },
};
