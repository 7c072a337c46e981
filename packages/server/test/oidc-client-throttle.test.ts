import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managementResource } from '../src/auth/issuers.ts';
import { CLIENT_AUTH_LIMITS, ClientAuthThrottle } from '../src/auth/oidc/client-auth-throttle.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { createManagementMachineApp } from '../src/services/machine-apps.ts';
import { requestManagementToken, startTestHttpServer } from './support/http-server.ts';

// Issue 23 item 6: 300 wrong client secrets were checked in 0.8 s. Failed client authentication is now counted
// per address and client and per address, and further attempts are refused before the secret is compared. Issue 39
// item 4: guesses from other addresses never lock the client out of a clean one.
let server: Awaited<ReturnType<typeof startTestHttpServer>>;
beforeAll(async () => {
  server = await startTestHttpServer();
});
afterAll(() => server.close());

const requestToken = (clientId: string, clientSecret: string) =>
  requestManagementToken(server.base, clientId, clientSecret);

describe('the token endpoint under guessing', () => {
  it('refuses further attempts from an address after too many wrong secrets, even with the right one', async () => {
    const tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
    const { clientId, clientSecret } = await createManagementMachineApp(
      tenant,
      { type: 'system', id: 'test' },
      'robot',
    );
    expect((await requestToken(clientId, clientSecret)).status, 'the right secret works').toBe(200);
    const statuses: number[] = [];
    const limit = CLIENT_AUTH_LIMITS.perAddressAndClient;
    for (let i = 0; i < limit + 5; i++) statuses.push((await requestToken(clientId, `wrong-${i}`)).status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(limit);
    expect(statuses.slice(limit).every((status) => status === 429)).toBe(true);
    const refused = await requestToken(clientId, clientSecret);
    expect(refused.status, 'no secret is compared while refused').toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ error: 'temporarily_unavailable' });
  });
});

describe('the token endpoint under guessing from several addresses', () => {
  /** A token request sent from `address` (any of 127.0.0.0/8 is this machine's loopback). */
  const fromAddress = (address: string, clientId: string, clientSecret: string) =>
    undiciFetch(`${server.base}/oidc/token`, {
      method: 'POST',
      dispatcher: new Agent({ localAddress: address }),
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        resource: managementResource(DEFAULT_TENANT_ID),
        scope: 'all',
      }).toString(),
    });

  it('serves the right secret from a clean address after three others were refused (issue 39, item 4)', async () => {
    const tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
    const { clientId, clientSecret } = await createManagementMachineApp(tenant, { type: 'system', id: 'test' }, 'bot');
    for (const address of ['127.0.0.2', '127.0.0.3', '127.0.0.4']) {
      for (let i = 0; i < CLIENT_AUTH_LIMITS.perAddressAndClient; i++) {
        const answer = await fromAddress(address, clientId, `wrong-${i}`);
        expect(answer.status, `${address} #${i}: ${await answer.text()}`).toBe(401);
      }
      expect((await fromAddress(address, clientId, clientSecret)).status, `${address} is refused`).toBe(429);
    }
    expect((await fromAddress('127.0.0.5', clientId, clientSecret)).status, 'a clean address is served').toBe(200);
  });
});

describe('ClientAuthThrottle', () => {
  it('counts per address and client and per address within a window, and forgets after it', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    const throttle = new ClientAuthThrottle(
      server.database.db,
      { perAddressAndClient: 3, perAddress: 5, windowMs: 60_000 },
      () => now,
    );
    for (let i = 0; i < 3; i++) await throttle.fail('10.0.0.1', 'tenant app');
    expect(await throttle.retryAfter('10.0.0.1', 'tenant app')).toBe(60);
    expect(await throttle.retryAfter('10.0.0.1', 'tenant other'), 'the address may still use another client').toBe(0);
    expect(await throttle.retryAfter('10.0.0.2', 'tenant app'), 'another address is not affected').toBe(0);
    await throttle.fail('10.0.0.1', 'tenant other');
    await throttle.fail('10.0.0.1', 'tenant third');
    expect(await throttle.retryAfter('10.0.0.1', 'tenant fourth'), 'one address guessing many clients').toBe(60);
    now += 30_000;
    expect(await throttle.retryAfter('10.0.0.1', undefined)).toBe(30);
    now += 30_001;
    expect(await throttle.retryAfter('10.0.0.1', 'tenant app')).toBe(0);
  });

  it('three guessing addresses do not lock the client out of a fourth (issue 39, item 4)', async () => {
    const throttle = new ClientAuthThrottle(server.database.db);
    const client = `tenant item-4-${Date.now()}`;
    for (const address of ['10.9.0.1', '10.9.0.2', '10.9.0.3']) {
      for (let i = 0; i < CLIENT_AUTH_LIMITS.perAddressAndClient; i++) await throttle.fail(address, client);
      expect(await throttle.retryAfter(address, client), `${address} is refused`).toBeGreaterThan(0);
    }
    expect(await throttle.retryAfter('10.9.0.4', client), 'a clean address is served').toBe(0);
  });
});
