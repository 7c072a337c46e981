import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import pino from 'pino';
import { managementResource } from '../../src/auth/issuers.ts';
import { SigningKeyStore } from '../../src/auth/signing-keys.ts';
import { loadConfig } from '../../src/config.ts';
import { CHANGES_CHANNEL, ChangeNotices } from '../../src/db/change-notices.ts';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { TenantDb, TenantDbs } from '../../src/db/tenant-db.ts';
import { createHttpServer } from '../../src/http-server.ts';
import { createManagementMachineApp } from '../../src/services/machine-apps.ts';
import { createTestDatabase } from './database.ts';
import { TEST_SECRETS_KEY } from './secrets.ts';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * The real HTTP server (OIDC issuers + app) on its own test database and a free port; PUBLIC_URL matches it. With
 * `options.database` it runs on that one instead (a second server on one database, as a second process would be)
 * and leaves it open when it closes.
 */
export async function startTestHttpServer(
  env: Record<string, string> = {},
  options: { database?: DatabaseHandle } = {},
): Promise<{
  base: string;
  database: DatabaseHandle;
  close: () => Promise<void>;
}> {
  const database = options.database ?? (await createTestDatabase());
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    PUBLIC_URL: base,
    DATA_DIR: '.tmp/unused',
    PWNED_PASSWORDS_URL: 'off',
    SECRETS_KEY: TEST_SECRETS_KEY,
    ...env,
  });
  const notices = new ChangeNotices();
  const stopListening = await database.listen(CHANGES_CHANNEL, notices);
  const server = createHttpServer({
    config,
    db: database.db,
    tenants: new TenantDbs(database.db),
    keys: new SigningKeyStore(new TenantDbs(database.db)),
    log: pino({ level: 'silent' }),
    notices,
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    base,
    database,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await stopListening();
      if (!options.database) await database.close();
    },
  };
}

/** A minimal browser: keeps cookies per name and follows nothing by itself. */
export class CookieJar {
  readonly #cookies = new Map<string, string>();

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.#cookies.size) headers.set('Cookie', [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(line)) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
    return response;
  }
}

/**
 * A management API token of the default tenant, got as an operator would: a machine app made with the CLI's
 * service, then client credentials at the real token endpoint.
 */
export async function bootstrapManagementToken(server: { base: string; database: DatabaseHandle }): Promise<string> {
  const tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
  const app = await createManagementMachineApp(tenant, { type: 'system', id: 'test' }, 'bootstrap');
  const response = await requestManagementToken(server.base, app.clientId, app.clientSecret);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** A client-credentials request for the default tenant's management API at `base`, with HTTP Basic. */
export function requestManagementToken(base: string, clientId: string, clientSecret: string): Promise<Response> {
  return fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      resource: managementResource(DEFAULT_TENANT_ID),
      scope: 'all',
    }),
  });
}
