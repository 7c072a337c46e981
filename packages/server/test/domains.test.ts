import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import * as x509 from '@peculiar/x509';
import dns2 from 'dns2';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { domains } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { checkDomain } from '../src/services/domains.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { auditEntries, expectGuarded, expectInvalid } from './support/scenarios.ts';

/**
 * Custom domains against a real DNS server (dns2 on 127.0.0.1) and a real HTTPS server with a self-signed
 * certificate, trusted through CUSTOM_DOMAIN_CA_FILE. Cloud edition, so two tenants have their own API.
 */

const TARGET = 'edge.gatehouse.test';
const DOMAIN = 'login.acme.example';
const api = (tenantId = DEFAULT_TENANT_ID) => `/m/${tenantId}/api/domains`;

type ZoneRecord = { type: 'A' | 'CNAME' | 'TXT'; value: string };
/** The zone the DNS server answers from; names absent are NXDOMAIN, names without the type are NODATA. */
const zone = new Map<string, ZoneRecord[]>();
const failing = new Set<string>();
const queries: { name: string; type: number }[] = [];
const { Packet } = dns2;

/** A record as dns2 encodes it (its typings also demand the encoder's own `toBuffer`). */
type Answer = Omit<dns2.Packet.Resource, 'toBuffer'>;

function answer(name: string, type: number, answers: Answer[]): boolean {
  const records = zone.get(name);
  if (!records) return false;
  for (const record of records) {
    const base = { name, class: Packet.CLASS.IN, ttl: 1 };
    if (record.type === 'CNAME' && type !== Packet.TYPE.TXT) {
      answers.push({ ...base, type: Packet.TYPE.CNAME, domain: record.value });
      // As a recursive resolver does: follow the CNAME for address queries.
      if (type !== Packet.TYPE.CNAME) answer(record.value.toLowerCase().replace(/\.$/, ''), type, answers);
    } else if (record.type === 'A' && type === Packet.TYPE.A) {
      answers.push({ ...base, type: Packet.TYPE.A, address: record.value });
    } else if (record.type === 'TXT' && type === Packet.TYPE.TXT) {
      answers.push({ ...base, type: Packet.TYPE.TXT, data: record.value });
    }
  }
  return true;
}

const dnsServer = dns2.createServer({
  udp: true,
  handle: (request, send) => {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    const name = String(question?.name).toLowerCase();
    queries.push({ name, type: Number(question?.type) });
    if (failing.has(name)) response.header.rcode = Packet.RCODE.SERVFAIL;
    else {
      const answers: Answer[] = [];
      if (!answer(name, Number(question?.type), answers)) response.header.rcode = Packet.RCODE.NXDOMAIN;
      response.answers.push(...(answers as dns2.Packet.Resource[]));
    }
    send(response);
  },
});

