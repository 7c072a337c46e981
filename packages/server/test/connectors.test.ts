import { DEFAULT_TENANT_ID, MASKED_SECRET } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { logs } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { messageFor } from '../src/services/connectors/messages.ts';
import { startHttpReceiver } from './support/http-receiver.ts';
import { bootstrapManagementToken, CookieJar, startTestHttpServer } from './support/http-server.ts';
import { oidcClient } from './support/oidc-flow.ts';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';

/**
 * Email and SMS connectors (issue 21): the API of the reference, real SMTP delivery to a local sink, the HTTP APIs
 * against a local receiver that checks each request's shape, provider refusals mapped to spec §8 codes, secrets masked,
 * one sender per type, and the product's own codes going through the tenant's connector. This server has no SMTP_URL:
 * every email it sends goes through a connector.
 */

let sink: SmtpSink;
let receiver: Awaited<ReturnType<typeof startHttpReceiver>>;
let server: Awaited<ReturnType<typeof startTestHttpServer>>;
let token: string;

type Json = Record<string, unknown>;
async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.base}/api${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Json };
}

beforeAll(async () => {
  sink = await startSmtpSink();
  receiver = await startHttpReceiver();
  server = await startTestHttpServer();
  token = await bootstrapManagementToken(server);
}, 60_000);

afterAll(async () => {
  await server.close();
  await sink.close();
  await receiver.close();
});

beforeEach(() => {
  receiver.received.length = 0;
  receiver.respondWith(200);
});

const smtpConfig = () => {
  const port = Number(new URL(sink.url).port);
  return { host: '127.0.0.1', port, username: 'mailer', password: 'smtp-secret-1', fromEmail: 'auth@shop.test' };
};

