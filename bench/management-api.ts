// `management-api` (PostgreSQL) and `management-api-pglite` (the embedded default): throughput and
// latency of management API routes at scale, with a real machine-to-machine token (client
// credentials), autocannon 10 connections × 10 s per route.
//
// Data: a large tenant (`default`: users and audit-log rows) and a small one (`bench-10k`), filled
// by the server's seed tool (`npm run cli -- seed`). The seeded state is cached: PostgreSQL keeps it
// in the `gatehouse_bench` database (created once), PGlite in bench/.cache/pglite-scale; the seed
// tool only adds what is missing, and the figures say how long seeding took when it ran. The server
// runs the cloud edition so that both tenants are reachable (/m/{tenant}/api); the management API
// is the same router the OSS edition mounts at /api for the default tenant.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import autocannon, { type Request } from 'autocannon';
import pg from 'pg';
import { type Bench, type Figure, log, median, root, round, runCli, startServer, tempDir } from './lib.ts';

type Backend = 'postgres' | 'pglite';
type Scale = { users: number; logs: number; smallUsers: number };

const envNumber = (name: string, fallback: number) => {
  const value = process.env[name];
  return value ? Number(value.replace(/[_,]/g, '')) : fallback;
};
/** Issue 10: 1M users and 10M log rows on PostgreSQL; the embedded database at a tenth of that. */
const scales: Record<Backend, Scale> = {
  postgres: {
    users: envNumber('BENCH_PG_USERS', 1_000_000),
    logs: envNumber('BENCH_PG_LOGS', 10_000_000),
    smallUsers: 10_000,
  },
  pglite: {
    users: envNumber('BENCH_PGLITE_USERS', 100_000),
    logs: envNumber('BENCH_PGLITE_LOGS', 1_000_000),
    smallUsers: 10_000,
  },
};
const LARGE_TENANT = 'default';
const SMALL_TENANT = 'bench-10k';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const benchDatabase = process.env.BENCH_DATABASE_NAME ?? 'gatehouse_bench';

/** The bench database on the PostgreSQL server, created on first use and kept. */
export async function databaseUrl(): Promise<{ url: string; version: string }> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  const exists = await client.query('select 1 from pg_database where datname = $1', [benchDatabase]);
  if (exists.rowCount === 0) await client.query(`create database ${benchDatabase}`);
  const version = (await client.query<{ server_version: string }>('show server_version')).rows[0]?.server_version;
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${benchDatabase}`;
  return { url: url.toString(), version: `PostgreSQL ${version?.split(' ')[0] ?? '?'}` };
}

type SeedRun = { at: string; usersAdded: number; usersSeconds: number; logsAdded: number; logsSeconds: number };
type SeedReport = {
  users: { before: number; after: number; added: number; seconds: number };
  logs: { before: number; after: number; added: number; seconds: number };
  runs: SeedRun[];
};
type Credentials = { clientId: string; clientSecret: string; resource: string; tokenEndpoint: string };

async function token(base: string, tenant: string, credentials: Credentials): Promise<string> {
  const path = tenant === 'default' ? '/oidc/token' : `/t/${tenant}/oidc/token`;
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource: credentials.resource, scope: 'all' }),
  });
  if (!response.ok) throw new Error(`token request failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

type Route = {
  name: string;
  method: 'GET' | 'PATCH' | 'POST';
  path: string;
  /** A fresh body per request (unique usernames, changing names). */
  body?: () => string;
  /** Paths taken in turn, one per request (else always `path`). */
  paths?: readonly string[];
  minRps: number | null;
  maxP99: number | null;
  note: string;
};

const routeNames = [
  'application-get',
  'applications-list',
  'users-page-small',
  'users-page-large',
  'users-search',
  'logs-by-user',
  'logs-page',
  'user-patch',
  'user-create',
] as const;
const figureSuffixes = ['rps', 'p50', 'p99', 'errors'] as const;

const count = (value: number) => value.toLocaleString('en-US');

/** Seconds of each measured run. */
const RUN_SECONDS = 10;

/** Runs of each route (BENCH_API_RUNS): the figures are their medians. */
const runsPerRoute = Math.max(1, envNumber('BENCH_API_RUNS', 1));

/**
 * Waits until the server has worked off what the last run left in flight (slow requests go on
 * after autocannon stops; PGlite answers one query at a time), so the next route starts on an idle server.
 */
async function drain(base: string, accessToken: string, probePath: string): Promise<void> {
  const response = await fetch(`${base}${probePath}`, {
    headers: { Authorization: `Bearer ${accessToken}` },
    signal: AbortSignal.timeout(300_000),
  });
  await response.arrayBuffer();
}

