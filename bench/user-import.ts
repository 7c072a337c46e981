// `user-import` (PostgreSQL) and `user-import-pglite`: a bulk import of users through the management API, as an
// admin would run it: one CSV file posted to POST /users/imports, the job polled until it is done. Rows carry
// imported SHA-256 digests (plaintext passwords would measure Argon2id, which `user-create` already does), and
// every created user is audited and raises its User.Created event, as any admin write.
//
// Each run imports into an empty database (PostgreSQL: a throwaway database, dropped afterwards; PGlite: a
// temporary data directory), so the figure is the import alone. A second run of the same file, which changes
// nothing (the import is idempotent), is measured too.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { type Bench, type Figure, log, round, runCli, secondsSince, sleep, startServer, tempDir } from './lib.ts';

type Backend = 'postgres' | 'pglite';
type Credentials = { clientId: string; clientSecret: string; resource: string; tokenEndpoint: string };
type Job = { id: string; status: string; processed: number; total: number; created: number; failed: number };

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const rowsOf: Record<Backend, number> = {
  postgres: Number(process.env.BENCH_IMPORT_USERS ?? 100_000),
  pglite: Number(process.env.BENCH_IMPORT_USERS_PGLITE ?? 100_000),
};

/** A CSV of `rows` users with unique usernames and emails and a SHA-256 digest of one password. */
function importFile(rows: number): string {
  const digest = createHash('sha256').update('Imported-Bench-Pass-1').digest('hex');
  const lines = ['username,primaryEmail,name,passwordDigest,passwordAlgorithm'];
  for (let index = 0; index < rows; index++) {
    lines.push(`import_${index},import.${index}@bench.example,Imported user ${index},${digest},SHA256`);
  }
  return `${lines.join('\n')}\n`;
}

async function withThrowawayDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const name = `gatehouse_bench_import_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return await work(url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

async function clientToken(base: string, credentials: Credentials): Promise<string> {
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

/** Posts the file and polls the job until it finishes; seconds from the POST to the job's end. */
async function runImport(base: string, accessToken: string, source: string): Promise<{ seconds: number; job: Job }> {
  const headers = { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' };
  const started = performance.now();
  const created = await fetch(`${base}/api/users/imports`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ format: 'csv', source }),
  });
  if (created.status !== 202) throw new Error(`import refused: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as Job;
  let lastLog = 0;
  for (;;) {
    const response = await fetch(`${base}/api/users/imports/${id}`, { headers });
    const job = (await response.json()) as Job;
    if (job.status === 'succeeded' || job.status === 'failed') return { seconds: secondsSince(started), job };
    if (performance.now() - lastLog > 10_000) {
      log(`import ${job.processed}/${job.total}`);
      lastLog = performance.now();
    }
    await sleep(250);
  }
}

function importBench(backend: Backend): Bench {
  const prefix = backend === 'postgres' ? '' : 'pglite-';
  const figures = [
    `${prefix}user-import-seconds`,
    `${prefix}user-import-rows-per-s`,
    `${prefix}user-import-rerun-seconds`,
  ];
  return {
    name: backend === 'postgres' ? 'user-import' : 'user-import-pglite',
    figures,
    async run() {
      const rows = rowsOf[backend];
      const measureOn = async (env: Record<string, string>, dataDir: string): Promise<Figure[]> => {
        const credentials = await runCli<Credentials>(['m2m', 'create', '--name', 'import-bench'], env);
        const server = await startServer(dataDir, env);
        try {
          const accessToken = await clientToken(server.url, credentials);
          const source = importFile(rows);
          log(
            `${prefix}user-import: ${rows.toLocaleString('en-US')} users, ${round(source.length / 1e6, 1)} MB of CSV`,
          );
          const first = await runImport(server.url, accessToken, source);
          if (first.job.status !== 'succeeded' || first.job.created !== rows) {
            throw new Error(
              `import ended ${first.job.status} with ${first.job.created} created, ${first.job.failed} failed`,
            );
          }
          const rerun = await runImport(server.url, accessToken, source);
          const note = `${rows.toLocaleString('en-US')} users from one CSV (SHA-256 digests), audited, into an empty tenant`;
          return [
            {
              name: `${prefix}user-import-seconds`,
              value: round(first.seconds, 1),
              unit: 's',
              budget: null,
              samples: [first.seconds],
              note,
            },
            {
              name: `${prefix}user-import-rows-per-s`,
              value: Math.round(rows / first.seconds),
              unit: 'rows/s',
              budget: null,
              better: 'higher',
              samples: [rows / first.seconds],
              note,
            },
            {
              name: `${prefix}user-import-rerun-seconds`,
              value: round(rerun.seconds, 1),
              unit: 's',
              budget: null,
              samples: [rerun.seconds],
              note: 'the same file again: every row matches and nothing changes',
            },
          ];
        } finally {
          await server.stop();
        }
      };
      const dataDir = tempDir('import');
      if (backend === 'pglite') return measureOn({ DATA_DIR: dataDir }, dataDir);
      return withThrowawayDatabase((url) => measureOn({ DATABASE_URL: url, DATA_DIR: dataDir }, dataDir));
    },
  };
}

export const userImport = importBench('postgres');
export const userImportPglite = importBench('pglite');
