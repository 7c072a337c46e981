import { ADMIN_TENANT_ID, CLOUD_API_RESOURCE, ORGANIZATIONS_SCOPE, tenantOrganizationId } from '@gatehouse/schemas';
import { expect } from 'vitest';
import { issuerUrl, ME_RESOURCE } from '../../src/auth/issuers.ts';
import type { Database } from '../../src/db/client.ts';
import { users } from '../../src/db/tables.ts';
import { TenantDb } from '../../src/db/tenant-db.ts';
import { hashPassword, PASSWORD_ENCRYPTION_METHOD } from '../../src/services/passwords.ts';
import { CookieJar } from './http-server.ts';
import { consoleClient } from './oidc-flow.ts';

/** Console accounts of the cloud edition signed in over HTTP with real tokens (billing and quota tests). */

export type CloudAccount = {
  id: string;
  username: string;
  password: string;
  email: string;
  cloud: string;
  refresh: string;
};
type TokenResponse = { access_token: string; refresh_token?: string; scope?: string };
// biome-ignore lint/suspicious/noExplicitAny: test responses are read loosely and checked by the expectations.
export type Json = any;

export async function createCloudAccount(db: Database, base: string, username: string): Promise<CloudAccount> {
  const account: CloudAccount = {
    id: `${username}user0001`.padEnd(12, '0').slice(0, 12),
    username,
    password: `${username}-Pass-4242`,
    email: `${username}@example.com`,
    cloud: '',
    refresh: '',
  };
  await new TenantDb(db, ADMIN_TENANT_ID).insert(users, {
    id: account.id,
    username: account.username,
    primaryEmail: account.email,
    primaryEmailVerified: true,
    passwordEncrypted: await hashPassword(account.password),
    passwordEncryptionMethod: PASSWORD_ENCRYPTION_METHOD,
  });
  const flow = consoleClient(base);
  const jar = new CookieJar();
  const { verifier, signInPage } = await flow.startAuthorization(jar, {
    resources: [CLOUD_API_RESOURCE, ME_RESOURCE],
    scope: `openid offline_access ${ORGANIZATIONS_SCOPE} create:tenant manage:tenant:self`,
  });
  const callback = await flow.followToCallback(
    jar,
    await flow.submit(jar, signInPage, account.username, account.password),
  );
  const response = await flow.redeemCode(callback.searchParams.get('code') ?? '', verifier, {
    resource: CLOUD_API_RESOURCE,
  });
  const body = (await response.json()) as TokenResponse;
  expect(response.status, JSON.stringify(body)).toBe(200);
  account.cloud = body.access_token;
  account.refresh = body.refresh_token ?? '';
  return account;
}

/** An organization token of `t-{tenantId}` (the console's per-tenant token for the tenant's management API). */
export async function tenantToken(base: string, account: CloudAccount, tenantId: string): Promise<string> {
  const response = await fetch(`${issuerUrl(base, ADMIN_TENANT_ID)}/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: 'admin-console',
      grant_type: 'refresh_token',
      refresh_token: account.refresh,
      organization_id: tenantOrganizationId(tenantId),
    }),
  });
  const body = (await response.json()) as TokenResponse;
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body.access_token;
}

export async function call(
  base: string,
  path: string,
  token: string | undefined,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : undefined) as Json };
}
