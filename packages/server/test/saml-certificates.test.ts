import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applications, samlApplicationCertificates, samlApplicationConfigs } from '../src/db/tables.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { auditEntries, expectGuarded, expectInvalid, otherTenant } from './support/scenarios.ts';

/**
 * SAML applications' signing certificates (reference `/saml-applications/{id}/secrets`) and the identity provider
 * metadata a service provider imports (`/saml-applications/{id}/metadata`, public).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let counter = 0;
async function samlApp(): Promise<string> {
  const created = await t.call('/api/saml-applications', {
    method: 'POST',
    body: {
      name: `SP ${++counter}`,
      entityId: `https://sp-${counter}.example.com/metadata`,
      nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
    },
  });
  expect(created.status).toBe(201);
  return String(created.json.id);
}

type Certificate = { id: string; certificate: string; active: boolean; expiresAt: number; createdAt: number };
const list = async (id: string): Promise<Certificate[]> => (await t.call(`/api/saml-applications/${id}/secrets`)).json;

describe('SAML signing certificates', () => {
  it('a new SAML application has one active, self-signed certificate, and no private key is ever shown', async () => {
    const id = await samlApp();
    const response = await t.call(`/api/saml-applications/${id}/secrets`);
    expect(response.status).toBe(200);
    expect(response.json).toHaveLength(1);
    const [first] = response.json as Certificate[];
    expect(first?.active).toBe(true);
    const x509 = new X509Certificate(first?.certificate ?? '');
    expect(x509.issuer, 'self-signed: issued by itself').toBe(x509.subject);
    expect(x509.verify(x509.publicKey), 'and signed with its own key').toBe(true);
    expect(x509.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(response.json[0].fingerprints.sha256.formatted).toBe(x509.fingerprint256);
    const years = (new Date(x509.validTo).getTime() - new Date(x509.validFrom).getTime()) / (365.25 * 86_400_000);
    expect(Math.round(years), 'three years by default').toBe(3);
    expect(response.text).not.toMatch(/PRIVATE KEY/);
  });

  it('creates inactive certificates with the asked lifespan, activates one at a time, deletes inactive ones', async () => {
    const id = await samlApp();
    const [original] = await list(id);
    const created = await t.call(`/api/saml-applications/${id}/secrets`, {
      method: 'POST',
      body: { lifeSpanInYears: 5 },
    });
    expect(created.status).toBe(201);
    expect(created.json.active, 'the application already has an active one').toBe(false);
    const years = (created.json.expiresAt - created.json.createdAt) / (365.25 * 86_400_000);
    expect(Math.round(years)).toBe(5);
    expect(created.text).not.toMatch(/PRIVATE KEY/);

    const activated = await t.call(`/api/saml-applications/${id}/secrets/${created.json.id}`, {
      method: 'PATCH',
      body: { active: true },
    });
    expect(activated.status).toBe(200);
    expect(activated.json.active).toBe(true);
    const after = await list(id);
    expect(
      after.filter((cert) => cert.active).map((cert) => cert.id),
      'exactly one active',
    ).toEqual([created.json.id]);

    const refused = await t.call(`/api/saml-applications/${id}/secrets/${created.json.id}`, { method: 'DELETE' });
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe('application.saml.can_not_delete_active_secret');
    expect(await list(id)).toHaveLength(2);

    const deleted = await t.call(`/api/saml-applications/${id}/secrets/${original?.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect((await list(id)).map((cert) => cert.id)).toEqual([created.json.id]);

    const audit = await auditEntries(t, id);
    expect(audit.map((entry) => entry.key)).toContain('Admin.Application.Updated');
    expect(JSON.stringify(audit), 'no key material in the audit log').not.toMatch(/PRIVATE KEY|BEGIN CERTIFICATE/);
  });

  it('rejects bad input with 400 and saves nothing', async () => {
    const id = await samlApp();
    for (const body of [{ lifeSpanInYears: 0 }, { lifeSpanInYears: 1001 }, { lifeSpanInYears: 1.5 }]) {
      const response = await t.call(`/api/saml-applications/${id}/secrets`, { method: 'POST', body });
      expectInvalid(response, undefined, JSON.stringify(body));
    }
    const [only] = await list(id);
    for (const body of [{ active: false }, {}, { active: 'yes' }]) {
      const response = await t.call(`/api/saml-applications/${id}/secrets/${only?.id}`, { method: 'PATCH', body });
      expectInvalid(response, undefined, JSON.stringify(body));
    }
    expect(await list(id)).toHaveLength(1);
  });

  it("answers 404 for unknown certificates and another tenant's, 422 for non-SAML applications", async () => {
    const id = await samlApp();
    const oidc = await t.call('/api/applications', { method: 'POST', body: { name: 'oidc', type: 'Traditional' } });
    const foreign = await otherTenant(t).insert(applications, {
      id: 'foreign-sp',
      name: 'f',
      secret: 'x',
      type: 'SAML',
    });
    await otherTenant(t).insert(samlApplicationConfigs, { applicationId: foreign.id });
    for (const appId of ['does-not-exist', String(oidc.json.id), foreign.id]) {
      const response = await t.call(`/api/saml-applications/${appId}/secrets`);
      const otherType = appId === oidc.json.id;
      expect(response.status, appId).toBe(otherType ? 422 : 404);
      expect(response.json.code).toBe(
        otherType ? 'application.saml.saml_application_only' : 'entity.not_exists_with_id',
      );
      // The anonymous metadata tells a stranger nothing about other applications.
      expect((await t.app.request(`/api/saml-applications/${appId}/metadata`)).status, `metadata ${appId}`).toBe(404);
    }
    for (const [method, body] of [
      ['PATCH', { active: true }],
      ['DELETE', undefined],
    ] as const) {
      const response = await t.call(`/api/saml-applications/${id}/secrets/unknown-cert`, { method, body });
      expect(response.status, method).toBe(404);
      expect(response.json.code).toBe('entity.not_exists_with_id');
    }
  });

  it('requires a token with scope all (except the public metadata)', async () => {
    const id = await samlApp();
    const [cert] = await list(id);
    await expectGuarded(t, [
      { method: 'GET', path: `/api/saml-applications/${id}/secrets` },
      { method: 'POST', path: `/api/saml-applications/${id}/secrets`, body: {} },
      { method: 'PATCH', path: `/api/saml-applications/${id}/secrets/${cert?.id}`, body: { active: true } },
      { method: 'DELETE', path: `/api/saml-applications/${id}/secrets/${cert?.id}` },
    ]);
  });
});

describe('identity provider metadata', () => {
  it('is public XML naming the identity provider, its endpoints, the NameID format and the active certificate', async () => {
    const id = await samlApp();
    const response = await t.app.request(`/api/saml-applications/${id}/metadata`);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toContain('application/samlmetadata+xml');
    const xml = await response.text();
    const entityId = `${t.config.publicUrl}/saml/default/${id}`;
    expect(xml).toContain(`entityID="${entityId}"`);
    expect(xml).toContain('<md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:persistent</md:NameIDFormat>');
    expect(xml).toContain(`Location="${entityId}/authn"`);
    const [active] = (await list(id)).filter((cert) => cert.active);
    const body = /<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/.exec(xml)?.[1] ?? '';
    const fromXml = new X509Certificate(Buffer.from(body, 'base64'));
    expect(fromXml.fingerprint256).toBe(new X509Certificate(active?.certificate ?? '').fingerprint256);

    // Rotating: the metadata follows the active certificate.
    const next = await t.call(`/api/saml-applications/${id}/secrets`, { method: 'POST', body: {} });
    await t.call(`/api/saml-applications/${id}/secrets/${next.json.id}`, { method: 'PATCH', body: { active: true } });
    const rotated = await (await t.app.request(`/api/saml-applications/${id}/metadata`)).text();
    const rotatedBody = /<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/.exec(rotated)?.[1] ?? '';
    expect(new X509Certificate(Buffer.from(rotatedBody, 'base64')).fingerprint256).toBe(
      new X509Certificate(next.json.certificate).fingerprint256,
    );
  });

  it('is 404 while the application has no active certificate', async () => {
    const id = await samlApp();
    await t.db.delete(samlApplicationCertificates);
    expect((await t.app.request(`/api/saml-applications/${id}/metadata`)).status).toBe(404);
  });
});
