import { expect } from 'vitest';
import type { TestApp } from './app.ts';

/** Helpers of the SCIM tests: a connection made through the management API, and a directory's requests. */

// biome-ignore lint/suspicious/noExplicitAny: assertions read untyped JSON; `expect` does the checking.
type Json = any;
export type ScimAnswer = { status: number; headers: Headers; json: Json; text: string };

export type ScimSetup = {
  ssoConnectorId: string;
  connectionId: string;
  token: string;
};

let counter = 0;

/** An SSO connector (a draft OIDC one, `domains`) and its SCIM connection, made through the management API. */
export async function createScimConnection(
  t: TestApp,
  options: { domains?: string[]; groupMapping?: unknown; deprovision?: 'delete' | 'suspend'; name?: string } = {},
): Promise<ScimSetup> {
  counter += 1;
  const connector = await t.call('/api/sso-connectors', {
    method: 'POST',
    body: { providerName: 'OIDC', connectorName: `SCIM IdP ${counter}`, domains: options.domains ?? [] },
  });
  expect(connector.status, JSON.stringify(connector.json)).toBeLessThan(300);
  const created = await t.call('/api/scim-connections', {
    method: 'POST',
    body: {
      name: options.name ?? `Directory ${counter}`,
      ssoConnectorId: connector.json.id,
      ...(options.groupMapping ? { groupMapping: options.groupMapping } : {}),
      ...(options.deprovision ? { deprovision: options.deprovision } : {}),
    },
  });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  return { ssoConnectorId: connector.json.id, connectionId: created.json.id, token: created.json.token };
}

/** A directory's request to the SCIM service at `base` (OSS: /scim/v2), with the connection's token. */
export function scimClient(t: TestApp, token: string, base = '/scim/v2') {
  return (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ScimAnswer> =>
    t.call(`${base}${path}`, {
      method,
      ...(body === undefined ? {} : { body }),
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/scim+json', ...headers },
    });
}

export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const CORE_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const CORE_GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** A SCIM error answer: the status, the error schema, `status` as text and the `scimType`. */
export function expectScimError(answer: ScimAnswer, status: number, scimType?: string): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('Content-Type')).toMatch(/^application\/scim\+json/);
  expect(answer.json.schemas).toEqual([ERROR]);
  expect(answer.json.status).toBe(String(status));
  expect(typeof answer.json.detail).toBe('string');
  if (scimType === undefined) expect(answer.json.scimType).toBeUndefined();
  else expect(answer.json.scimType).toBe(scimType);
}

export const patch = (...operations: unknown[]) => ({ schemas: [PATCH_OP], Operations: operations });
