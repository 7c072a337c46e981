import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { isForbiddenAddress } from '../src/services/outbound.ts';
import { WebhookWorker } from '../src/services/webhooks-worker.ts';
import { createTestApp, type TestApp } from './support/app.ts';

/**
 * Webhook endpoints inside the operator's network (issue 23, item 2): refused in the cloud edition after DNS
 * resolution, allowed in OSS and through OUTBOUND_ALLOW_LIST, and a foreign answer is kept only as a short excerpt.
 */
let receiver: Server;
let port = 0;
let received = 0;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received += 1;
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.end(`secret-internal-answer:${'x'.repeat(5000)}`);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  port = (receiver.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

describe('which addresses are private', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::7f00:1',
    'ff02::1',
    'not-an-address',
  ])('%s is refused', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:5db8:d822', '64:ff9b::808:808'])(
    '%s is public',
    (address) => {
      expect(isForbiddenAddress(address)).toBe(false);
    },
  );

  it('is refused by default in cloud and allowed by default in OSS', () => {
    const base = { DATA_DIR: '.tmp/unused' };
    expect(loadConfig({ ...base, EDITION: 'cloud' }).outbound.denyPrivate).toBe(true);
    expect(loadConfig({ ...base, EDITION: 'oss' }).outbound.denyPrivate).toBe(false);
    expect(loadConfig({ ...base, EDITION: 'oss', OUTBOUND_PRIVATE_ADDRESSES: 'deny' }).outbound.denyPrivate).toBe(true);
    expect(() => loadConfig({ ...base, OUTBOUND_ALLOW_LIST: 'a, ,b' })).toThrow(/OUTBOUND_ALLOW_LIST/);
  });
});

describe('webhooks to private addresses when they are refused', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ OUTBOUND_PRIVATE_ADDRESSES: 'deny' });
  });
  afterAll(() => t.close());

  const hookTo = async (url: string) => {
    const created = await t.call('/api/hooks', {
      method: 'POST',
      body: { name: 'Internal', events: ['User.Created'], config: { url, retries: 0 } },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    return String(created.json.id);
  };

  it.each([
    ['a loopback address', () => `http://127.0.0.1:${port}/hook`],
    ['an IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${port}/hook`],
    ['a name that resolves to loopback', () => `http://localhost:${port}/hook`],
    ['the unspecified address', () => `http://0.0.0.0:${port}/hook`],
    ['the metadata service', () => 'http://169.254.169.254/latest/meta-data/'],
  ])('the test send to %s is refused before any byte is sent', async (_, url) => {
    const before = received;
    const id = await hookTo(url());
    const result = await t.call(`/api/hooks/${id}/test`, { method: 'POST' });
    expect(result.status).toBe(422);
    expect(result.json).toMatchObject({
      code: 'hook.send_test_payload_failed',
      data: { success: false, responseStatus: null, responseBody: null },
    });
    expect(result.json.data.error).toMatch(/private, loopback, link-local or reserved range/);
    expect(received, 'the receiver heard nothing').toBe(before);
  });

  it('a delivery by the worker is refused the same way, and the attempt says why', async () => {
    const before = received;
    const id = await hookTo(`http://localhost:${port}/worker`);
    await t.call('/api/users', { method: 'POST', body: { username: 'outbound_probe' } });
    await new WebhookWorker({
      db: t.db,
      backoffMs: () => 0,
      timeoutMs: 2000,
      outbound: t.config.outbound,
    }).drain();
    const logs = await t.call(`/api/hooks/${id}/recent-logs`);
    expect(logs.json).toHaveLength(1);
    expect(logs.json[0].response).toBeFalsy();
    expect(JSON.stringify(logs.json[0])).toMatch(/private, loopback, link-local or reserved range/);
    expect(received).toBe(before);
  });
});

describe('webhooks to an allowed internal receiver', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ OUTBOUND_PRIVATE_ADDRESSES: 'deny', OUTBOUND_ALLOW_LIST: '127.0.0.1/32' });
  });
  afterAll(() => t.close());

  it('is reached, and only a short excerpt of its answer is returned', async () => {
    const created = await t.call('/api/hooks', {
      method: 'POST',
      body: { name: 'Allowed', events: ['User.Created'], config: { url: `http://127.0.0.1:${port}/ok` } },
    });
    const result = await t.call(`/api/hooks/${created.json.id}/test`, {
      method: 'POST',
      headers: { Prefer: 'return=representation' },
    });
    expect(result.json).toMatchObject({ success: true, responseStatus: 200 });
    expect(result.json.responseBody).toMatch(/^secret-internal-answer:x+$/);
    expect(result.json.responseBody.length, 'a short excerpt').toBe(512);
  });
});
