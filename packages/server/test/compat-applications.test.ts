import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededIds } from '../src/db/seed.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { auditEntries, expectInvalid } from './support/scenarios.ts';

/**
 * Issue 24: applications and SAML applications as a client written for the reference management API sends and reads
 * them (its request shapes, answer shapes, status and error codes).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const POST_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
let counter = 0;
const entityId = () => `https://compat-sp-${++counter}.example.com/metadata`;

type Body = Record<string, unknown>;
async function newApp(body: Body): Promise<string> {
  const response = await t.call('/api/applications', { method: 'POST', body });
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  return String(response.json.id);
}
async function newRole(name: string, type = 'MachineToMachine'): Promise<string> {
  const response = await t.call('/api/roles', { method: 'POST', body: { name, type } });
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  return String(response.json.id);
}
/** A JSON object whose serialisation is just over 64 KiB. */
const oversized = () => ({ blob: 'x'.repeat(64 * 1024) });

describe('SAML applications (reference shapes)', () => {
  it('accepts the HTTP-POST binding URN and answers with it; the binding defaults to HTTP-POST', async () => {
    const created = await t.call('/api/saml-applications', {
      method: 'POST',
      body: {
        name: 'compat sp',
        description: 'test',
        entityId: entityId(),
        acsUrl: { binding: POST_BINDING, url: 'https://sp.example.com/sso/saml' },
      },
    });
    expect(created.status).toBe(201);
    expect(created.json.acsUrl).toEqual({ binding: POST_BINDING, url: 'https://sp.example.com/sso/saml' });
    expect(created.json.nameIdFormat, "the reference's default name ID format").toBe(PERSISTENT);
    expect((await t.call(`/api/saml-applications/${created.json.id}`)).json.acsUrl.binding).toBe(POST_BINDING);

    const noBinding = await t.call('/api/saml-applications', {
      method: 'POST',
      body: { name: 'compat sp 2', entityId: entityId(), acsUrl: { url: 'https://sp2.example.com/acs' } },
    });
    expect(noBinding.status).toBe(201);
    expect(noBinding.json.acsUrl).toEqual({ binding: POST_BINDING, url: 'https://sp2.example.com/acs' });
  });

  it('refuses the HTTP-Redirect binding with 422 acs_url_binding_not_supported, on create and update', async () => {
    for (const binding of [REDIRECT_BINDING, 'HTTP-Redirect']) {
      const refused = await t.call('/api/saml-applications', {
        method: 'POST',
        body: { name: 'redirect sp', entityId: entityId(), acsUrl: { binding, url: 'https://example.com' } },
      });
      expect(refused.status, binding).toBe(422);
      expect(refused.json.code).toBe('application.saml.acs_url_binding_not_supported');
    }
    expect((await t.call('/api/applications?types=SAML&search=redirect%20sp')).json, 'nothing created').toEqual([]);

    const created = await t.call('/api/saml-applications', { method: 'POST', body: { name: 'to redirect' } });
    const patched = await t.call(`/api/saml-applications/${created.json.id}`, {
      method: 'PATCH',
      body: { acsUrl: { binding: REDIRECT_BINDING, url: 'https://example.com/acs' } },
    });
    expect(patched.status).toBe(422);
    expect(patched.json.code).toBe('application.saml.acs_url_binding_not_supported');
  });

  it('answers 422 saml_application_only for an application of another type, on every SAML route', async () => {
    const spa = await newApp({ name: 'test-non-saml-app', type: 'Traditional', isThirdParty: true });
    for (const [method, path, body] of [
      ['GET', `/api/saml-applications/${spa}`, undefined],
      ['PATCH', `/api/saml-applications/${spa}`, { name: 'saml now' }],
      ['DELETE', `/api/saml-applications/${spa}`, undefined],
      ['GET', `/api/saml-applications/${spa}/secrets`, undefined],
      ['POST', `/api/saml-applications/${spa}/secrets`, { lifeSpanInYears: 1 }],
      ['PATCH', `/api/saml-applications/${spa}/secrets/some-secret`, { active: true }],
      ['DELETE', `/api/saml-applications/${spa}/secrets/some-secret`, undefined],
    ] as const) {
      const response = await t.call(path, { method, body });
      expect(response.status, `${method} ${path}`).toBe(422);
      expect(response.json.code).toBe('application.saml.saml_application_only');
    }
    expect((await t.call(`/api/applications/${spa}`)).status, 'the application is still there').toBe(200);
  });

  it('sends a SAML application to its own API: POST, PATCH and DELETE /applications answer 400 use_saml_app_api', async () => {
    const created = await t.call('/api/saml-applications', {
      method: 'POST',
      body: { name: 'test', description: 'test' },
    });
    const id = String(created.json.id);
    for (const [method, path, body] of [
      ['POST', '/api/applications', { name: 'saml', type: 'SAML' }],
      ['PATCH', `/api/applications/${id}`, { name: 'updated' }],
      ['DELETE', `/api/applications/${id}`, undefined],
    ] as const) {
      const response = await t.call(path, { method, body });
      expect(response.status, `${method} ${path}`).toBe(400);
      expect(response.json.code).toBe('application.saml.use_saml_app_api');
    }
    const kept = await t.call(`/api/saml-applications/${id}`);
    expect(kept.json.name, 'neither changed nor deleted').toBe('test');
    expect((await t.call(`/api/saml-applications/${id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('refuses to delete the active certificate with 400 can_not_delete_active_secret', async () => {
    const created = await t.call('/api/saml-applications', {
      method: 'POST',
      body: { name: 'test', description: 'test' },
    });
    const id = String(created.json.id);
    const secret = await t.call(`/api/saml-applications/${id}/secrets`, {
      method: 'POST',
      body: { lifeSpanInYears: 30 },
    });
    expect(secret.status).toBe(201);
    const path = `/api/saml-applications/${id}/secrets/${secret.json.id}`;
    expect((await t.call(path, { method: 'PATCH', body: { active: true } })).status).toBe(200);
    const refused = await t.call(path, { method: 'DELETE' });
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe('application.saml.can_not_delete_active_secret');
    // Another certificate active, this one goes.
    const [other] = (await t.call(`/api/saml-applications/${id}/secrets`)).json.filter(
      (certificate: { id: string }) => certificate.id !== secret.json.id,
    );
    await t.call(`/api/saml-applications/${id}/secrets/${other.id}`, { method: 'PATCH', body: { active: true } });
    expect((await t.call(path, { method: 'DELETE' })).status).toBe(204);
  });

  it('stores encryption.certificate as sent, as the reference does (no assertion is encrypted with it)', async () => {
    const encryption = { encryptAssertion: true, encryptThenSign: false, certificate: 'an SP certificate, not PEM' };
    const created = await t.call('/api/saml-applications', { method: 'POST', body: { name: 'enc', encryption } });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    expect(created.json.encryption).toEqual(encryption);
    const patched = await t.call(`/api/saml-applications/${created.json.id}`, {
      method: 'PATCH',
      body: { encryption: { ...encryption, certificate: 'MIIC…' } },
    });
    expect(patched.status).toBe(200);
    expect((await t.call(`/api/saml-applications/${created.json.id}`)).json.encryption.certificate).toBe('MIIC…');
    // The metadata (signed with the application's own certificate) is unaffected.
    expect((await t.app.request(`/api/saml-applications/${created.json.id}/metadata`)).status).toBe(200);
  });

  it('creates signing certificates of any lifespan the reference allows, up to an encodable 1000 years', async () => {
    const created = await t.call('/api/saml-applications', { method: 'POST', body: { name: 'long-lived' } });
    const id = String(created.json.id);
    for (const years of [20, 1000]) {
      const secret = await t.call(`/api/saml-applications/${id}/secrets`, {
        method: 'POST',
        body: { lifeSpanInYears: years },
      });
      expect(secret.status, `${years} years`).toBe(201);
      expect(Math.round((secret.json.expiresAt - secret.json.createdAt) / (365.25 * 86_400_000))).toBe(years);
      const x509 = new X509Certificate(secret.json.certificate);
      expect(new Date(x509.validTo).getTime(), 'the certificate carries the expiry').toBe(
        Math.floor(secret.json.expiresAt / 1000) * 1000,
      );
    }
    expectInvalid(
      await t.call(`/api/saml-applications/${id}/secrets`, { method: 'POST', body: { lifeSpanInYears: 1001 } }),
      'lifeSpanInYears',
    );
  });
});

describe('application custom data', () => {
  it('PATCH /applications/{id}/custom-data merges the given keys and answers the whole custom data', async () => {
    const id = await newApp({ name: 'test-create-app', type: 'SPA', customData: { team: 'a', keep: true } });
    const first = await t.call(`/api/applications/${id}/custom-data`, { method: 'PATCH', body: { key: 'value' } });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ team: 'a', keep: true, key: 'value' });
    const second = await t.call(`/api/applications/${id}/custom-data`, {
      method: 'PATCH',
      body: { key: 'new-value', test: 'foo', team: { nested: 1 } },
    });
    expect(second.json).toEqual({ keep: true, key: 'new-value', test: 'foo', team: { nested: 1 } });
    expect((await t.call(`/api/applications/${id}`)).json.customData).toEqual(second.json);

    // PATCH /applications/{id} replaces the custom data whole.
    await t.call(`/api/applications/${id}`, { method: 'PATCH', body: { customData: {} } });
    expect((await t.call(`/api/applications/${id}`)).json.customData).toEqual({});

    const entries = await auditEntries(t, id);
    expect(entries.filter((entry) => entry.key === 'Admin.Application.Updated')).toHaveLength(3);
    expect((await t.call('/api/applications/does-not-exist/custom-data', { method: 'PATCH', body: {} })).status).toBe(
      404,
    );
    for (const body of [[1], 'text', null]) {
      expect((await t.call(`/api/applications/${id}/custom-data`, { method: 'PATCH', body })).status).toBe(400);
    }
  });

  it('caps custom data at 64 KiB like users and organizations: create, PATCH and the merge', async () => {
    expectInvalid(
      await t.call('/api/applications', {
        method: 'POST',
        body: { name: 'big', type: 'SPA', customData: oversized() },
      }),
      'customData',
    );
    const id = await newApp({ name: 'capped', type: 'SPA', customData: { half: 'y'.repeat(40 * 1024) } });
    expectInvalid(
      await t.call(`/api/applications/${id}`, { method: 'PATCH', body: { customData: oversized() } }),
      'customData',
    );
    expect((await t.call(`/api/applications/${id}/custom-data`, { method: 'PATCH', body: oversized() })).status).toBe(
      400,
    );
    // Each half fits; merged they do not.
    const merged = await t.call(`/api/applications/${id}/custom-data`, {
      method: 'PATCH',
      body: { other: 'z'.repeat(40 * 1024) },
    });
    expect(merged.status).toBe(400);
    expect(merged.json.code).toBe('guard.invalid_input');
    expect(Object.keys((await t.call(`/api/applications/${id}`)).json.customData)).toEqual(['half']);
    expectInvalid(
      await t.call('/api/saml-applications', { method: 'POST', body: { name: 'big sp', customData: oversized() } }),
      'customData',
    );
  });
});

describe('machine-to-machine roles of an application (reference shapes)', () => {
  it('POST ignores roles already held and answers {roleIds, addedRoleIds} with 201', async () => {
    const app = await newApp({ name: 'compat robot', type: 'MachineToMachine' });
    const [a, b] = [await newRole('compat-a'), await newRole('compat-b')];
    const first = await t.call(`/api/applications/${app}/roles`, { method: 'POST', body: { roleIds: [a] } });
    expect(first.status).toBe(201);
    expect(first.json).toEqual({ roleIds: [a], addedRoleIds: [a] });
    const again = await t.call(`/api/applications/${app}/roles`, { method: 'POST', body: { roleIds: [a, b] } });
    expect(again.status).toBe(201);
    expect(again.json).toEqual({ roleIds: [a, b], addedRoleIds: [b] });
    expect((await t.call(`/api/applications/${app}/roles`)).headers.get('Total-Number')).toBe('2');

    const unknown = await t.call(`/api/applications/${app}/roles`, {
      method: 'POST',
      body: { roleIds: ['no-such-role'] },
    });
    expect(unknown.status, 'an unknown role is not found, as in the reference').toBe(404);
  });

  it('PUT replaces the roles and answers 200 without a body, as the reference (issue 43)', async () => {
    const app = await newApp({ name: 'put robot', type: 'MachineToMachine' });
    const [r1, r2, r3] = [await newRole('put-1'), await newRole('put-2'), await newRole('put-3')];
    await t.call(`/api/applications/${app}/roles`, { method: 'POST', body: { roleIds: [r2] } });
    const put = await t.call(`/api/applications/${app}/roles`, { method: 'PUT', body: { roleIds: [r1, r3] } });
    expect(put.status).toBe(200);
    expect(put.text).toBe('');
    const ids = (await t.call(`/api/applications/${app}/roles`)).json.map((role: { id: string }) => role.id);
    expect([...ids].sort()).toEqual([r1, r3].sort());
    expect((await t.call(`/api/applications/${app}/roles`, { method: 'PUT', body: { roleIds: [] } })).status).toBe(200);
    expect((await t.call(`/api/applications/${app}/roles`)).json).toEqual([]);

    const userRole = await newRole('put-user', 'User');
    const wrong = await t.call(`/api/applications/${app}/roles`, { method: 'PUT', body: { roleIds: [userRole] } });
    expect(wrong.status).toBe(422);
    expect(wrong.json.code).toBe('application.invalid_role_type');
    const spa = await newApp({ name: 'put spa', type: 'SPA' });
    const toSpa = await t.call(`/api/applications/${spa}/roles`, { method: 'PUT', body: { roleIds: [r1] } });
    expect(toSpa.status).toBe(422);
    expect(toSpa.json.code).toBe('application.invalid_type');
  });

  it('a user role is 422 application.invalid_role_type, the reference’s code (issue 43)', async () => {
    const app = await newApp({ name: 'typed robot', type: 'MachineToMachine' });
    const userRole = await newRole('compat-user-role', 'User');
    const response = await t.call(`/api/applications/${app}/roles`, { method: 'POST', body: { roleIds: [userRole] } });
    expect(response.status).toBe(422);
    expect(response.json).toMatchObject({ code: 'application.invalid_role_type', data: { ids: [userRole] } });
    expect((await t.call(`/api/applications/${app}/roles`)).json).toEqual([]);
  });

  it('lists the roles with the reference’s search syntax', async () => {
    const app = await newApp({ name: 'searched robot', type: 'MachineToMachine' });
    const [r1, r2] = [await newRole('compat-search-reader'), await newRole('compat-search-writer')];
    await t.call(`/api/applications/${app}/roles`, { method: 'POST', body: { roleIds: [r1, r2] } });
    const found = await t.call(
      `/api/applications/${app}/roles?search.name=compat-search-writer&mode.name=exact&page=1&page_size=5`,
    );
    expect(found.status, found.text).toBe(200);
    expect(found.json.map((role: { id: string }) => role.id)).toEqual([r2]);
    expect(found.headers.get('Total-Number')).toBe('1');
    const refused = await t.call(`/api/applications/${app}/roles?search=x&mode=posix`);
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe('request.invalid_input');
  });

  it('every roles route of a non-machine-to-machine app answers 422 application.invalid_type', async () => {
    const spa = await newApp({ name: 'roles of a spa', type: 'SPA' });
    for (const [method, path, body] of [
      ['GET', `/api/applications/${spa}/roles`, undefined],
      ['POST', `/api/applications/${spa}/roles`, { roleIds: [seededIds.managementRole] }],
      ['DELETE', `/api/applications/${spa}/roles/${seededIds.managementRole}`, undefined],
    ] as const) {
      const response = await t.call(path, { method, body });
      expect(response.status, `${method} ${path}`).toBe(422);
      expect(response.json.code).toBe('application.invalid_type');
    }
  });
});

describe('GET /applications (reference search syntax, issue 43)', () => {
  it('takes search.<field>, mode, joint and isCaseSensitive over id, name and description', async () => {
    const a = await newApp({ name: 'Compat Search Portal', type: 'SPA', description: 'customer portal' });
    const b = await newApp({ name: 'compat search worker', type: 'MachineToMachine', description: 'nightly jobs' });
    const found = async (query: string) => {
      const response = await t.call(`/api/applications?${query}`);
      expect(response.status, `${query}: ${response.text}`).toBe(200);
      return response.json.map((app: { id: string }) => app.id).sort();
    };
    // Mode like takes the value as a LIKE pattern: `%` where the match may hold more (since issue 43).
    expect(await found('search.name=compat%20search%25')).toEqual([a, b].sort());
    expect(await found('search.name=compat%20search%25&isCaseSensitive=true')).toEqual([b]);
    expect(await found('search.description=%25portal')).toEqual([a]);
    expect(await found('search.description=portal'), 'without %: the whole value').toEqual([]);
    expect(await found('search.name=compat%20search%20worker&mode=exact')).toEqual([b]);
    expect(await found('search.name=compat%20search%25&search.description=%25jobs&joint=and')).toEqual([b]);
    expect(await found('search.name=compat%20search%25&types=SPA')).toEqual([a]);
    const refused = await t.call('/api/applications?search.type=SPA');
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe('request.invalid_input');
  });
});

describe('application secrets (reference shapes)', () => {
  it('answers each secret with its applicationId, also when renamed', async () => {
    const app = await newApp({ name: 'secret holder', type: 'MachineToMachine' });
    const created = await t.call(`/api/applications/${app}/secrets`, { method: 'POST', body: { name: 'one' } });
    expect(created.json).toMatchObject({ applicationId: app, name: 'one' });
    const renamed = await t.call(`/api/applications/${app}/secrets/one`, { method: 'PATCH', body: { name: 'two' } });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ applicationId: app, name: 'two' });
    expect((await t.call(`/api/applications/${app}/secrets`)).json[0]).toMatchObject({ applicationId: app });
  });
});

describe('404s of applications as the reference answers them (issue 43)', () => {
  it('PUT and GET /applications/{id}/sign-in-experience with an unknown id of any length answer 404', async () => {
    // The reference takes any text as the id (its finder misses with `entity.not_exists_with_id`), also a long one.
    for (const id of ['no-such-app', 'an-application-id-longer-than-twenty-one', 'x'.repeat(256)]) {
      const put = await t.call(`/api/applications/${id}/sign-in-experience`, {
        method: 'PUT',
        body: { displayName: 'Partner', termsOfUseUrl: 'https://partner.example.com/terms' },
      });
      expect(put.status, id).toBe(404);
      expect(put.json.code, id).toBe('entity.not_exists_with_id');
      const get = await t.call(`/api/applications/${id}/sign-in-experience`);
      expect(get.status, id).toBe(404);
      expect(get.json.code, id).toBe('entity.not_exists_with_id');
    }
  });

  it('GET, PATCH and DELETE of an application id longer than 21 characters answer 404, not 400', async () => {
    const id = 'an-application-id-longer-than-twenty-one';
    for (const [method, path, body] of [
      ['GET', `/api/applications/${id}`, undefined],
      ['PATCH', `/api/applications/${id}`, { name: 'x' }],
      ['DELETE', `/api/applications/${id}`, undefined],
      ['GET', `/api/applications/${id}/secrets`, undefined],
      ['GET', `/api/applications/${id}/roles`, undefined],
    ] as const) {
      const response = await t.call(path, { method, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.json.code, `${method} ${path}`).toBe('entity.not_exists_with_id');
    }
  });

  it('a secret that does not exist: DELETE is entity.not_found, PATCH entity.not_exists, as the reference writes by name', async () => {
    const app = await newApp({ name: 'compat secrets 404', type: 'MachineToMachine' });
    for (const appId of [app, 'no-such-app']) {
      const deleted = await t.call(`/api/applications/${appId}/secrets/no-such-secret`, { method: 'DELETE' });
      expect(deleted.status, appId).toBe(404);
      expect(deleted.json.code, appId).toBe('entity.not_found');
      const renamed = await t.call(`/api/applications/${appId}/secrets/no-such-secret`, {
        method: 'PATCH',
        body: { name: 'renamed' },
      });
      expect(renamed.status, appId).toBe(404);
      expect(renamed.json.code, appId).toBe('entity.not_exists');
    }
  });

  it('DELETE /applications/{id}/roles/{roleId} of a role not held is entity.not_found; an unknown app its finder’s code', async () => {
    const app = await newApp({ name: 'compat roles 404', type: 'MachineToMachine' });
    const notHeld = await t.call(`/api/applications/${app}/roles/no-such-role`, { method: 'DELETE' });
    expect(notHeld.status).toBe(404);
    expect(notHeld.json.code).toBe('entity.not_found');
    // The reference looks the application up first here.
    const unknownApp = await t.call('/api/applications/no-such-app/roles/no-such-role', { method: 'DELETE' });
    expect(unknownApp.status).toBe(404);
    expect(unknownApp.json.code).toBe('entity.not_exists_with_id');
  });
});

describe('protectedAppMetadata (reference shapes, issue 43)', () => {
  it('is answered null on create, read, list and update, Protected apps included (Gatehouse keeps no protected-app settings)', async () => {
    const spa = await newApp({ name: 'Compat SPA', type: 'SPA', oidcClientMetadata: { redirectUris: [] } });
    const protectedApp = await newApp({ name: 'Compat protected', type: 'Protected' });
    for (const id of [spa, protectedApp]) {
      const read = await t.call(`/api/applications/${id}`);
      expect(read.json).toHaveProperty('protectedAppMetadata', null);
      const patched = await t.call(`/api/applications/${id}`, { method: 'PATCH', body: { description: 'x' } });
      expect(patched.json).toHaveProperty('protectedAppMetadata', null);
    }
    const list = await t.call('/api/applications');
    for (const app of list.json as Body[]) expect(app, String(app.id)).toHaveProperty('protectedAppMetadata', null);
    const created = await t.call('/api/applications', {
      method: 'POST',
      body: { name: 'Compat M2M', type: 'MachineToMachine' },
    });
    expect(created.json).toHaveProperty('protectedAppMetadata', null);
  });
});