/** A self-signed certificate for `names` (ECDSA P-256), as PEM. */
async function selfSigned(names: string[]) {
  x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${names[0]}`,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 86_400_000),
    signingAlgorithm: algorithm,
    keys,
    extensions: [new x509.SubjectAlternativeNameExtension(names.map((value) => ({ type: 'dns' as const, value })))],
  });
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  const key = `-----BEGIN PRIVATE KEY-----\n${der.match(/.{1,64}/g)?.join('\n')}\n-----END PRIVATE KEY-----\n`;
  return { cert: certificate.toString('pem'), key };
}

let t: TestApp;
let https: Server;
let httpsPort: number;
let dnsPort: number;
let certificate: string;
const httpsRequests: string[] = [];

beforeAll(async () => {
  const addresses = await dnsServer.listen({ udp: { port: 0, address: '127.0.0.1' } });
  dnsPort = (addresses.udp as AddressInfo).port;
  const tls = await selfSigned([DOMAIN]);
  certificate = tls.cert;
  https = createHttpsServer(tls, (request, response) => {
    httpsRequests.push(`${request.headers.host} ${request.url}`);
    response.writeHead(request.url === '/api/status' ? 204 : 404).end();
  });
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  httpsPort = (https.address() as AddressInfo).port;
  const caFile = join(mkdtempSync(join(tmpdir(), 'gatehouse-domains-')), 'ca.pem');
  writeFileSync(caFile, certificate);
  t = await createTestApp({
    EDITION: 'cloud',
    PUBLIC_URL: 'https://auth.gatehouse.test',
    CUSTOM_DOMAIN_TARGET: TARGET,
    DNS_SERVERS: `127.0.0.1:${dnsPort}`,
    CUSTOM_DOMAIN_HTTPS_PORT: String(httpsPort),
    CUSTOM_DOMAIN_CA_FILE: caFile,
  });
});

afterAll(async () => {
  await t?.close();
  https?.close();
  await dnsServer.close();
});

beforeEach(() => {
  zone.clear();
  failing.clear();
  queries.length = 0;
});

const tenantDb = (tenantId = DEFAULT_TENANT_ID) => new TenantDb(t.db, tenantId);
const callAs = async (tenantId: string, path: string, init: { method?: string; body?: unknown } = {}) =>
  t.call(path, { ...init, headers: { Authorization: `Bearer ${await t.token({ tenantId })}` } });

/** Makes the next read check again, as if 10 s had passed. */
const expire = (id: string, tenantId = DEFAULT_TENANT_ID) =>
  tenantDb(tenantId).update(domains, eq(domains.id, id), { checkedAt: new Date(Date.now() - 11_000) });

async function removeAll(): Promise<void> {
  for (const tenantId of [DEFAULT_TENANT_ID, ADMIN_TENANT_ID]) await tenantDb(tenantId).delete(domains, sql`true`);
}

describe('custom domains: creation and validation', () => {
  beforeEach(removeAll);

  it('creates a PendingVerification domain with the records to publish, audited', async () => {
    const created = await t.call(api(), { method: 'POST', body: { domain: '  Login.ACME.example ' } });
    expect(created.status).toBe(201);
    const token = created.json.dnsRecords[1].value as string;
    expect(token).toMatch(/^[\w-]{32}$/);
    expect(created.json).toEqual({
      id: expect.any(String),
      domain: DOMAIN,
      status: 'PendingVerification',
      errorMessage: null,
      dnsRecords: [
        { name: DOMAIN, type: 'CNAME', value: TARGET },
        { name: `_gatehouse-challenge.${DOMAIN}`, type: 'TXT', value: token },
      ],
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
    });
    const [entry] = await auditEntries(t, created.json.id);
    expect(entry?.key).toBe('Admin.Domain.Created');
    expect(entry?.payload.after).toEqual({ id: created.json.id, domain: DOMAIN, status: 'PendingVerification' });
    expect(JSON.stringify(entry?.payload), 'the token stays out of the audit log').not.toContain(token);

    // Nothing published yet: NXDOMAIN everywhere is still PendingVerification, without a message.
    const list = await t.call(api());
    expect(list.status).toBe(200);
    expect(list.json).toEqual([{ ...created.json, updatedAt: expect.any(Number) }]);
    expect(queries.length, 'the first read checks').toBeGreaterThan(0);
  });

  it('refuses invalid names with 400 and normalises case', async () => {
    const bad = [
      'localhost',
      'a..b',
      `${'x'.repeat(64)}.com`,
      'https://acme.example',
      'acme.example/path',
      '-acme.example',
      'acme_corp.example',
      '',
      'auth.gatehouse.test',
      'id.auth.gatehouse.test',
      TARGET,
      '10.0.0.1',
      'app.localhost',
    ];
    for (const domain of bad)
      expectInvalid(await t.call(api(), { method: 'POST', body: { domain } }), 'domain', domain);
    expectInvalid(await t.call(api(), { method: 'POST', body: {} }), 'domain');
    expect(await tenantDb().count(domains)).toBe(0);
  });

  it('allows one domain per tenant (422 domain.limit_reached), even under concurrent creates', async () => {
    const results = await Promise.all(
      ['a.acme.example', 'b.acme.example', 'c.acme.example'].map((domain) =>
        t.call(api(), { method: 'POST', body: { domain } }),
      ),
    );
    expect(results.map((result) => result.status).sort()).toEqual([201, 422, 422]);
    expect(results.find((result) => result.status === 422)?.json.code).toBe('domain.limit_reached');
    expect(await tenantDb().count(domains)).toBe(1);
  });

  it('a domain is unique across tenants (422 domain.domain_in_use) and tenants do not see each other', async () => {
    const mine = await t.call(api(), { method: 'POST', body: { domain: DOMAIN } });
    expect(mine.status).toBe(201);
    const theirs = await callAs(ADMIN_TENANT_ID, api(ADMIN_TENANT_ID), { method: 'POST', body: { domain: DOMAIN } });
    expect(theirs.status).toBe(422);
    expect(theirs.json.code).toBe('domain.domain_in_use');
    expect((await callAs(ADMIN_TENANT_ID, api(ADMIN_TENANT_ID))).json).toEqual([]);
    expect((await callAs(ADMIN_TENANT_ID, `${api(ADMIN_TENANT_ID)}/${mine.json.id}`)).status).toBe(404);
    const foreignDelete = await callAs(ADMIN_TENANT_ID, `${api(ADMIN_TENANT_ID)}/${mine.json.id}`, {
      method: 'DELETE',
    });
    expect(foreignDelete.status).toBe(404);
    expect((await t.call(`${api()}/${mine.json.id}`)).status, 'still there').toBe(200);
  });

  it('deletes (204, audited), then 404', async () => {
    const created = await t.call(api(), { method: 'POST', body: { domain: DOMAIN } });
    const path = `${api()}/${created.json.id}`;
    expect((await t.call(path, { method: 'DELETE' })).status).toBe(204);
    expect((await t.call(path)).status).toBe(404);
    expect((await t.call(path, { method: 'DELETE' })).json.code).toBe('entity.not_exists_with_id');
    expect((await auditEntries(t, created.json.id)).map((entry) => entry.key)).toEqual([
      'Admin.Domain.Deleted',
      'Admin.Domain.Created',
    ]);
    expect((await t.call(api(), { method: 'POST', body: { domain: DOMAIN } })).status, 'the slot is free').toBe(201);
  });

  it('guards every route with 401 and 403', async () => {
    const id = (await t.call(api(), { method: 'POST', body: { domain: DOMAIN } })).json.id;
    await expectGuarded(t, [
      { method: 'GET', path: api() },
      { method: 'POST', path: api(), body: { domain: 'other.acme.example' } },
      { method: 'GET', path: `${api()}/${id}` },
      { method: 'DELETE', path: `${api()}/${id}` },
    ]);
    expect((await t.call(`${api()}/${id}`)).status).toBe(200);
  });
});

describe('custom domains: the status follows DNS and HTTPS', () => {
  beforeEach(removeAll);

  it('walks PendingVerification → Error → PendingSsl → Active', async () => {
    const created = (await t.call(api(), { method: 'POST', body: { domain: DOMAIN } })).json;
    const token = created.dnsRecords[1].value as string;
    const path = `${api()}/${created.id}`;
    const read = async () => {
      await expire(created.id);
      const response = await t.call(path);
      expect(response.status).toBe(200);
      return response.json as { status: string; errorMessage: string | null };
    };

    // The TXT record only: ownership is proven, routing is not there yet.
    zone.set(`_gatehouse-challenge.${DOMAIN}`, [{ type: 'TXT', value: token }]);
    expect(await read()).toMatchObject({
      status: 'PendingVerification',
      errorMessage: `The CNAME record of ${DOMAIN} pointing to ${TARGET} was not found.`,
    });

    // A CNAME to somewhere else is an error naming both hosts.
    zone.set(DOMAIN, [{ type: 'CNAME', value: 'old-host.example.net' }]);
    expect(await read()).toEqual(
      expect.objectContaining({
        status: 'Error',
        errorMessage: `The CNAME record of ${DOMAIN} points to old-host.example.net; expected ${TARGET}.`,
      }),
    );

    // Both records right, but nothing listens where the target points: PendingSsl with the probe's error.
    zone.set(DOMAIN, [{ type: 'CNAME', value: `${TARGET.toUpperCase()}.` }]);
    zone.set(TARGET, [{ type: 'A', value: '127.0.0.2' }]);
    const pendingSsl = await read();
    expect(pendingSsl.status).toBe('PendingSsl');
    expect(pendingSsl.errorMessage).toMatch(
      new RegExp(`^HTTPS check of https://${DOMAIN}:${httpsPort}/api/status failed: ECONNREFUSED`),
    );

    // The target now reaches the HTTPS server, whose certificate the configured CA file trusts.
    zone.set(TARGET, [{ type: 'A', value: '127.0.0.1' }]);
    httpsRequests.length = 0;
    const active = await read();
    expect(active).toMatchObject({ status: 'Active', errorMessage: null });
    expect(httpsRequests).toEqual([`${DOMAIN}:${httpsPort} /api/status`]);

    // Active is final: no more DNS queries, even when the records go away.
    zone.clear();
    queries.length = 0;
    expect((await read()).status).toBe('Active');
    expect((await t.call(api())).json[0].status).toBe('Active');
    expect(queries).toEqual([]);
  });

  it('checks at most every 10 s, once for concurrent reads', async () => {
    const created = (await t.call(api(), { method: 'POST', body: { domain: DOMAIN } })).json;
    const path = `${api()}/${created.id}`;
    expect((await t.call(path)).json.status).toBe('PendingVerification');
    zone.set(DOMAIN, [{ type: 'CNAME', value: 'elsewhere.example.net' }]);
    queries.length = 0;
    expect((await t.call(path)).json.status, 'checked less than 10 s ago').toBe('PendingVerification');
    expect(queries).toEqual([]);

    await expire(created.id);
    const reads = await Promise.all([t.call(path), t.call(path), t.call(api())]);
    expect(reads.map((read) => read.status)).toEqual([200, 200, 200]);
    const txtQueries = queries.filter((query) => query.type === Packet.TYPE.TXT);
    expect(txtQueries, 'one check for three concurrent reads').toHaveLength(1);
    expect((await t.call(path)).json.status).toBe('Error');
  });

  it('a TXT record with another value is named in the message', async () => {
    const created = (await t.call(api(), { method: 'POST', body: { domain: DOMAIN } })).json;
    zone.set(`_gatehouse-challenge.${DOMAIN}`, [{ type: 'TXT', value: 'stale-token' }]);
    const read = await t.call(`${api()}/${created.id}`);
    expect(read.json.status).toBe('PendingVerification');
    expect(read.json.errorMessage).toBe(
      `The TXT record _gatehouse-challenge.${DOMAIN} holds "stale-token"; expected "${created.dnsRecords[1].value}".`,
    );
  });

  it('A records equal to the target count as routed (flattened CNAME); other addresses are an Error', async () => {
    const created = (await t.call(api(), { method: 'POST', body: { domain: DOMAIN } })).json;
    zone.set(`_gatehouse-challenge.${DOMAIN}`, [{ type: 'TXT', value: created.dnsRecords[1].value }]);
    zone.set(TARGET, [{ type: 'A', value: '127.0.0.1' }]);
    zone.set(DOMAIN, [{ type: 'A', value: '192.0.2.7' }]);
    const path = `${api()}/${created.id}`;
    expect((await t.call(path)).json).toMatchObject({
      status: 'Error',
      errorMessage: `${DOMAIN} has no CNAME record and resolves to 192.0.2.7; expected a CNAME record pointing to ${TARGET}.`,
    });
    zone.set(DOMAIN, [{ type: 'A', value: '127.0.0.1' }]);
    await expire(created.id);
    expect((await t.call(path)).json).toMatchObject({ status: 'Active', errorMessage: null });
  });

  it('a resolver failure keeps the status, says so, and never fails the request', async () => {
    const created = (await t.call(api(), { method: 'POST', body: { domain: DOMAIN } })).json;
    zone.set(DOMAIN, [{ type: 'CNAME', value: 'elsewhere.example.net' }]);
    const path = `${api()}/${created.id}`;
    expect((await t.call(path)).json.status).toBe('Error');
    failing.add(DOMAIN);
    failing.add(`_gatehouse-challenge.${DOMAIN}`);
    await expire(created.id);
    const read = await t.call(path);
    expect(read.status).toBe(200);
    expect(read.json.status).toBe('Error');
    expect(read.json.errorMessage).toMatch(/^DNS lookup failed \(.+: ESERVFAIL\); the status is unchanged/);
  });

  it('a certificate for another name leaves the domain PendingSsl', async () => {
    const other = 'other.acme.example';
    const created = (await callAs(ADMIN_TENANT_ID, api(ADMIN_TENANT_ID), { method: 'POST', body: { domain: other } }))
      .json;
    zone.set(`_gatehouse-challenge.${other}`, [{ type: 'TXT', value: created.dnsRecords[1].value }]);
    zone.set(other, [{ type: 'CNAME', value: TARGET }]);
    zone.set(TARGET, [{ type: 'A', value: '127.0.0.1' }]);
    const read = await callAs(ADMIN_TENANT_ID, `${api(ADMIN_TENANT_ID)}/${created.id}`);
    expect(read.json.status).toBe('PendingSsl');
    expect(read.json.errorMessage).toContain('ERR_TLS_CERT_ALTNAME_INVALID');
  });

  it('a target that is an IP address is matched by A records (PUBLIC_URL on an address)', async () => {
    zone.set(`_gatehouse-challenge.${DOMAIN}`, [{ type: 'TXT', value: 'token' }]);
    zone.set(DOMAIN, [{ type: 'A', value: '127.0.0.1' }]);
    const row = { domain: DOMAIN, verificationToken: 'token', status: 'PendingVerification' };
    const config = { ...t.config.customDomains, target: '127.0.0.1' };
    expect(await checkDomain(row, config)).toEqual({ status: 'Active', errorMessage: null });
    zone.set(DOMAIN, [{ type: 'A', value: '192.0.2.1' }]);
    expect((await checkDomain(row, config)).status).toBe('Error');
  });

  it('without the CA file, a self-signed certificate is not valid', async () => {
    zone.set(`_gatehouse-challenge.${DOMAIN}`, [{ type: 'TXT', value: 'token' }]);
    zone.set(DOMAIN, [{ type: 'CNAME', value: TARGET }]);
    zone.set(TARGET, [{ type: 'A', value: '127.0.0.1' }]);
    const row = { domain: DOMAIN, verificationToken: 'token', status: 'PendingSsl' };
    const config = { ...t.config.customDomains };
    expect(await checkDomain(row, config)).toEqual({ status: 'Active', errorMessage: null });
    const result = await checkDomain(row, { ...config, extraCaCertificates: undefined });
    expect(result.status).toBe('PendingSsl');
    expect(result.errorMessage).toMatch(/SELF_SIGNED|self-signed/i);
  });
});

