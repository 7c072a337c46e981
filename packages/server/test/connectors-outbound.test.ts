import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TenantDb } from '../src/db/tenant-db.ts';
import { EmailService } from '../src/services/email.ts';
import { MessageDelivery } from '../src/services/message-delivery.ts';
import { OutboundAddressRefused, outboundAddress } from '../src/services/outbound.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';

/**
 * Issue 39 item 1: the SMTP connector under the outbound policy, like webhooks and the HTTP connectors. In cloud any
 * account types the host, so a private address must be refused before any byte is sent — by the console's test send
 * and by real mail (a forgot-password code goes through the same connector) — or the connector is a port scanner of
 * the operator's network whose replies come back in `data.detail`.
 */
let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());

const port = () => Number(new URL(sink.url).port);
const smtpConfig = (host: string) => ({ host, port: port(), fromEmail: 'auth@shop.test' });
const testSend = (t: TestApp, host: string) =>
  t.call('/api/connectors/smtp/test', { method: 'POST', body: { email: 'probe@shop.test', config: smtpConfig(host) } });

describe('SMTP to private addresses when they are refused', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ OUTBOUND_PRIVATE_ADDRESSES: 'deny' });
  });
  afterAll(() => t.close());

  it.each([
    ['a loopback address', '127.0.0.1'],
    ['a name that resolves to loopback', 'localhost'],
    ['an IPv4-mapped IPv6 loopback', '::ffff:127.0.0.1'],
    ['a bracketed IPv6 loopback', '[::1]'],
    ['the unspecified address', '0.0.0.0'],
  ])('the test send to %s is refused before any byte is sent', async (_, host) => {
    const before = sink.received.length;
    const refused = await testSend(t, host);
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 'connector.general', message: expect.any(String) });
    expect(refused.json.data.detail).toMatch(/private, loopback, link-local or reserved range/);
    expect(refused.json.data.detail, 'nothing of the internal server comes back').not.toMatch(/ESMTP|220|Greeting/i);
    expect(sink.received.length, 'the internal server heard nothing').toBe(before);
  });

  it('real mail through a saved SMTP connector is refused the same way', async () => {
    const created = await t.call('/api/connectors', {
      method: 'POST',
      body: { connectorId: 'smtp', config: smtpConfig('127.0.0.1') },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const before = sink.received.length;
    const delivery = new MessageDelivery(new EmailService(undefined), t.config.outbound);
    const result = await delivery.sendEmail(new TenantDb(t.db, DEFAULT_TENANT_ID), {
      to: 'victim@shop.test',
      usage: 'ForgotPassword',
      language: 'en',
      values: { code: '123456' },
      builtIn: { subject: 'Your code', text: 'Your code is 123456' },
    });
    expect(result).toMatchObject({ sent: false, error: expect.stringMatching(/reserved range/) });
    expect(sink.received.length).toBe(before);
  });
});

describe('SMTP where private addresses are allowed', () => {
  it('reaches an internal server in OSS (the default) and through OUTBOUND_ALLOW_LIST in cloud', async () => {
    const editions: Record<string, string>[] = [
      {},
      { OUTBOUND_PRIVATE_ADDRESSES: 'deny', OUTBOUND_ALLOW_LIST: '127.0.0.1/32' },
    ];
    for (const env of editions) {
      const t = await createTestApp(env);
      try {
        const before = sink.received.length;
        const sent = await testSend(t, '127.0.0.1');
        expect(sent.status, JSON.stringify(sent.json)).toBe(204);
        expect(sink.received.length).toBe(before + 1);
        expect(sink.received.at(-1)?.envelopeTo).toEqual(['probe@shop.test']);
      } finally {
        await t.close();
      }
    }
  });
});

describe('the address an SMTP connection is made to', () => {
  const deny = { denyPrivate: true, allowList: [] };

  it('is the checked address of the name, so a second lookup cannot answer differently', async () => {
    const address = outboundAddress({ denyPrivate: true, allowList: ['localhost'] });
    expect(['127.0.0.1', '::1']).toContain(await address('localhost'));
    expect(await address('LOCALHOST'), 'host names are compared without case').toMatch(/^(127\.0\.0\.1|::1)$/);
  });

  it('refuses private names and literals, and names that do not resolve', async () => {
    await expect(outboundAddress(deny)('localhost')).rejects.toBeInstanceOf(OutboundAddressRefused);
    await expect(outboundAddress(deny)('10.0.0.7')).rejects.toBeInstanceOf(OutboundAddressRefused);
    await expect(outboundAddress(deny)('[fe80::1]')).rejects.toBeInstanceOf(OutboundAddressRefused);
    await expect(outboundAddress(deny)('no-such-host.invalid')).rejects.toThrow(/ENOTFOUND|EAI_AGAIN/);
    expect(await outboundAddress(deny)('93.184.216.34'), 'a public literal passes as it is').toBe('93.184.216.34');
  });

  it('is the name itself where private addresses are allowed (OSS)', async () => {
    expect(await outboundAddress({ denyPrivate: false, allowList: [] })('localhost')).toBe('localhost');
  });
});
