// `token-issuance`: client-credentials tokens per second from the token endpoint (autocannon, 10 connections, 8 s),
// first with no custom JWT script, then with a trivial one (`({ tier: 'gold' })`), so the figure says what running
// a script in the QuickJS sandbox costs per token (docs/custom-jwt.md). PGlite, the default tenant; and the same
// without a script on PostgreSQL (part `token-issuance-pg`, the bench database of management-api.ts; issue 38's
// budget of 1,000 tokens per second), and refresh grants there: the console's own, each connection's session signed
// in over HTTP first (bench/console-sign-in.ts), each refresh token spent once (they rotate).
import autocannon from 'autocannon';
import { consoleTokenEndpoint, defaultManagementResource, signInToConsole } from './console-sign-in.ts';
import { type Bench, dataDir, type Figure, log, round, runCli, startServer, tempDir } from './lib.ts';
import { databaseUrl } from './management-api.ts';

type Credentials = { clientId: string; clientSecret: string; resource: string; tokenEndpoint: string };

const DURATION_S = 8;

async function measure(url: string, credentials: Credentials, label: string) {
  const body = new URLSearchParams({
    grant_type: 'client_credentials',
    resource: credentials.resource,
    scope: 'all',
  }).toString();
  log(`token-issuance: ${label}, autocannon, 10 connections, ${DURATION_S} s…`);
  const result = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`,
    },
    body,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

const pgFigures = [
  'token-issuance-pg-rps',
  'token-issuance-pg-p99',
  'token-issuance-pg-errors',
  'token-refresh-pg-rps',
  'token-refresh-pg-p99',
  'token-refresh-pg-errors',
];
const benchAdmin = { username: 'bench_admin', password: 'bench-correct-horse-7' };
const CONNECTIONS = 10;

/**
 * Refresh grants of console sessions: a pool of signed-in sessions' refresh tokens, more than the connections, so
 * a connection always finds one that is not in flight. A request takes one; its answer puts the rotated one back.
 */
async function measureRefresh(base: string) {
  const sessions = CONNECTIONS * 3;
  log(`token-issuance: signing ${sessions} console sessions in over HTTP…`);
  const pool: string[] = [];
  for (let index = 0; index < sessions; index++) {
    pool.push((await signInToConsole(base, benchAdmin.username, benchAdmin.password)).refresh_token);
  }
  log(`token-issuance: refresh grants, autocannon, ${CONNECTIONS} connections, ${DURATION_S} s…`);
  let lost = 0;
  const result = await autocannon({
    url: consoleTokenEndpoint(base),
    connections: CONNECTIONS,
    duration: DURATION_S,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        setupRequest: (request) => ({
          ...request,
          body: new URLSearchParams({
            grant_type: 'refresh_token',
            client_id: 'admin-console',
            refresh_token: pool.shift() ?? '',
            resource: defaultManagementResource,
          }).toString(),
        }),
        onResponse: (status, body) => {
          const next = status === 200 ? (JSON.parse(body) as { refresh_token?: string }).refresh_token : undefined;
          if (next) pool.push(next);
          else lost++;
        },
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + lost,
  };
}

/** Client credentials on PostgreSQL, no script. */
async function onPostgres(): Promise<Figure[]> {
  const database = await databaseUrl();
  const env = { DATABASE_URL: database.url };
  const credentials = await runCli<Credentials>(['m2m', 'create', '--name', 'token bench', '--tenant', 'default'], env);
  const server = await startServer(tempDir('unused'), {
    ...env,
    ADMIN_USERNAME: benchAdmin.username,
    ADMIN_PASSWORD: benchAdmin.password,
  });
  try {
    const result = await measure(`${server.url}/oidc/token`, credentials, `no script, ${database.version}`);
    const refresh = await measureRefresh(server.url);
    return [
      {
        name: 'token-issuance-pg-rps',
        value: round(result.rps, 0),
        unit: 'req/s',
        budget: 1000,
        better: 'higher',
        samples: [result.rps],
        details: { p50: result.p50 },
        note: `client credentials, no custom JWT script, ${database.version}`,
      },
      { name: 'token-issuance-pg-p99', value: result.p99, unit: 'ms', budget: null, samples: [result.p99] },
      { name: 'token-issuance-pg-errors', value: result.errors, unit: 'count', budget: 0, samples: [result.errors] },
      {
        name: 'token-refresh-pg-rps',
        value: round(refresh.rps, 0),
        unit: 'req/s',
        budget: 1000,
        better: 'higher',
        samples: [refresh.rps],
        details: { p50: refresh.p50 },
        note: `refresh grants of console sessions (rotating refresh tokens), ${database.version}`,
      },
      { name: 'token-refresh-pg-p99', value: refresh.p99, unit: 'ms', budget: null, samples: [refresh.p99] },
      { name: 'token-refresh-pg-errors', value: refresh.errors, unit: 'count', budget: 0, samples: [refresh.errors] },
    ];
  } finally {
    await server.stop();
  }
}

export const tokenIssuance: Bench = {
  name: 'token-issuance',
  parts: ['token-issuance-pg'],
  figures: [
    'token-issuance-rps',
    'token-issuance-script-rps',
    'token-issuance-script-cost',
    'token-issuance-errors',
    ...pgFigures,
  ],
  async run(only) {
    const asked = only ? [...only] : undefined;
    const wantsPg = !asked || asked.some((name) => name.startsWith('token-issuance-pg'));
    const wantsPglite = !asked || asked.some((name) => !name.startsWith('token-issuance-pg'));
    const postgres = wantsPg ? await onPostgres() : [];
    if (!wantsPglite) return postgres;
    return [...(await onPglite()), ...postgres];
  },
};

/** Client credentials on PGlite, without and with a trivial custom JWT script. */
async function onPglite(): Promise<Figure[]> {
  const dir = await dataDir();
  const server = await startServer(dir);
  try {
    const credentials = await runCli<Credentials>(['m2m', 'create', '--name', 'token bench', '--tenant', 'default'], {
      DATA_DIR: dir,
    });
    const tokenUrl = `${server.url}/oidc/token`;
    const plain = await measure(tokenUrl, credentials, 'no script');

    const tokenResponse = await fetch(tokenUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource: credentials.resource, scope: 'all' }),
    });
    const { access_token: accessToken } = (await tokenResponse.json()) as { access_token: string };
    const saved = await fetch(`${server.url}/api/configs/jwt-customizer/client-credentials`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ script: "const getCustomJwtClaims = async () => ({ tier: 'gold' });" }),
    });
    if (!saved.ok) throw new Error(`saving the script failed: ${saved.status} ${await saved.text()}`);
    const scripted = await measure(tokenUrl, credentials, 'trivial script');

    const cost = plain.rps > 0 && scripted.rps > 0 ? 1000 / scripted.rps - 1000 / plain.rps : 0;
    const figures: Figure[] = [
      {
        name: 'token-issuance-rps',
        value: round(plain.rps, 0),
        unit: 'req/s',
        budget: null,
        samples: [plain.rps],
        details: { p50: plain.p50, p99: plain.p99 },
        note: 'client credentials, no custom JWT script, PGlite',
      },
      {
        name: 'token-issuance-script-rps',
        value: round(scripted.rps, 0),
        unit: 'req/s',
        budget: null,
        samples: [scripted.rps],
        details: { p50: scripted.p50, p99: scripted.p99 },
        note: 'the same with a trivial script (QuickJS worker, one log row per run)',
      },
      {
        name: 'token-issuance-script-cost',
        value: round(cost, 2),
        unit: 'ms/token',
        budget: null,
        samples: [cost],
        note: 'serial time a script adds per token (1000/rps difference)',
      },
      {
        name: 'token-issuance-errors',
        value: plain.errors + scripted.errors,
        unit: 'count',
        budget: 0,
        samples: [plain.errors + scripted.errors],
      },
    ];
    return figures;
  } finally {
    await server.stop();
  }
}
