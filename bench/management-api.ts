// `management-api`: throughput and latency of management API routes with a real machine-to-machine
// token (client credentials), autocannon 10 connections × 10 s per route, on PostgreSQL
// (BENCH_DATABASE_URL, default the local server's `gatehouse_bench` database, created once and reused).
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { type Bench, binDir, childEnv, type Figure, log, root, round, runToEnd, startServer, tempDir } from './lib.ts';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const benchDatabase = 'gatehouse_bench';

async function databaseUrl(): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  const exists = await client.query('select 1 from pg_database where datname = $1', [benchDatabase]);
  if (exists.rowCount === 0) await client.query(`create database ${benchDatabase}`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${benchDatabase}`;
  return url.toString();
}

type Credentials = { clientId: string; clientSecret: string; resource: string };

async function token(base: string, credentials: Credentials): Promise<string> {
  const response = await fetch(`${base}/oidc/token`, {
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

type Route = { name: string; method: 'GET' | 'PATCH'; path: string; body?: string; minRps: number; maxP99: number };

async function measure(base: string, accessToken: string, route: Route): Promise<Figure[]> {
  log(`management-api: ${route.method} ${route.path} (10 connections, 10 s)…`);
  const result = await autocannon({
    url: `${base}${route.path}`,
    method: route.method,
    connections: 10,
    duration: 10,
    headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' },
    ...(route.body ? { body: route.body } : {}),
  });
  const errors = result.errors + result.timeouts + result.non2xx;
  return [
    {
      name: `${route.name}-rps`,
      value: round(result.requests.average, 0),
      unit: 'req/s',
      budget: route.minRps,
      better: 'higher',
      samples: [result.requests.average],
    },
    { name: `${route.name}-p50`, value: result.latency.p50, unit: 'ms', budget: null, samples: [result.latency.p50] },
    {
      name: `${route.name}-p99`,
      value: result.latency.p99,
      unit: 'ms',
      budget: route.maxP99,
      samples: [result.latency.p99],
    },
    { name: `${route.name}-errors`, value: errors, unit: 'count', budget: 0, samples: [errors] },
  ];
}

const routeNames = ['applications-list', 'application-get', 'roles-list', 'role-get', 'role-patch', 'logs-by-app'];

export const managementApi: Bench = {
  name: 'management-api',
  figures: routeNames.flatMap((name) => [`${name}-rps`, `${name}-p50`, `${name}-p99`, `${name}-errors`]),
  async run() {
    const url = await databaseUrl();
    const env = { DATABASE_URL: url };
    const output = await runToEnd(
      join(binDir, 'node'),
      [join(root, 'packages', 'server', 'src', 'cli.ts'), 'm2m', 'create', '--name', 'bench'],
      { cwd: root, env: childEnv(env) },
    );
    const credentials = JSON.parse(output.slice(output.indexOf('{'))) as Credentials;
    const server = await startServer(tempDir('unused'), env);
    try {
      const accessToken = await token(server.url, credentials);
      const headers = { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' };
      const existing = await fetch(`${server.url}/api/roles?search=bench-role`, { headers });
      let total = Number(existing.headers.get('Total-Number') ?? 0);
      for (; total < 200; total++) {
        await fetch(`${server.url}/api/roles`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: `bench-role-${total}`, description: 'bench' }),
        });
      }
      const apps = await fetch(`${server.url}/api/applications?search=bench-app`, { headers });
      for (let count = Number(apps.headers.get('Total-Number') ?? 0); count < 200; count++) {
        await fetch(`${server.url}/api/applications`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            name: `bench-app-${count}`,
            type: 'SPA',
            oidcClientMetadata: { redirectUris: ['https://app.example.com/callback'] },
          }),
        });
      }
      const [application] = (await (
        await fetch(`${server.url}/api/applications?search=bench-app-0`, { headers })
      ).json()) as { id: string }[];
      if (!application) throw new Error('no bench application');
      const [role] = (await (await fetch(`${server.url}/api/roles?search=bench-role-0`, { headers })).json()) as {
        id: string;
      }[];
      if (!role) throw new Error('no bench role');
      const routes: Route[] = [
        { name: 'applications-list', method: 'GET', path: '/api/applications', minRps: 3000, maxP99: 15 },
        {
          name: 'application-get',
          method: 'GET',
          path: `/api/applications/${application.id}`,
          minRps: 3000,
          maxP99: 15,
        },
        { name: 'roles-list', method: 'GET', path: '/api/roles', minRps: 3000, maxP99: 15 },
        { name: 'role-get', method: 'GET', path: `/api/roles/${role.id}`, minRps: 3000, maxP99: 15 },
        {
          name: 'role-patch',
          method: 'PATCH',
          path: `/api/roles/${role.id}`,
          body: JSON.stringify({ description: 'patched by the bench' }),
          minRps: 1000,
          maxP99: 15,
        },
        {
          name: 'logs-by-app',
          method: 'GET',
          path: `/api/logs?applicationId=${credentials.clientId}`,
          minRps: 3000,
          maxP99: 15,
        },
      ];
      const figures: Figure[] = [];
      for (const route of routes) figures.push(...(await measure(server.url, accessToken, route)));
      return figures;
    } finally {
      await server.stop();
    }
  },
};