describe('custom domain configuration', () => {
  it('reads the target, DNS servers, HTTPS port and CA file, with defaults', () => {
    const defaults = loadConfig({ PUBLIC_URL: 'https://Auth.Example.com/' }).customDomains;
    expect(defaults).toEqual({
      target: 'auth.example.com',
      dnsServers: undefined,
      httpsPort: 443,
      extraCaCertificates: undefined,
    });
    const custom = loadConfig({
      CUSTOM_DOMAIN_TARGET: 'Edge.Example.net.',
      DNS_SERVERS: '1.1.1.1, 127.0.0.1:5353,[::1]:53,2606:4700::1111',
    }).customDomains;
    expect(custom.target).toBe('edge.example.net');
    expect(custom.dnsServers).toEqual(['1.1.1.1', '127.0.0.1:5353', '[::1]:53', '2606:4700::1111']);
    expect(() => loadConfig({ DNS_SERVERS: 'dns.google' })).toThrow(/DNS_SERVERS must be comma-separated/);
    expect(() => loadConfig({ DNS_SERVERS: '1.1.1.1:99999' })).toThrow(/DNS_SERVERS/);
    expect(() => loadConfig({ CUSTOM_DOMAIN_HTTPS_PORT: '0' })).toThrow(/CUSTOM_DOMAIN_HTTPS_PORT/);
    expect(() => loadConfig({ CUSTOM_DOMAIN_TARGET: 'https://edge' })).toThrow(/CUSTOM_DOMAIN_TARGET/);
    expect(() => loadConfig({ CUSTOM_DOMAIN_CA_FILE: '/nonexistent/ca.pem' })).toThrow(
      /CUSTOM_DOMAIN_CA_FILE cannot be read \(ENOENT/,
    );
  });
});

describe('custom domains in the OSS edition', () => {
  it('serves the same API at /api/domains for the one tenant', async () => {
    const oss = await createTestApp({ DNS_SERVERS: `127.0.0.1:${dnsPort}`, CUSTOM_DOMAIN_TARGET: TARGET });
    try {
      const created = await oss.call('/api/domains', { method: 'POST', body: { domain: DOMAIN } });
      expect(created.status).toBe(201);
      expect(created.json.dnsRecords[0]).toEqual({ name: DOMAIN, type: 'CNAME', value: TARGET });
      const list = await oss.call('/api/domains');
      expect(list.json.map((domain: { id: string }) => domain.id)).toEqual([created.json.id]);
      expectInvalid(await oss.call('/api/domains', { method: 'POST', body: { domain: 'id.localhost' } }), 'domain');
    } finally {
      await oss.close();
    }
  });
});
