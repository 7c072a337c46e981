import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applications, samlApplicationConfigs } from '../src/db/tables.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { auditEntries, expectGuarded, expectInvalid, otherTenant, ownTenant } from './support/scenarios.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const certificate = `-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUTestCertificateBody0123456789abcdefghijklmno=\n-----END CERTIFICATE-----\n`;
const persistent = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
let counter = 0;
const createSaml = (body: Record<string, unknown>) => t.call('/api/saml-applications', { method: 'POST', body });
const entityId = () => `https://sp-${++counter}.example.com/metadata`;

describe('SAML applications', () => {
  it('creates, reads, updates and deletes a SAML application with its settings', async () => {
    const created = await createSaml({
      name: 'Wiki',
      description: 'Team wiki',
      entityId: 'https://wiki.example.com/saml/metadata',
      acsUrl: { binding: 'HTTP-POST', url: 'https://wiki.example.com/saml/acs' },
      attributeMapping: { email: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress' },
      nameIdFormat: persistent,
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      name: 'Wiki',
      type: 'SAML',
      entityId: 'https://wiki.example.com/saml/metadata',
      // The short name is still read; the answer carries the binding's URN, as the reference's.
      acsUrl: { binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', url: 'https://wiki.example.com/saml/acs' },
      nameIdFormat: persistent,
      encryption: null,
    });
    expect(created.json).not.toHaveProperty('secret');
    const id = String(created.json.id);
    expect((await t.call(`/api/saml-applications/${id}`)).json).toEqual(created.json);
    expect(
      (await t.call('/api/applications?types=SAML&search=Wiki')).json.map((app: { id: string }) => app.id),
      'SAML applications are listed with the others',
    ).toEqual([id]);

    const patched = await t.call(`/api/saml-applications/${id}`, {
      method: 'PATCH',
      body: {
        name: 'Wiki 2',
        encryption: { encryptAssertion: true, encryptThenSign: false, certificate },
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({
      name: 'Wiki 2',
      entityId: 'https://wiki.example.com/saml/metadata',
      encryption: { encryptAssertion: true, encryptThenSign: false, certificate },
    });
    const off = await t.call(`/api/saml-applications/${id}`, {
      method: 'PATCH',
      body: { encryption: { encryptAssertion: false } },
    });
    expect(off.json.encryption).toEqual({ encryptAssertion: false });

    expect((await t.call(`/api/saml-applications/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.call(`/api/saml-applications/${id}`)).status).toBe(404);
    expect(await ownTenant(t).findMany(samlApplicationConfigs), 'the settings went with it').not.toContainEqual(
      expect.objectContaining({ applicationId: id }),
    );

    const entries = await auditEntries(t, id);
    expect(entries.map((entry) => entry.key)).toEqual([
      'Admin.Application.Deleted',
      'Admin.Application.Updated',
      'Admin.Application.Updated',
      'Admin.Application.Created',
    ]);
    expect(entries[2]?.payload.changes).toEqual([
      { field: 'encryption', before: null, after: { encryptAssertion: true, encryptThenSign: false, certificate } },
      { field: 'name', before: 'Wiki', after: 'Wiki 2' },
    ]);
  });

  it('requires encryptThenSign and a certificate when assertion encryption is on (spec §5)', async () => {
    const missingBoth = await createSaml({ name: 'enc', encryption: { encryptAssertion: true } });
    expectInvalid(missingBoth, 'encryption.encryptThenSign');
    expectInvalid(missingBoth, 'encryption.certificate');
    expectInvalid(
      await createSaml({ name: 'enc', encryption: { encryptAssertion: true, encryptThenSign: true } }),
      'encryption.certificate',
    );
    expectInvalid(
      await createSaml({
        name: 'enc',
        encryption: { encryptAssertion: true, encryptThenSign: true, certificate: 'x'.repeat(16_385) },
      }),
      'encryption.certificate',
    );
    const ok = await createSaml({
      name: 'enc',
      entityId: entityId(),
      encryption: { encryptAssertion: true, encryptThenSign: true, certificate },
    });
    expect(ok.status).toBe(201);
    expectInvalid(
      await t.call(`/api/saml-applications/${ok.json.id}`, {
        method: 'PATCH',
        body: { encryption: { encryptAssertion: true, encryptThenSign: true } },
      }),
      'encryption.certificate',
    );
    expect((await t.call(`/api/saml-applications/${ok.json.id}`)).json.encryption.certificate).toBe(certificate);
  });

  it('rejects other invalid settings and saves nothing', async () => {
    const before = (await t.call('/api/applications?types=SAML&page=1')).headers.get('Total-Number');
    for (const [body, path] of [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x', acsUrl: { binding: 'SOAP', url: 'https://sp.example.com/acs' } }, 'acsUrl.binding'],
      [{ name: 'x', acsUrl: { binding: 'HTTP-POST', url: 'ftp://sp.example.com/acs' } }, 'acsUrl.url'],
      [{ name: 'x', nameIdFormat: 'email' }, 'nameIdFormat'],
      [{ name: 'x', entityId: '' }, 'entityId'],
      [{ name: 'x', attributeMapping: { email: 42 } }, 'attributeMapping.email'],
    ] as const) {
      expectInvalid(await createSaml(body), path, JSON.stringify(body));
    }
    expect((await t.call('/api/applications?types=SAML&page=1')).headers.get('Total-Number')).toBe(before);
  });

  it('keeps entity IDs unique in a tenant (422 application.saml.entity_id_in_use)', async () => {
    const shared = entityId();
    expect((await createSaml({ name: 'first', entityId: shared })).status).toBe(201);
    const second = await createSaml({ name: 'second', entityId: shared });
    expect(second.status).toBe(422);
    expect(second.json.code).toBe('application.saml.entity_id_in_use');
    expect((await t.call('/api/applications?search=second&types=SAML')).json, 'rolled back').toEqual([]);
  });

  it("answers 404 for unknown ids and another tenant's applications, 422 for other types", async () => {
    const oidc = await t.call('/api/applications', { method: 'POST', body: { name: 'oidc', type: 'SPA' } });
    const foreign = await otherTenant(t).insert(applications, {
      id: 'foreign-saml',
      name: 'foreign',
      secret: 'x',
      type: 'SAML',
    });
    await otherTenant(t).insert(samlApplicationConfigs, { applicationId: foreign.id });
    const routes = [
      ['GET', undefined],
      ['PATCH', { name: 'mine' }],
      ['DELETE', undefined],
    ] as const;
    for (const id of ['does-not-exist', foreign.id]) {
      for (const [method, body] of routes) {
        const response = await t.call(`/api/saml-applications/${id}`, { method, body });
        expect(response.status, `${method} ${id}`).toBe(404);
        expect(response.json.code).toBe('entity.not_exists_with_id');
      }
    }
    for (const [method, body] of routes) {
      const response = await t.call(`/api/saml-applications/${oidc.json.id}`, { method, body });
      expect(response.status, `${method} of a SPA`).toBe(422);
      expect(response.json.code).toBe('application.saml.saml_application_only');
    }
    expect((await t.call(`/api/applications/${oidc.json.id}`)).json.name, 'left as it was').toBe('oidc');
  });

  it('requires a token with scope all', async () => {
    const created = await createSaml({ name: 'guarded', entityId: entityId() });
    const id = String(created.json.id);
    await expectGuarded(t, [
      { method: 'POST', path: '/api/saml-applications', body: { name: 'x' } },
      { method: 'GET', path: `/api/saml-applications/${id}` },
      { method: 'PATCH', path: `/api/saml-applications/${id}`, body: { name: 'x' } },
      { method: 'DELETE', path: `/api/saml-applications/${id}` },
    ]);
  });
});