describe('connector factories', () => {
  it('lists the email and SMS factories with their forms, and answers 404 for an unknown one', async () => {
    const { status, body } = await call('GET', '/connector-factories');
    expect(status).toBe(200);
    const ids = (body as unknown as { id: string; type: string }[]).map((factory) => `${factory.type}:${factory.id}`);
    expect(ids).toEqual(
      expect.arrayContaining([
        'Email:smtp',
        'Email:sendgrid-email',
        'Email:http-email',
        'Sms:twilio-sms',
        'Sms:http-sms',
      ]),
    );
    const smtp = await call('GET', '/connector-factories/smtp');
    expect(smtp.body.formItems).toContainEqual(expect.objectContaining({ key: 'password', isConfidential: true }));
    const unknown = await call('GET', '/connector-factories/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('connector.not_found');
  });
});

describe('an SMTP email connector', () => {
  it('is created with its secret masked everywhere, and a masked value sent back keeps the secret', async () => {
    const created = await call('POST', '/connectors', { connectorId: 'smtp', id: 'mail', config: smtpConfig() });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      id: 'mail',
      type: 'Email',
      config: { password: MASKED_SECRET, host: '127.0.0.1' },
    });
    expect(JSON.stringify((await call('GET', '/connectors')).body)).not.toContain('smtp-secret-1');
    const tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
    const entries = await tenant.findMany(logs, { where: eq(logs.key, 'Admin.Connector.Created') });
    expect(JSON.stringify(entries)).not.toContain('smtp-secret-1');

    const patched = await call('PATCH', '/connectors/mail', {
      config: { ...smtpConfig(), password: MASKED_SECRET, fromName: 'Shop' },
    });
    expect(patched.status).toBe(200);
    // The secret is still right: a test send through the saved connector's secret reaches the sink.
    const sent = await call('POST', '/connectors/smtp/test', {
      email: 'tester@shop.test',
      config: { ...smtpConfig(), password: MASKED_SECRET },
      locale: 'de',
    });
    expect(sent.status).toBe(204);
    const message = sink.received.find((email) => email.envelopeTo.includes('tester@shop.test'));
    expect(message?.subject).toBe('Ihr Bestätigungscode: 123456');
    expect(message?.text).toContain('123456');
  });

  it('refuses a config its form does not allow, and an unknown factory', async () => {
    const missing = await call('POST', '/connectors', { connectorId: 'smtp', config: { port: 25 } });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('connector.invalid_config_guard');
    const extra = await call('POST', '/connectors', { connectorId: 'smtp', config: { ...smtpConfig(), shell: 'x' } });
    expect(extra.body.code).toBe('connector.invalid_config_guard');
    const unknown = await call('POST', '/connectors', { connectorId: 'carrier-pigeon', config: {} });
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe('connector.not_found_with_connector_id');
    expect((await call('GET', '/connectors/mail')).body.config).toMatchObject({ fromName: 'Shop' });
  });

  it('sends the sign-up code through the connector, with its template for the usage', async () => {
    await call('PATCH', '/connectors/mail', {
      config: {
        ...smtpConfig(),
        password: MASKED_SECRET,
        templates: [
          { usageType: 'Register', subject: 'Welcome code {{code}}', content: 'Your code: {{code}} ({{minutes}} min)' },
        ],
      },
    });
    // Email codes need a sender: this server has no SMTP_URL, the connector is one.
    const patched = await call('PATCH', '/sign-in-exp', {
      signIn: {
        methods: [
          { identifier: 'email', password: true, verificationCode: false, isPasswordPrimary: true },
          { identifier: 'username', password: true, verificationCode: false, isPasswordPrimary: true },
        ],
      },
      signUp: { identifiers: ['email'], password: true, verify: true },
    });
    expect(patched.status).toBe(200);
    const app = await call('POST', '/applications', {
      name: 'Shop',
      type: 'SPA',
      oidcClientMetadata: { redirectUris: ['https://shop.test/callback'] },
    });
    const flow = oidcClient(server.base, {
      tenantId: DEFAULT_TENANT_ID,
      clientId: String(app.body.id),
      redirectUri: 'https://shop.test/callback',
      defaultResources: [],
    });
    const jar = new CookieJar();
    const { signInPage } = await flow.startAuthorization(jar, {
      scope: 'openid email',
      extra: { first_screen: 'register' },
    });
    const registered = await flow.submitForm(jar, `${signInPage}/register`, {
      email: 'buyer@shop.test',
      password: 'Basket-Of-Pears-9',
      password_confirm: 'Basket-Of-Pears-9',
    });
    expect(registered.status).toBe(200);
    let message = sink.received.find((email) => email.envelopeTo.includes('buyer@shop.test'));
    for (let wait = 0; !message && wait < 50; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      message = sink.received.find((email) => email.envelopeTo.includes('buyer@shop.test'));
    }
    expect(message?.subject).toMatch(/^Welcome code \d{6}$/);
    expect(message?.text).toMatch(/^Your code: \d{6} \(10 min\)/);
    expect(message?.from?.address).toBe('auth@shop.test');
    await call('PATCH', '/sign-in-exp', {
      signIn: {
        methods: [{ identifier: 'username', password: true, verificationCode: false, isPasswordPrimary: true }],
      },
      signUp: { identifiers: ['username'], password: true, verify: false },
    });
  });
});

