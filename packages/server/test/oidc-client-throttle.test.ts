import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_AUTH_LIMITS, ClientAuthThrottle } from '../src/auth/oidc/client-auth-throttle.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { createManagementMachineApp } from '../src/services/machine-apps.ts';
import { requestManagementToken, startTestHttpServer } from './support/http-server.ts';

// Issue 23 item 6: 300 wrong client secrets were checked in 0.8 s. Failed client authentication is now counted
// per IP and per client, and further attempts are refused before the secret is compared.
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
    for (let i = 0; i < CLIENT_AUTH_LIMITS.perIp + 5; i++)
      statuses.push((await requestToken(clientId, `wrong-${i}`)).status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(CLIENT_AUTH_LIMITS.perIp);
    expect(statuses.slice(CLIENT_AUTH_LIMITS.perIp).every((status) => status === 429)).toBe(true);
    const refused = await requestToken(clientId, clientSecret);
    expect(refused.status, 'no secret is compared while refused').toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ error: 'temporarily_unavailable' });
  });
});

describe('ClientAuthThrottle', () => {
  it('counts per address and per client within a window, and forgets after it', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    const throttle = new ClientAuthThrottle(
      server.database.db,
      { perIp: 3, perClient: 5, windowMs: 60_000 },
      () => now,
    );
    for (let i = 0; i < 3; i++) await throttle.fail('10.0.0.1', 'tenant app');
    expect(await throttle.retryAfter('10.0.0.1', undefined)).toBe(60);
    expect(await throttle.retryAfter('10.0.0.2', 'tenant app'), 'the client is still under its own limit').toBe(0);
    await throttle.fail('10.0.0.2', 'tenant app');
    await throttle.fail('10.0.0.3', 'tenant app');
    expect(await throttle.retryAfter('10.0.0.4', 'tenant app'), 'guesses spread over addresses add up').toBe(60);
    expect(await throttle.retryAfter('10.0.0.4', 'tenant other'), 'another client is not affected').toBe(0);
    now += 30_000;
    expect(await throttle.retryAfter('10.0.0.1', undefined)).toBe(30);
    now += 30_001;
    expect(await throttle.retryAfter('10.0.0.1', 'tenant app')).toBe(0);
  });
});
