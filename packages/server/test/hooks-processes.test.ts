import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DEFAULT_TENANT_ID, generateId } from '@gatehouse/schemas';
import { afterAll, describe, expect, it } from 'vitest';
import { hookLogs, hooks, outbox } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { createTestDatabase, testDatabaseUrl } from './support/database.ts';

const main = join(import.meta.dirname, '..', 'src', 'main.ts');
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** Runs the real server process; resolves once it prints its console URL. */
function start(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Console: http:\/\/\S+\/console/.test(output)) resolve(child);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => {
      children.delete(child);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

describe.skipIf(!testDatabaseUrl)('webhook delivery across server processes', { timeout: 120_000 }, () => {
  it('two server processes on one PostgreSQL deliver each event exactly once', async () => {
    const bodies: string[] = [];
    const receiver: Server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        // A little latency so both processes have work in flight at the same time.
        setTimeout(() => response.writeHead(200).end('ok'), 20);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as AddressInfo).port;
    const database = await createTestDatabase();
    try {
      const tenant = new TenantDb(database.db, DEFAULT_TENANT_ID);
      const hookId = generateId();
      await tenant.insert(hooks, {
        id: hookId,
        name: 'Two processes',
        events: ['User.Created'],
        config: { url: `http://127.0.0.1:${port}/in`, retries: 3 },
        headers: {},
        signingKey: 'a'.repeat(64),
      });
      const count = 40;
      for (let index = 0; index < count; index++) {
        await tenant.insert(outbox, {
          event: 'User.Created',
          payload: { event: 'User.Created', data: { id: `user-${index}` }, createdAt: Date.now() },
        });
      }
      const env = { DATABASE_URL: database.url ?? '' };
      const processes = await Promise.all([start(env), start(env)]);
      const deadline = Date.now() + 60_000;
      while (bodies.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      // Time for a duplicate to show up, if there were one.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await Promise.all(processes.map(stop));

      const ids = bodies.map((body) => (JSON.parse(body) as { data: { id: string } }).data.id);
      expect(ids).toHaveLength(count);
      expect(new Set(ids).size, 'no event twice').toBe(count);
      expect(await tenant.count(hookLogs), 'one attempt logged per event').toBe(count);
    } finally {
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
      await database.close();
    }
  });
});
