// `processes`: what more server processes on one PostgreSQL give (issue 38, "two processes, one service"). For 1, 2
// and 3 server processes behind a local round-robin proxy (this file: Node's http, keep-alive to each process), on
// the bench database of management-api.ts: an application GET of the management API (10 s, 10 connections) and
// client-credentials tokens (8 s, 10 connections), each through the proxy. The proxy and the load generator run in
// this process and share the machine with the servers and PostgreSQL: on a machine of few cores more processes
// compete for the same cores, which is part of what the figure shows (docs/areas/performance.md "More than one
// process").
import { Agent, createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import autocannon, { type Options } from 'autocannon';
import { type Bench, type Figure, freePort, log, round, runCli, startServer, tempDir } from './lib.ts';
import { databaseUrl } from './management-api.ts';

type Credentials = { clientId: string; clientSecret: string; resource: string };

const COUNTS = [1, 2, 3] as const;

/** A reverse proxy sending each request to the next process in turn; the Host header is kept (the public URL). */
async function roundRobinProxy(port: number, targets: number[]) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let turn = 0;
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const target = targets[turn++ % targets.length];
    const upstream = forward(
      {
        host: '127.0.0.1',
        port: target,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
        agent,
      },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    upstream.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    close: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const basic = (credentials: Credentials) =>
  `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`;

async function run(options: Omit<Options, 'connections'>): Promise<{ rps: number; p99: number; errors: number }> {
  const result = await autocannon({ connections: 10, ...options });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

export const processes: Bench = {
  name: 'processes',
  figures: COUNTS.flatMap((n) => [`processes-${n}-application-get-rps`, `processes-${n}-token-rps`]),
  async run() {
    const database = await databaseUrl();
    const credentials = await runCli<Credentials>(
      ['m2m', 'create', '--name', 'processes bench', '--tenant', 'default'],
      { DATABASE_URL: database.url },
    );
    const figures: Figure[] = [];
    for (const count of COUNTS) {
      const proxyPort = await freePort();
      const publicUrl = `http://localhost:${proxyPort}`;
      const env = { DATABASE_URL: database.url, PUBLIC_URL: publicUrl };
      log(`processes: ${count} server process(es) behind a proxy at ${publicUrl}…`);
      const servers = [];
      try {
        for (let i = 0; i < count; i++) servers.push(await startServer(tempDir('unused'), env));
        const proxy = await roundRobinProxy(
          proxyPort,
          servers.map((server) => server.port),
        );
        try {
          const tokenBody = new URLSearchParams({
            grant_type: 'client_credentials',
            resource: credentials.resource,
            scope: 'all',
          }).toString();
          const tokenHeaders = {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: basic(credentials),
          };
          const tokenResponse = await fetch(`${publicUrl}/oidc/token`, {
            method: 'POST',
            headers: tokenHeaders,
            body: tokenBody,
          });
          if (!tokenResponse.ok) throw new Error(`token: ${tokenResponse.status} ${await tokenResponse.text()}`);
          const { access_token: accessToken } = (await tokenResponse.json()) as { access_token: string };
          const authorization = { authorization: `Bearer ${accessToken}` };
          const list = await fetch(`${publicUrl}/api/applications?page_size=1`, { headers: authorization });
          const [application] = (await list.json()) as { id: string }[];
          if (!application) throw new Error('no application');
          const appUrl = `${publicUrl}/api/applications/${application.id}`;
          await run({ url: appUrl, headers: authorization, duration: 2 });
          const get = await run({ url: appUrl, headers: authorization, duration: 10 });
          const tokens = await run({
            url: `${publicUrl}/oidc/token`,
            method: 'POST',
            headers: tokenHeaders,
            body: tokenBody,
            duration: 8,
          });
          const note = `${count} process(es), round-robin proxy, ${database.version}`;
          figures.push(
            {
              name: `processes-${count}-application-get-rps`,
              value: round(get.rps, 0),
              unit: 'req/s',
              budget: null,
              samples: [get.rps],
              details: { p99: get.p99, errors: get.errors },
              note,
            },
            {
              name: `processes-${count}-token-rps`,
              value: round(tokens.rps, 0),
              unit: 'req/s',
              budget: null,
              samples: [tokens.rps],
              details: { p99: tokens.p99, errors: tokens.errors },
              note,
            },
          );
          if (get.errors || tokens.errors)
            throw new Error(`errors with ${count} processes: ${get.errors + tokens.errors}`);
        } finally {
          await proxy.close();
        }
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
      }
    }
    return figures;
  },
};