describe('HTTP email connectors against a local receiver', () => {
  it.each([
    [
      'sendgrid-email',
      { apiKey: 'SG.key', fromEmail: 'auth@shop.test' },
      (request: { path: string; headers: Record<string, unknown>; body: string }) => {
        expect(request.path).toBe('/v3/mail/send');
        expect(request.headers.authorization).toBe('Bearer SG.key');
        const body = JSON.parse(request.body);
        expect(body.personalizations[0].to[0].email).toBe('to@shop.test');
        expect(body.from.email).toBe('auth@shop.test');
        expect(body.content[0]).toMatchObject({ type: 'text/plain' });
        expect(body.subject).toContain('123456');
      },
    ],
    [
      'postmark-email',
      { apiKey: 'pm-token', fromEmail: 'auth@shop.test' },
      (request: { path: string; headers: Record<string, unknown>; body: string }) => {
        expect(request.path).toBe('/email');
        expect(request.headers['x-postmark-server-token']).toBe('pm-token');
        expect(JSON.parse(request.body)).toMatchObject({ From: 'auth@shop.test', To: 'to@shop.test' });
      },
    ],
    [
      'mailgun-email',
      { domain: 'mg.shop.test', apiKey: 'mg-key', fromEmail: 'auth@shop.test' },
      (request: { path: string; headers: Record<string, unknown>; body: string }) => {
        expect(request.path).toBe('/v3/mg.shop.test/messages');
        expect(request.headers.authorization).toBe(`Basic ${Buffer.from('api:mg-key').toString('base64')}`);
        const form = new URLSearchParams(request.body);
        expect(form.get('to')).toBe('to@shop.test');
        expect(form.get('text')).toContain('123456');
      },
    ],
    [
      'http-email',
      { authorization: 'Bearer hook' },
      (request: { path: string; headers: Record<string, unknown>; body: string }) => {
        expect(request.headers.authorization).toBe('Bearer hook');
        expect(JSON.parse(request.body)).toMatchObject({ to: 'to@shop.test', type: 'Generic', locale: 'fr' });
      },
    ],
  ])('%s sends the request its API expects', async (factoryId, config, check) => {
    const withBase =
      factoryId === 'http-email'
        ? { ...config, endpoint: `${receiver.url}/send` }
        : { ...config, baseUrl: receiver.url };
    const sent = await call('POST', `/connectors/${factoryId}/test`, {
      email: 'to@shop.test',
      config: withBase,
      locale: 'fr',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(204);
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    if (request) check(request);
  });

  it.each([
    [401, 'connector.invalid_config'],
    [422, 'connector.invalid_request_parameters'],
    [429, 'connector.rate_limit_exceeded'],
    [503, 'connector.invalid_response'],
  ])('a provider answering %i is %s, with its words', async (status, code) => {
    receiver.respondWith(status, '{"message":"nope"}');
    const refused = await call('POST', '/connectors/sendgrid-email/test', {
      email: 'to@shop.test',
      config: { apiKey: 'k', fromEmail: 'a@shop.test', baseUrl: receiver.url },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code, data: { detail: expect.stringContaining('nope') } });
  });

  it('needs an address to test with', async () => {
    const refused = await call('POST', '/connectors/http-email/test', { config: { endpoint: `${receiver.url}/x` } });
    expect(refused.body.code).toBe('connector.insufficient_request_parameters');
  });
});

describe('SMS connectors', () => {
  it('Twilio: the Messages API with basic auth and form fields', async () => {
    const sent = await call('POST', '/connectors/twilio-sms/test', {
      phone: '15551234567',
      config: { accountSid: 'AC123', authToken: 'tw-secret', fromNumber: '+15550000000', baseUrl: receiver.url },
    });
    expect(sent.status).toBe(204);
    const [request] = receiver.received;
    expect(request?.path).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from('AC123:tw-secret').toString('base64')}`);
    const form = new URLSearchParams(request?.body);
    expect(form.get('To')).toBe('+15551234567');
    expect(form.get('From')).toBe('+15550000000');
    expect(form.get('Body')).toContain('123456');
  });

  it('one SMS connector per tenant: a new one replaces the old; delete removes it', async () => {
    const first = await call('POST', '/connectors', {
      connectorId: 'http-sms',
      config: { endpoint: `${receiver.url}/a` },
    });
    const second = await call('POST', '/connectors', {
      connectorId: 'twilio-sms',
      config: { accountSid: 'AC1', authToken: 't', fromNumber: '+1555' },
    });
    expect(second.status).toBe(200);
    const sms = ((await call('GET', '/connectors')).body as unknown as { id: string; type: string }[]).filter(
      (connector) => connector.type === 'Sms',
    );
    expect(sms.map((connector) => connector.id)).toEqual([second.body.id]);
    expect((await call('GET', `/connectors/${first.body.id}`)).status).toBe(404);
    expect((await call('DELETE', `/connectors/${second.body.id}`)).status).toBe(204);
    expect((await call('DELETE', `/connectors/${second.body.id}`)).status).toBe(404);
  });
});

describe('phone sign-up and sign-in by SMS code through the SMS connector', () => {
  it('proves the number at sign-up and at sign-in; phone_number_verified says so', async () => {
    await call('POST', '/connectors', {
      connectorId: 'http-sms',
      id: 'texts',
      config: { endpoint: `${receiver.url}/sms` },
    });
    const phoneMethod = { identifier: 'phone', password: false, verificationCode: true, isPasswordPrimary: false };
    const usernameMethod = { identifier: 'username', password: true, verificationCode: false, isPasswordPrimary: true };
    const patched = await call('PATCH', '/sign-in-exp', {
      signIn: { methods: [usernameMethod, phoneMethod] },
      signUp: { identifiers: ['phone'], password: false, verify: true },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const app = await call('POST', '/applications', {
      name: 'Texting app',
      type: 'SPA',
      oidcClientMetadata: { redirectUris: ['https://texts.test/callback'] },
    });
    const flow = oidcClient(server.base, {
      tenantId: DEFAULT_TENANT_ID,
      clientId: String(app.body.id),
      redirectUri: 'https://texts.test/callback',
      defaultResources: [],
    });
    const smsCode = async (count: number) => {
      for (let wait = 0; wait < 50 && receiver.received.length < count; wait++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const message = JSON.parse(receiver.received[count - 1]?.body ?? '{}') as {
        to: string;
        text: string;
        type: string;
      };
      return { ...message, code: /\b(\d{6})\b/.exec(message.text)?.[1] ?? '' };
    };

    // Sign-up: the number, a texted code, the account.
    const jar = new CookieJar();
    const { signInPage, verifier } = await flow.startAuthorization(jar, {
      scope: 'openid phone',
      extra: { first_screen: 'register' },
    });
    const page = await (await jar.fetch(signInPage)).text();
    expect(page, page).toContain('type="tel"');
    expect(page).not.toContain('type="password"');
    const sent = await flow.submitForm(jar, `${signInPage}/register`, { phone: '+1 (555) 010-2030' });
    expect(sent.status).toBe(200);
    expect(await sent.text()).toContain('Verify your phone number');
    const first = await smsCode(1);
    expect(first).toMatchObject({ to: '15550102030', type: 'Register' });
    const done = await flow.submitForm(jar, `${signInPage}/register/verify`, { code: first.code });
    const callback = await flow.followToCallback(jar, done);
    const tokens = (await (await flow.redeemCode(callback.searchParams.get('code') ?? '', verifier)).json()) as {
      id_token: string;
    };
    const claims = JSON.parse(Buffer.from(tokens.id_token.split('.')[1] ?? '', 'base64url').toString()) as Json;
    expect(claims).toMatchObject({ phone_number: '+15550102030', phone_number_verified: true });

    // Sign-in: the number, a texted code.
    const again = new CookieJar();
    const second = await flow.startAuthorization(again, { scope: 'openid phone' });
    expect(await (await again.fetch(second.signInPage)).text()).toContain('Sign in with a code sent to your phone');
    const asked = await flow.submitForm(again, `${second.signInPage}/code-sign-in`, { email: '+15550102030' });
    expect(asked.status).toBe(200);
    const next = await smsCode(2);
    expect(next.type).toBe('SignIn');
    const signedIn = await flow.submitForm(again, `${second.signInPage}/code-sign-in/verify`, { code: next.code });
    expect(signedIn.status).toBe(303);

    await call('PATCH', '/sign-in-exp', {
      signIn: { methods: [usernameMethod] },
      signUp: { identifiers: ['username'], password: true, verify: false },
    });
    await call('DELETE', '/connectors/texts');
  });
});

describe('connector templates', () => {
  it('fill {{values}}, escaped in an HTML template and as typed in a text one; the built-in message otherwise', () => {
    const builtIn = { subject: 'Built in', text: 'built-in text' };
    const values = { code: '123456', organization: '<b>Acme & Co</b>' };
    const config = {
      templates: [
        {
          usageType: 'OrganizationInvitation',
          subject: 'Join {{organization}}',
          content: '<p>{{organization}}</p>',
          type: 'text/html',
        },
        { usageType: 'Generic', content: 'Code {{code}} for {{organization}}' },
      ],
    };
    expect(messageFor(config, 'OrganizationInvitation', values, builtIn)).toEqual({
      subject: 'Join <b>Acme & Co</b>',
      text: 'built-in text',
      html: '<p>&lt;b&gt;Acme &amp; Co&lt;/b&gt;</p>',
    });
    expect(messageFor(config, 'SignIn', values, builtIn).text).toBe('Code 123456 for <b>Acme & Co</b>');
    expect(messageFor({}, 'SignIn', values, builtIn)).toBe(builtIn);
  });
});
