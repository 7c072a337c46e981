import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ConnectorFactory, type ConnectorFormItem, MASKED_SECRET } from '@gatehouse/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';

/**
 * Issue 39, item 3: a secret the console sends back masked keeps the stored value, but never travels to a new
 * destination. Every connector factory with a secret × each field that decides where it sends: changing that field
 * while keeping the secret by its mask is refused (400, the secret's field named, nothing saved, nothing sent);
 * typing the secret again, or keeping the destination, is accepted. OSS edition: private addresses are allowed, so the
 * attacker's listener on 127.0.0.1 would be reached if the binding did not refuse.
 */
let listener: Server;
let stolen = 0;
let port = 0;

beforeAll(async () => {
  listener = createServer((request, response) => {
    stolen += 1;
    request.resume();
    response.end('{}');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

const isDestination = (item: ConnectorFormItem) => item.type === 'Url' || item.key === 'host' || item.key === 'port';

/** A valid stored value of a form item (secrets recognisable, destinations somewhere else than the attacker). */
function storedValue(item: ConnectorFormItem): unknown {
  if (item.isConfidential) return `stored-${item.key}-value`;
  if (item.key === 'host') return 'smtp.stored.example';
  if (item.key === 'port') return 2525;
  switch (item.type) {
    case 'Url':
      return `https://${item.key.toLowerCase()}.stored.example/path`;
    case 'Number':
      return 1;
    case 'Switch':
      return false;
    case 'Select':
      return item.selectItems?.[0]?.value;
    case 'Json':
      return {};
    case 'Templates':
      return [];
    default:
      return item.key.toLowerCase().includes('email') ? 'auth@shop.test' : `stored-${item.key}`;
  }
}

/** Where the attacker wants the secret to go. */
function attackerValue(item: ConnectorFormItem): unknown {
  if (item.key === 'host') return '127.0.0.1';
  if (item.key === 'port') return port;
  return `http://127.0.0.1:${port}/steal`;
}

describe('masked connector secrets stay with their destination', () => {
  let t: TestApp;
  let factories: ConnectorFactory[];
  beforeAll(async () => {
    t = await createTestApp();
    factories = (await t.call('/api/connector-factories')).json as ConnectorFactory[];
  });
  afterAll(() => t.close());

  it('covers every factory whose secrets can be pointed elsewhere (the others send to fixed hosts)', () => {
    const movable = factories
      .filter((factory) => factory.formItems.some((item) => item.isConfidential))
      .filter((factory) => factory.formItems.some(isDestination))
      .map((factory) => factory.id);
    expect(movable).toEqual(expect.arrayContaining(['smtp', 'http-email', 'http-sms', 'sendgrid-email', 'twilio-sms']));
  });

  it('changing where a connector sends, with a secret kept by its mask, is refused; typed again, accepted', async () => {
    let cells = 0;
    for (const factory of factories.filter((f) => f.formItems.some((item) => item.isConfidential))) {
      const config = Object.fromEntries(
        factory.formItems
          .map((item) => [item.key, storedValue(item)] as const)
          .filter(([, value]) => value !== undefined),
      );
      const created = await t.call('/api/connectors', { method: 'POST', body: { connectorId: factory.id, config } });
      expect(created.status, `${factory.id}: ${created.text}`).toBe(200);
      const id = String(created.json.id);
      const answered = created.json.config as Record<string, unknown>;
      const secrets = factory.formItems.filter((item) => item.isConfidential).map((item) => item.key);
      for (const key of secrets) expect(answered[key], `${factory.id}.${key} is masked`).toBe(MASKED_SECRET);

      for (const destination of factory.formItems.filter(isDestination)) {
        cells += 1;
        const moved = { ...answered, [destination.key]: attackerValue(destination) };
        const refused = await t.call(`/api/connectors/${id}`, { method: 'PATCH', body: { config: moved } });
        expect(refused.status, `${factory.id} ${destination.key}: ${refused.text}`).toBe(400);
        expect(refused.json.code).toBe('connector.invalid_config_guard');
        expect((refused.json.data as { path: string; code: string }[]).map((field) => field.path).sort()).toEqual(
          [...secrets].sort(),
        );
        const kept = await t.call(`/api/connectors/${id}`);
        expect(kept.json.config[destination.key], 'nothing saved').toEqual(config[destination.key]);

        if (factory.type !== 'Social') {
          const before = stolen;
          const tested = await t.call(`/api/connectors/${factory.id}/test`, {
            method: 'POST',
            body: { email: 'probe@shop.test', phone: '+15555550100', config: moved },
          });
          expect(tested.status, `${factory.id} test send: ${tested.text}`).toBe(400);
          expect(stolen, `${factory.id}: the new destination heard nothing`).toBe(before);
        }
      }

      // Typed again, the secret goes where the admin says; kept by its mask with the destination kept, it stays.
      const [first] = factory.formItems.filter(isDestination);
      if (first) {
        const elsewhere =
          first.key === 'host' ? 'smtp.new.example' : first.key === 'port' ? 587 : 'https://new.example/p';
        const renamed = {
          ...answered,
          [first.key]: elsewhere,
          ...Object.fromEntries(secrets.map((key) => [key, `retyped-${key}`])),
        };
        const saved = await t.call(`/api/connectors/${id}`, { method: 'PATCH', body: { config: renamed } });
        expect(saved.status, `${factory.id} retyped: ${saved.text}`).toBe(200);
        const unchanged = await t.call(`/api/connectors/${id}`, {
          method: 'PATCH',
          body: { config: saved.json.config },
        });
        expect(unchanged.status, `${factory.id} kept: ${unchanged.text}`).toBe(200);
      }
      await t.call(`/api/connectors/${id}`, { method: 'DELETE' });
    }
    expect(cells).toBeGreaterThan(10);
  });
});

describe('a masked SSO client secret stays with its issuer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('a new issuer with the secret kept by its mask is refused; other changes keep it', async () => {
    const created = await t.call('/api/sso-connectors', {
      method: 'POST',
      body: {
        providerName: 'OIDC',
        connectorName: 'Draft IdP',
        config: { clientId: 'gh', clientSecret: 'idp-secret' },
      },
    });
    expect(created.status, created.text).toBe(200);
    const id = String(created.json.id);
    expect(created.json.config.clientSecret).toBe(MASKED_SECRET);

    const before = stolen;
    const refused = await t.call(`/api/sso-connectors/${id}`, {
      method: 'PATCH',
      body: { config: { issuer: `http://127.0.0.1:${port}/idp`, clientSecret: MASKED_SECRET } },
    });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json).toMatchObject({
      code: 'guard.invalid_input',
      data: [{ path: 'config.clientSecret', code: 'secret_required' }],
    });
    expect(stolen, 'the new issuer heard nothing').toBe(before);

    const renamed = await t.call(`/api/sso-connectors/${id}`, {
      method: 'PATCH',
      body: { config: { clientId: 'gh-2', clientSecret: MASKED_SECRET } },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json.config).toMatchObject({ clientId: 'gh-2', clientSecret: MASKED_SECRET });
  });
});

describe('a masked captcha secret key stays with its verify URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const put = (config: Record<string, unknown>) =>
    t.call('/api/captcha-provider', {
      method: 'PUT',
      body: { config: { type: 'Turnstile', siteKey: 'site-key', ...config } },
    });

  it('a new verify URL with the key kept by its mask is refused; the key typed again, or the same URL, is accepted', async () => {
    const stored = 'https://verify.stored.example/siteverify';
    expect((await put({ secretKey: 'captcha-secret', verifyUrl: stored })).status).toBe(200);

    for (const verifyUrl of [`http://127.0.0.1:${port}/steal`, undefined]) {
      const refused = await put({ secretKey: MASKED_SECRET, ...(verifyUrl ? { verifyUrl } : {}) });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.json).toMatchObject({
        code: 'guard.invalid_input',
        data: [{ path: 'config.secretKey', code: 'secret_required' }],
      });
    }
    const kept = await t.call('/api/captcha-provider');
    expect(kept.json.config, 'nothing was saved').toMatchObject({ verifyUrl: stored, secretKey: MASKED_SECRET });

    const sameUrl = await put({ secretKey: MASKED_SECRET, verifyUrl: stored, siteKey: 'site-key-2' });
    expect(sameUrl.status, sameUrl.text).toBe(200);
    const typedAgain = await put({ secretKey: 'captcha-secret-2', verifyUrl: `http://127.0.0.1:${port}/new` });
    expect(typedAgain.status, typedAgain.text).toBe(200);
  });
});
