import { expect, type Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';

/** The management API of the tenant under test: '/api' in OSS, '/m/default/api' in cloud. */
export function managementApiPath(path: string): string {
  return `${edition === 'cloud' ? '/m/default/api' : '/api'}${path}`;
}

/**
 * Test data through the real management API, as the admin signed in on `page`: the console keeps its management
 * API access token in sessionStorage (oidc-client-ts's user entry), and the requests go from the test runner with
 * it. Setup therefore needs no second account and no machine-to-machine app.
 */
/**
 * A token the console session on `page` holds now: tenant `tenantId`'s organization token (cloud; the console caches
 * it once its first management call for that tenant has run, console src/auth/session.ts), or without a tenant the
 * sign-in's access token (oidc-client-ts's user entry in sessionStorage: the management API's in OSS, the cloud
 * API's in cloud).
 */
export async function consoleToken(page: Page, tenantId?: string): Promise<string | undefined> {
  return page.evaluate((id) => {
    if (id) {
      const cached: unknown = JSON.parse(sessionStorage.getItem(`gatehouse:token:organization:${id}`) ?? 'null');
      return typeof cached === 'object' && cached !== null && 'token' in cached ? String(cached.token) : undefined;
    }
    for (const key of Object.keys(sessionStorage)) {
      if (!key.startsWith('oidc.user:')) continue;
      const user: unknown = JSON.parse(sessionStorage.getItem(key) ?? 'null');
      if (typeof user === 'object' && user !== null && 'access_token' in user) return String(user.access_token);
    }
    return undefined;
  }, tenantId);
}

/** Like {@link consoleToken}, waiting until the console holds it (an organization token may still be in flight). */
export async function sessionToken(page: Page, tenantId?: string): Promise<string> {
  let token: string | undefined;
  await expect
    .poll(async () => {
      token = await consoleToken(page, tenantId);
      return Boolean(token);
    }, 'the console holds the token')
    .toBe(true);
  return token ?? '';
}

/** The console's token for the management API of the tenant under test (tenant `default`'s in cloud). */
export const consoleManagementToken = (page: Page) => consoleToken(page, edition === 'cloud' ? 'default' : undefined);

export async function managementApiAs(page: Page) {
  // In cloud the organization token arrives with the page's first management call, which may still be in flight.
  let token: string | undefined;
  await expect
    .poll(async () => {
      token = await consoleManagementToken(page);
      return Boolean(token);
    })
    .toBe(true)
    .catch(() => undefined);
  if (!token) throw new Error('No signed-in console session on this page: sign in before calling the API.');
  const headers = { Authorization: `Bearer ${token}` };

  async function send<T>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<T> {
    const response = await page.request.fetch(managementApiPath(path), {
      method,
      headers,
      ...(body === undefined ? {} : { data: body }),
    });
    expect(response.ok(), `${method} ${path} answered ${response.status()}: ${await response.text()}`).toBe(true);
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  return {
    get: <T>(path: string) => send<T>('GET', path),
    post: <T>(path: string, body: unknown) => send<T>('POST', path, body),
    put: <T>(path: string, body: unknown) => send<T>('PUT', path, body),
    patch: <T>(path: string, body: unknown) => send<T>('PATCH', path, body),
    delete: (path: string) => send<undefined>('DELETE', path),

    /** An API resource with the given permissions (scopes). */
    async createResourceWithScopes(name: string, scopes: readonly { name: string; description?: string }[]) {
      const resource = await send<{ id: string; name: string }>('POST', '/resources', {
        name,
        indicator: `https://${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.example.com/api`,
      });
      const created = [];
      for (const scope of scopes) {
        created.push(await send<{ id: string; name: string }>('POST', `/resources/${resource.id}/scopes`, scope));
      }
      return { ...resource, scopes: created };
    },

    createMachineToMachineApp: (name: string) =>
      send<{ id: string; name: string }>('POST', '/applications', { name, type: 'MachineToMachine' }),

    createRole: (role: {
      name: string;
      type?: 'User' | 'MachineToMachine';
      description?: string;
      scopeIds?: string[];
    }) => send<{ id: string; name: string }>('POST', '/roles', role),

    createUser: (user: { username: string; name?: string; primaryEmail?: string }) =>
      send<{ id: string; username: string }>('POST', '/users', user),
  };
}

export type ManagementApi = Awaited<ReturnType<typeof managementApiAs>>;
