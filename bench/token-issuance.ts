// `token-issuance`: client-credentials tokens per second from the token endpoint (autocannon, 10 connections, 8 s),
// first with no custom JWT script, then with a trivial one (`({ tier: 'gold' })`), so the figure says what running
// a script in the QuickJS sandbox costs per token (docs/custom-jwt.md). PGlite, the default tenant.
import autocannon from 'autocannon';
import { type Bench, dataDir, type Figure, log, round, runCli, startServer } from './lib.ts';

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
    connections: 10,
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

export const tokenIssuance: Bench = {
  name: 'token-issuance',
  figures: ['token-issuance-rps', 'token-issuance-script-rps', 'token-issuance-script-cost', 'token-issuance-errors'],
  async run() {
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
  },
};