async function measure(
  base: string,
  accessToken: string,
  route: Route,
  prefix: string,
  probePath: string,
): Promise<Figure[]> {
  const makeBody = route.body;
  const paths = route.paths;
  let turn = 0;
  const setupRequest = (request: Request): Request => ({
    ...request,
    ...(paths?.length ? { path: paths[turn++ % paths.length] } : {}),
    ...(makeBody ? { body: makeBody() } : {}),
  });
  const load = (duration: number) =>
    autocannon({
      url: `${base}${route.path}`,
      method: route.method,
      connections: 10,
      duration,
      headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' },
      ...(makeBody || paths ? { requests: [{ setupRequest }] } : {}),
    });
  log(
    `${prefix}management-api: ${route.method} ${route.path} (2 s warm-up, then ${runsPerRoute} × 10 s, 10 connections)…`,
  );
  await load(2);
  await drain(base, accessToken, probePath);
  const results = [];
  for (let run = 0; run < runsPerRoute; run++) {
    results.push(await load(RUN_SECONDS));
    await drain(base, accessToken, probePath);
  }
  const rps = results.map((result) => result.requests.average);
  // A run in which no request completed has no latency to report (autocannon says 0, which would pass any
  // budget): every request took longer than the run, so the run's length is the figure.
  const latency = (result: { requests: { total: number } }, value: number) =>
    result.requests.total > 0 ? value : RUN_SECONDS * 1000;
  const p50 = results.map((result) => latency(result, result.latency.p50));
  const p99 = results.map((result) => latency(result, result.latency.p99));
  // autocannon counts a timeout in `errors` too.
  const errors = results.map((result) => result.errors + result.non2xx);
  const name = `${prefix}${route.name}`;
  return [
    {
      name: `${name}-rps`,
      value: round(median(rps), 0),
      unit: 'req/s',
      budget: route.minRps,
      better: 'higher',
      samples: rps,
      note: route.note,
      details: { totals: results.map((result) => result.requests.total) },
    },
    { name: `${name}-p50`, value: median(p50), unit: 'ms', budget: null, samples: p50 },
    { name: `${name}-p99`, value: median(p99), unit: 'ms', budget: route.maxP99, samples: p99 },
    {
      name: `${name}-errors`,
      value: Math.max(...errors),
      unit: 'count',
      budget: 0,
      samples: errors,
      details: {
        errors: results.map((result) => result.errors),
        timeouts: results.map((result) => result.timeouts),
        non2xx: results.map((result) => result.non2xx),
      },
    },
  ];
}

