// `crash-safety` (issue 23, "keep the attacks as tests"): kill -9 during concurrent writes, on PGlite and on
// PostgreSQL; restart on the same data; then check that no acknowledged write was lost, no write is half there (a
// user without its audit entry), and every User.Created event reaches a local webhook receiver (duplicates counted:
// delivery is at-least-once, docs/areas/webhooks.md). Three rounds per backend; each round's data starts empty.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { type Bench, type Figure, log, runCli, sleep, startServer, tempDir } from './lib.ts';

const ROUNDS = 3;
const WRITERS = 16;
const KILL_AFTER_MS = 2500;
const DELIVERY_WAIT_MS = 60_000;

type Credentials = { clientId: string; clientSecret: string; resource: string; tokenEndpoint: string };
type Backend = 'pglite' | 'postgres';

async function receiver() {
  const deliveries: { deliveryId: string; userId: string }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          deliveryId?: string;
          data?: { id?: string };
        };
        deliveries.push({ deliveryId: String(body.deliveryId ?? ''), userId: String(body.data?.id ?? '') });
      } catch {
        // Not an event.
      }
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`,
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function accessToken(base: string, credentials: Credentials): Promise<string> {
  const response = await fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource: credentials.resource, scope: 'all' }),
  });
  if (!response.ok) throw new Error(`token: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

const killGroup = (pid: number | undefined) => {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
};

type RoundResult = { acknowledged: number; lost: number; partial: number; undelivered: number; duplicates: number };

async function round(backend: Backend, index: number): Promise<RoundResult> {
  const dataDir = tempDir(`crash-${backend}`);
  const env: Record<string, string> = {};
  let dropDatabase: (() => Promise<void>) | undefined;
  if (backend === 'postgres') {
    const admin = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const name = `gatehouse_crash_${randomBytes(4).toString('hex')}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`create database ${name}`);
    await client.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    dropDatabase = async () => {
      const dropper = new pg.Client({ connectionString: admin });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    };
  }
  const hooks = await receiver();
  try {
    let server = await startServer(dataDir, env);
    const credentials = await runCli<Credentials>(['m2m', 'create', '--name', 'crash', '--tenant', 'default'], {
      DATA_DIR: dataDir,
      ...env,
    });
    const api = async (base: string, token: string, method: string, path: string, body?: unknown) =>
      fetch(`${base}/api${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    let token = await accessToken(server.url, credentials);
    const hook = await api(server.url, token, 'POST', '/hooks', {
      name: 'crash receiver',
      events: ['User.Created'],
      config: { url: hooks.url },
    });
    if (!hook.ok) throw new Error(`hook: ${hook.status} ${await hook.text()}`);

    // Writers create users until the server dies; a 2xx answer is an acknowledged write.
    const acknowledged: string[] = [];
    let stop = false;
    const writer = async (writerIndex: number) => {
      for (let serial = 0; !stop; serial++) {
        const username = `crash_${index}_${writerIndex}_${serial}`;
        try {
          const response = await api(server.url, token, 'POST', '/users', { username });
          if (response.ok) acknowledged.push(username);
          else await response.arrayBuffer();
        } catch {
          return; // Connection refused or reset: the server is gone.
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, writerIndex) => writer(writerIndex));
    await sleep(KILL_AFTER_MS);
    killGroup(server.child.pid);
    stop = true;
    await Promise.all(writers);
    log(
      `crash-safety: ${backend} round ${index + 1}: killed after ${acknowledged.length} acknowledged writes; restarting`,
    );

    server = await startServer(dataDir, env);
    try {
      token = await accessToken(server.url, credentials);
      const present = new Map<string, string>();
      for (let page = 1; ; page++) {
        const response = await api(
          server.url,
          token,
          'GET',
          `/users?search=crash_${index}_&page=${page}&page_size=100`,
        );
        const users = (await response.json()) as { id: string; username: string }[];
        for (const user of users) present.set(user.username, user.id);
        if (users.length < 100) break;
      }
      const lost = acknowledged.filter((username) => !present.has(username)).length;
      // A user without its audit entry would be a write half done (the user row and the log share a transaction).
      const audited = new Set<string>();
      for (let page = 1; ; page++) {
        const response = await api(
          server.url,
          token,
          'GET',
          `/logs?logKey=Admin.User.Created&page=${page}&page_size=100`,
        );
        const entries = (await response.json()) as { payload: { entity?: { id?: string } } }[];
        for (const entry of entries) if (entry.payload.entity?.id) audited.add(entry.payload.entity.id);
        if (entries.length < 100) break;
      }
      const partial = [...present.values()].filter((id) => !audited.has(id)).length;
      const deadline = Date.now() + DELIVERY_WAIT_MS;
      const delivered = () => new Set(hooks.deliveries.map((delivery) => delivery.userId));
      while (Date.now() < deadline && [...present.values()].some((id) => !delivered().has(id))) await sleep(200);
      await sleep(1500); // Time for a duplicate to arrive, if there is one.
      const reached = delivered();
      const undelivered = [...present.values()].filter((id) => !reached.has(id)).length;
      const duplicates = hooks.deliveries.length - reached.size;
      return { acknowledged: acknowledged.length, lost, partial, undelivered, duplicates };
    } finally {
      await server.stop();
    }
  } finally {
    await hooks.close();
    await dropDatabase?.();
  }
}

export const crashSafety: Bench = {
  name: 'crash-safety',
  figures: ['crash-lost', 'crash-partial', 'crash-undelivered', 'crash-duplicates'],
  async run() {
    const results: (RoundResult & { backend: Backend })[] = [];
    for (const backend of ['pglite', 'postgres'] as const) {
      for (let index = 0; index < ROUNDS; index++) results.push({ backend, ...(await round(backend, index)) });
    }
    const sum = (key: keyof RoundResult) => results.reduce((total, result) => total + result[key], 0);
    const note = `${ROUNDS} kill -9 rounds per backend (PGlite, PostgreSQL), ${WRITERS} writers, ${sum('acknowledged')} acknowledged writes`;
    const figure = (name: string, key: keyof RoundResult, budget: number | null): Figure => ({
      name,
      value: sum(key),
      unit: 'count',
      budget,
      samples: results.map((result) => result[key]),
      details: { rounds: results },
      note,
    });
    return [
      figure('crash-lost', 'lost', 0),
      figure('crash-partial', 'partial', 0),
      figure('crash-undelivered', 'undelivered', 0),
      figure('crash-duplicates', 'duplicates', null),
    ];
  },
};