/** Seeding figures: rows per second over every seed run that added rows (the cache keeps their timings). */
function seedFigures(prefix: string, backend: string, large: SeedReport, small: SeedReport | undefined): Figure[] {
  const figures: Figure[] = [];
  const runs = [...large.runs, ...(small?.runs ?? [])];
  const sum = (pick: (run: SeedRun) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const addedNow = large.users.added + large.logs.added + (small ? small.users.added + small.logs.added : 0);
  const when = (seeded: number) =>
    `${addedNow ? 'seeded now' : 'cached'}; ${seeded > 1 ? `${seeded} seed runs` : 'one seed run'}`;
  const usersAdded = sum((run) => run.usersAdded);
  const usersSeconds = sum((run) => run.usersSeconds);
  if (usersAdded > 0)
    figures.push({
      name: `${prefix}seed-users`,
      value: Math.round(usersAdded / usersSeconds),
      unit: 'users/s',
      budget: null,
      samples: runs.filter((run) => run.usersAdded).map((run) => run.usersAdded / run.usersSeconds),
      note: `${count(usersAdded)} users in ${round(usersSeconds, 0)} s (${backend}; ${when(runs.filter((run) => run.usersAdded).length)})`,
      details: { runs },
    });
  const logsAdded = sum((run) => run.logsAdded);
  const logsSeconds = sum((run) => run.logsSeconds);
  if (logsAdded > 0)
    figures.push({
      name: `${prefix}seed-logs`,
      value: Math.round(logsAdded / logsSeconds),
      unit: 'rows/s',
      budget: null,
      samples: runs.filter((run) => run.logsAdded).map((run) => run.logsAdded / run.logsSeconds),
      note: `${count(logsAdded)} audit-log rows in ${round(logsSeconds, 0)} s (${backend}; ${when(runs.filter((run) => run.logsAdded).length)})`,
      details: { runs },
    });
  return figures;
}

type Api = { get: (path: string) => Promise<{ json: unknown; total: number }> };

function api(base: string, accessToken: string): Api {
  return {
    async get(path) {
      const response = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${accessToken}` } });
      if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
      return { json: await response.json(), total: Number(response.headers.get('Total-Number') ?? 0) };
    },
  };
}

type User = { id: string; username: string | null };

/** A username that a substring search finds in one user only (the serial makes most unique; checked). */
async function uniqueSearch(client: Api, tenantPath: string): Promise<{ term: string; id: string }> {
  const { json } = await client.get(`${tenantPath}/users?page=50&page_size=100`);
  for (const user of json as User[]) {
    if (!user.username) continue;
    const found = await client.get(`${tenantPath}/users?search=${encodeURIComponent(user.username)}&page_size=1`);
    if (found.total === 1) return { term: user.username, id: user.id };
  }
  throw new Error('no username matches exactly one user');
}

/** A user with audit-log rows, and how many: found through the newest rows that name a user. */
async function userWithLogs(client: Api, tenantPath: string): Promise<{ id: string; rows: number }> {
  const { json: rows } = await client.get(`${tenantPath}/logs?page=1&page_size=100`);
  const candidates = new Set<string>();
  for (const { payload } of rows as { payload: { userId?: string; entity?: { type: string; id: string } } }[]) {
    if (payload.userId) candidates.add(payload.userId);
    if (payload.entity?.type === 'user') candidates.add(payload.entity.id);
  }
  // Then seeded users, past the newest (earlier bench runs add users without rows of their own).
  for (let page = 500; page <= 505 && candidates.size < 200; page++) {
    const { json } = await client.get(`${tenantPath}/users?page=${page}&page_size=20`);
    for (const user of json as User[]) candidates.add(user.id);
  }
  for (const id of candidates) {
    const { total } = await client.get(`${tenantPath}/logs?userId=${id}&page_size=1`);
    if (total > 0) return { id, rows: total };
  }
  throw new Error('no user with audit-log rows');
}

function managementBench(backend: Backend): Bench {
  const prefix = backend === 'postgres' ? '' : 'pglite-';
  const parts = [...routeNames.map((name) => `${prefix}${name}`), `${prefix}seed`];
  return {
    name: backend === 'postgres' ? 'management-api' : 'management-api-pglite',
    parts,
    figures: [
      ...routeNames.flatMap((name) => figureSuffixes.map((suffix) => `${prefix}${name}-${suffix}`)),
      `${prefix}seed-users`,
      `${prefix}seed-logs`,
    ],
    async run(only) {
      const scale = scales[backend];
      // A figure name selects its route; `<prefix>seed` only seeds.
      const asked = only && new Set([...only].map((name) => name.replace(/-(rps|p50|p99|errors)$/, '')));
      const wants = (name: string) => !asked || asked.has(`${prefix}${name}`);
      const routesWanted = routeNames.filter(wants);
      const seedOnly = routesWanted.length === 0;
      const needsLarge = seedOnly || routesWanted.some((name) => /users-page-large|users-search|logs|user-/.test(name));
      const needsLogs = seedOnly || routesWanted.some((name) => name.startsWith('logs'));
      const needsSmall = seedOnly || wants('users-page-small');

      let env: Record<string, string>;
      let label: string;
      if (backend === 'postgres') {
        const database = await databaseUrl();
        env = { DATABASE_URL: database.url };
        label = database.version;
      } else {
        const dir = process.env.BENCH_PGLITE_DIR ?? join(root, 'bench', '.cache', 'pglite-scale');
        mkdirSync(dir, { recursive: true });
        env = { DATA_DIR: dir };
        label = 'PGlite';
      }
      log(`${prefix}management-api: ${label}; seeding what is missing (cached between runs)…`);
      const seed = (tenant: string, users: number, logs: number, extra: string[] = []) =>
        runCli<SeedReport>(
          ['seed', '--tenant', tenant, '--users', String(users), '--logs', String(logs), ...extra],
          env,
          `${prefix}seed ${tenant}`,
        );
      // The Admin plan keeps audit logs for good: on a plan with a retention the server (cloud edition, below) would
      // delete most seeded rows at start-up, in the middle of the measurements, and the next run would seed them again.
      const large = needsLarge
        ? await seed(LARGE_TENANT, scale.users, needsLogs ? scale.logs : 0, ['--plan', 'Admin'])
        : undefined;
      const small = needsSmall ? await seed(SMALL_TENANT, scale.smallUsers, 0, ['--create-tenant']) : undefined;
      const figures = large ? seedFigures(prefix, label, large, small) : [];
      if (seedOnly) return figures;

      const m2m = (tenant: string) =>
        runCli<Credentials>(['m2m', 'create', '--name', 'bench', '--tenant', tenant], env);
      const largeCredentials = await m2m(LARGE_TENANT);
      const smallCredentials = needsSmall ? await m2m(SMALL_TENANT) : undefined;
      const server = await startServer(tempDir('unused'), { ...env, EDITION: 'cloud' });
      try {
        const largeToken = await token(server.url, LARGE_TENANT, largeCredentials);
        const smallToken = smallCredentials ? await token(server.url, SMALL_TENANT, smallCredentials) : undefined;
        const largePath = `/m/${LARGE_TENANT}/api`;
        const client = api(server.url, largeToken);
        const users = large?.users.after ?? 0;
        const logRows = large?.logs.after ?? 0;
        const runId = Date.now().toString(36);
        let serial = 0;

        const { json: applications, total: applicationCount } = await client.get(`${largePath}/applications`);
        const application = (applications as { id: string }[])[0];
        if (!application) throw new Error('no application');
        const routes: Route[] = [];
        if (wants('application-get'))
          routes.push({
            name: 'application-get',
            method: 'GET',
            path: `${largePath}/applications/${application.id}`,
            minRps: 3000,
            maxP99: 15,
            note: 'one application',
          });
        if (wants('applications-list'))
          routes.push({
            name: 'applications-list',
            method: 'GET',
            path: `${largePath}/applications`,
            minRps: 3000,
            maxP99: 15,
            note: `page 1 of ${count(applicationCount)} applications, exact total`,
          });
        if (needsSmall)
          routes.push({
            name: 'users-page-small',
            method: 'GET',
            path: `/m/${SMALL_TENANT}/api/users`,
            minRps: 3000,
            maxP99: 15,
            note: `page 1 of ${count(small?.users.after ?? 0)} users (tenant ${SMALL_TENANT})`,
          });
        if (wants('users-page-large'))
          routes.push({
            name: 'users-page-large',
            method: 'GET',
            path: `${largePath}/users`,
            minRps: 3000,
            maxP99: 15,
            note: `page 1 of ${count(users)} users`,
          });
        if (wants('users-search')) {
          const search = await uniqueSearch(client, largePath);
          routes.push({
            name: 'users-search',
            method: 'GET',
            // As the console sends it (`%kw%`, `_` escaped): a bare value is a whole-value pattern since issue 43.
            path: `${largePath}/users?search=${encodeURIComponent(`%${search.term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`)}`,
            minRps: null,
            maxP99: 50,
            note: `substring '${search.term}' matching 1 of ${count(users)} users`,
          });
        }
        if (wants('logs-by-user')) {
          const user = await userWithLogs(client, largePath);
          routes.push({
            name: 'logs-by-user',
            method: 'GET',
            path: `${largePath}/logs?userId=${user.id}`,
            minRps: 3000,
            maxP99: 15,
            note: `a user's ${user.rows} of ${count(logRows)} audit-log rows`,
          });
        }
        if (wants('logs-page'))
          routes.push({
            name: 'logs-page',
            method: 'GET',
            path: `${largePath}/logs`,
            minRps: 3000,
            maxP99: 15,
            note: `page 1 of ${count(logRows)} audit-log rows, unfiltered (total counted up to 10,000)`,
          });
        if (wants('user-patch')) {
          // An admin console changes many users, not one user ten times at once (that would only
          // measure the wait on its row lock): 1,000 users in turn.
          const userPaths: string[] = [];
          for (let page = 1; page <= 10; page++) {
            const { json } = await client.get(`${largePath}/users?page=${page}&page_size=100`);
            userPaths.push(...(json as User[]).map((user) => `${largePath}/users/${user.id}`));
          }
          const [first] = userPaths;
          if (!first) throw new Error('no user to patch');
          routes.push({
            name: 'user-patch',
            method: 'PATCH',
            path: first,
            paths: userPaths,
            body: () => JSON.stringify({ name: `Bench name ${++serial}` }),
            minRps: 1000,
            maxP99: null,
            note: `a new name each time for ${count(userPaths.length)} users in turn (audited, outbox event), ${count(users)} users`,
          });
        }
        if (wants('user-create'))
          routes.push({
            name: 'user-create',
            method: 'POST',
            path: `${largePath}/users`,
            body: () => JSON.stringify({ username: `bench_${runId}_${++serial}`, password: 'Correct-horse-battery-9' }),
            minRps: 60,
            maxP99: null,
            note: 'unique username + password hashed with Argon2id (19 MiB, t=2)',
          });

        // The probe that tells the server is idle again: a cheap read of the same tenant.
        const probe = (route: Route) =>
          route.name === 'users-page-small'
            ? `/m/${SMALL_TENANT}/api/users?page_size=1`
            : `${largePath}/applications/${application.id}`;
        // The unfiltered audit-log page goes last: on PGlite its backlog would hold up whatever follows.
        routes.sort((a, b) => Number(a.name === 'logs-page') - Number(b.name === 'logs-page'));
        const results: Figure[] = [...figures];
        for (const route of routes) {
          const accessToken = route.name === 'users-page-small' ? smallToken : largeToken;
          if (!accessToken) throw new Error(`no token for ${route.name}`);
          results.push(...(await measure(server.url, accessToken, route, prefix, probe(route))));
        }
        return results;
      } finally {
        await server.stop();
      }
    },
  };
}

export const managementApi = managementBench('postgres');
export const managementApiPglite = managementBench('pglite');
