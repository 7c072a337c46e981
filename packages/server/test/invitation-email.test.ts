import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DEFAULT_TENANT_ID, generateId } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { organizationInvitations, organizations, outbox, users } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { EmailService } from '../src/services/email.ts';
import { type MailState, MailWorker } from '../src/services/mail-worker.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { createTestDatabase, testDatabaseUrl } from './support/database.ts';
import { deliveryOf } from './support/delivery.ts';
import { ownTenant } from './support/scenarios.ts';

/** A local SMTP sink: every accepted message, parsed; `reject` answers the next DATA commands with these codes. */
type Sink = {
  url: string;
  received: (Email & { envelopeTo: string[] })[];
  reject: number[];
  close: () => Promise<void>;
};

async function startSink(): Promise<Sink> {
  const received: Sink['received'] = [];
  const reject: number[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === 'mailer' && auth.password === 's3cret') callback(null, { user: 'mailer' });
      else callback(new Error('bad credentials'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const code = reject.shift();
        if (code) {
          const error = Object.assign(new Error(code >= 500 ? 'mailbox unavailable' : 'try again later'), {
            responseCode: code,
          });
          callback(error);
          return;
        }
        // A little latency so two workers have messages in flight at once.
        setTimeout(() => {
          PostalMime.parse(Buffer.concat(chunks)).then((email) => {
            received.push({ ...email, envelopeTo: session.envelope.rcptTo.map((to) => to.address) });
            callback();
          }, callback);
        }, 10);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://mailer:s3cret@127.0.0.1:${port}`,
    received,
    reject,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let t: TestApp;
let sink: Sink;
let email: EmailService;
let worker: MailWorker;
/** The invitee's application: its acceptance page accepts the invitation for the signed-in user. */
let app: Server;
let appUrl: string;
let signedInUserId = '';

beforeAll(async () => {
  t = await createTestApp();
  sink = await startSink();
  const config = loadConfig({ SMTP_URL: sink.url, EMAIL_FROM: 'Acme <invites@acme.test>' });
  email = new EmailService(config.smtp);
  worker = new MailWorker({ db: t.db, delivery: deliveryOf(email), backoffMs: () => 0 });
  app = createServer((request, response) => {
    const match = /^\/accept\/([\w-]+)$/.exec(request.url ?? '');
    if (!match) return response.writeHead(404).end();
    t.call(`/api/organization-invitations/${match[1]}/status`, {
      method: 'PUT',
      body: { status: 'Accepted', acceptedUserId: signedInUserId },
    }).then((result) => response.writeHead(result.status, { 'Content-Type': 'application/json' }).end(result.text));
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
});
afterAll(async () => {
  email.close();
  await sink.close();
  await new Promise((resolve) => app.close(resolve));
  await t.close();
});
beforeEach(() => {
  sink.received.length = 0;
  sink.reject.length = 0;
});

const HOUR = 60 * 60 * 1000;
let counter = 0;
const newOrganization = async (name: string) =>
  String((await t.call('/api/organizations', { method: 'POST', body: { name } })).json.id);
const newRole = async (name: string) =>
  String((await t.call('/api/organization-roles', { method: 'POST', body: { name, type: 'User' } })).json.id);
const newUser = (email: string, name: string) =>
  ownTenant(t).insert(users, {
    id: `me${String(++counter).padStart(5, '0')}`,
    username: name,
    primaryEmail: email,
    name,
  });
const invite = (body: Record<string, unknown>) => t.call('/api/organization-invitations', { method: 'POST', body });
/** The mail state of every message queued for an invitation, oldest first. */
async function mailStates(invitationId: string): Promise<(MailState & { processed: boolean })[]> {
  const rows = await ownTenant(t).findMany(outbox, {
    where: eq(outbox.event, 'OrganizationInvitation.MessageRequested'),
  });
  return rows
    .filter((row) => (row.payload.data as { invitationId: string }).invitationId === invitationId)
    .sort((a, b) => a.id - b.id)
    .map((row) => ({ ...(row.payload.mail as MailState), processed: row.processedAt !== null }));
}
const linkIn = (html: string | undefined) => /href="([^"]+)"/.exec(html ?? '')?.[1]?.replaceAll('&amp;', '&');

describe('the invitation email over SMTP', () => {
  it('sends the localized email with the acceptance link, which accepts the invitation', async () => {
    const org = await newOrganization('Acme <R&D>');
    const role = await newRole('mail-member');
    const inviter = await newUser('boss@acme.test', 'Ada Boss');
    const invitee = await newUser('new.person@example.com', 'New Person');
    const expiresAt = Date.now() + 48 * HOUR;
    const created = await invite({
      organizationId: org,
      invitee: 'New.Person@example.com',
      inviterId: inviter.id,
      organizationRoleIds: [role],
      expiresAt,
      messagePayload: { link: `${appUrl}/accept/{invitationId}`, locale: 'de' },
    });
    expect(created.status).toBe(201);
    const id = String(created.json.id);

    await worker.drain();
    expect(sink.received).toHaveLength(1);
    const [message] = sink.received;
    expect(message?.envelopeTo).toEqual(['New.Person@example.com']);
    expect(message?.from).toMatchObject({ address: 'invites@acme.test', name: 'Acme' });
    expect(message?.subject).toBe('Einladung zu Acme <R&D>');
    expect(message?.text).toContain('Sie wurden eingeladen, Acme <R&D> beizutreten.');
    expect(message?.text).toContain('Eingeladen von Ada Boss.');
    expect(message?.text).toContain(`${appUrl}/accept/${id}`);
    expect(message?.html, 'values are escaped in the HTML part').toContain('Acme &lt;R&amp;D&gt;');
    expect(message?.html).not.toContain('Acme <R&D>');
    const link = linkIn(message?.html);
    expect(link).toBe(`${appUrl}/accept/${id}`);
    expect(await mailStates(id)).toMatchObject([
      { status: 'sent', processed: true, attempts: [{ attempt: 1, messageId: expect.any(String) }] },
    ]);

    signedInUserId = invitee.id;
    const accepted = await fetch(link ?? '');
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ id, status: 'Accepted', acceptedUserId: invitee.id });
    const members = await t.call(`/api/organizations/${org}/users`);
    expect(members.json.map((user: { id: string }) => user.id)).toEqual([invitee.id]);

    const again = await fetch(link ?? '');
    expect(again.status, 'a used link cannot accept twice').toBe(422);
    expect(await again.json()).toMatchObject({
      code: 'organization_invitation.invalid_status',
      message: 'Invalid invitation status: the invitation is no longer pending.',
    });
    await worker.drain();
    expect(sink.received, 'a sent message is never sent again').toHaveLength(1);
  });

  it('resends with the earlier link, in the language asked for', async () => {
    const org = await newOrganization('Resend Org');
    const created = await invite({
      organizationId: org,
      invitee: 'resend@example.com',
      expiresAt: Date.now() + HOUR,
      messagePayload: { link: 'https://app.example.com/join/{invitationId}?from=mail' },
    });
    const id = String(created.json.id);
    await worker.drain();
    expect(sink.received.map((m) => m.subject)).toEqual(['Invitation to join Resend Org']);

    const resend = await t.call(`/api/organization-invitations/${id}/message`, {
      method: 'POST',
      body: { locale: 'fr' },
    });
    expect(resend.status).toBe(204);
    await worker.drain();
    expect(sink.received.map((m) => m.subject)).toEqual([
      'Invitation to join Resend Org',
      'Invitation à rejoindre Resend Org',
    ]);
    expect(sink.received.map((m) => linkIn(m.html))).toEqual([
      `https://app.example.com/join/${id}?from=mail`,
      `https://app.example.com/join/${id}?from=mail`,
    ]);
    expect(sink.received[1]?.envelopeTo).toEqual(['resend@example.com']);
  });

  it('retries a temporary failure, gives up on a permanent one and records every attempt', async () => {
    const org = await newOrganization('Retry Org');
    const link = 'https://app.example.com/join';
    sink.reject.push(451, 451);
    const flaky = await invite({
      organizationId: org,
      invitee: 'flaky@example.com',
      expiresAt: Date.now() + HOUR,
      messagePayload: { link },
    });
    await worker.drain();
    expect(sink.received.map((m) => m.envelopeTo)).toEqual([['flaky@example.com']]);
    const [flakyState] = await mailStates(String(flaky.json.id));
    expect(flakyState).toMatchObject({ status: 'sent', processed: true });
    expect(flakyState?.attempts.map((a) => [a.attempt, Boolean(a.error), Boolean(a.messageId)])).toEqual([
      [1, true, false],
      [2, true, false],
      [3, false, true],
    ]);
    expect(flakyState?.attempts[0]?.error).toContain('try again later');

    sink.reject.push(550);
    const bounced = await invite({
      organizationId: org,
      invitee: 'bounced@example.com',
      expiresAt: Date.now() + HOUR,
      messagePayload: { link },
    });
    await worker.drain();
    expect(await mailStates(String(bounced.json.id))).toMatchObject([
      { status: 'failed', processed: true, attempts: [{ attempt: 1, error: expect.stringContaining('550') }] },
    ]);
    expect(sink.received).toHaveLength(1);

    // A server that never answers: five tries by default, then failed.
    const down = new EmailService(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:9' }).smtp);
    const downWorker = new MailWorker({ db: t.db, delivery: deliveryOf(down), backoffMs: () => 0 });
    const lost = await invite({
      organizationId: org,
      invitee: 'lost@example.com',
      expiresAt: Date.now() + HOUR,
      messagePayload: { link },
    });
    await downWorker.drain();
    const [lostState] = await mailStates(String(lost.json.id));
    expect(lostState).toMatchObject({ status: 'failed', processed: true });
    expect(lostState?.attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5]);
    down.close();

    // A row the worker cannot render (here: no template values at all) fails like a send, with retries.
    const [broken] = await ownTenant(t).insertMany(outbox, [
      {
        event: 'OrganizationInvitation.MessageRequested',
        payload: { event: 'OrganizationInvitation.MessageRequested', data: { invitationId: String(lost.json.id) } },
      },
    ]);
    await worker.drain();
    const [row] = await ownTenant(t).findMany(outbox, { where: eq(outbox.id, broken?.id ?? -1) });
    const state = row?.payload.mail as MailState;
    expect(state).toMatchObject({ status: 'failed', reason: expect.stringContaining('could not render') });
    expect(state.attempts).toHaveLength(5);
    expect(row?.processedAt).not.toBeNull();
    expect(sink.received).toHaveLength(1);
  });

  it('delivers each message once with two workers claiming at the same time', async () => {
    const org = await newOrganization('Two Workers');
    const other = new MailWorker({ db: t.db, delivery: deliveryOf(email), backoffMs: () => 0, batchSize: 3 });
    const first = new MailWorker({ db: t.db, delivery: deliveryOf(email), backoffMs: () => 0, batchSize: 3 });
    const invitees = Array.from({ length: 12 }, (_, index) => `twice${index}@example.com`);
    for (const invitee of invitees) {
      const created = await invite({
        organizationId: org,
        invitee,
        expiresAt: Date.now() + HOUR,
        messagePayload: { link: 'https://app.example.com/join' },
      });
      expect(created.status).toBe(201);
    }
    await Promise.all([first.drain(), other.drain(), first.drain(), other.drain()]);
    const recipients = sink.received.flatMap((m) => m.envelopeTo).sort();
    expect(recipients).toEqual([...invitees].sort());
  });

  it('does not send for a revoked or expired invitation, which cannot be accepted either', async () => {
    const org = await newOrganization('Closed Org');
    const person = await newUser('closed@example.com', 'Closed Person');
    const link = `${appUrl}/accept/{invitationId}`;
    const revoked = await invite({
      organizationId: org,
      invitee: 'closed@example.com',
      expiresAt: Date.now() + HOUR,
      messagePayload: { link },
    });
    const revokedId = String(revoked.json.id);
    const revoke = await t.call(`/api/organization-invitations/${revokedId}/status`, {
      method: 'PUT',
      body: { status: 'Revoked' },
    });
    expect(revoke.json.status).toBe('Revoked');
    await worker.drain();
    expect(sink.received, 'revoked before the worker ran: nothing is sent').toEqual([]);
    expect(await mailStates(revokedId)).toMatchObject([{ status: 'cancelled', processed: true }]);

    signedInUserId = person.id;
    const viaLink = await fetch(`${appUrl}/accept/${revokedId}`);
    expect(viaLink.status).toBe(422);
    expect(await viaLink.json()).toMatchObject({
      code: 'organization_invitation.invalid_status',
      message: 'Invalid invitation status: the invitation is no longer pending.',
      data: { status: 'Revoked' },
    });
    const resend = await t.call(`/api/organization-invitations/${revokedId}/message`, { method: 'POST', body: {} });
    expect(resend.status, 'no resend for a revoked invitation').toBe(422);

    const expiring = await invite({
      organizationId: org,
      invitee: 'closed@example.com',
      expiresAt: Date.now() + HOUR,
      messagePayload: { link },
    });
    const expiringId = String(expiring.json.id);
    await ownTenant(t).update(organizationInvitations, eq(organizationInvitations.id, expiringId), {
      expiresAt: new Date(Date.now() - 1000),
    });
    await worker.drain();
    expect(sink.received).toEqual([]);
    const expired = await fetch(`${appUrl}/accept/${expiringId}`);
    expect(expired.status).toBe(422);
    expect(await expired.json()).toMatchObject({
      code: 'organization_invitation.expired',
      message: 'The invitation has expired.',
      data: { status: 'Expired' },
    });
    expect((await t.call(`/api/organizations/${org}/users`)).json).toEqual([]);
  });

  it('rejects a malformed email address and queues nothing', async () => {
    const org = await newOrganization('Malformed Org');
    for (const invitee of ['not-an-email', 'a b@example.com', 'nobody@localhost', '']) {
      const response = await invite({
        organizationId: org,
        invitee,
        expiresAt: Date.now() + HOUR,
        messagePayload: { link: 'https://app.example.com/join' },
      });
      expect(response.status, invitee).toBe(400);
    }
    expect((await t.call(`/api/organization-invitations?organizationId=${org}`)).json).toEqual([]);
    await worker.drain();
    expect(sink.received).toEqual([]);
  });

  it('without SMTP_URL the invitation is created and its email is recorded as not sent', async () => {
    expect(loadConfig({}).smtp).toBeUndefined();
    const disabled = new MailWorker({ db: t.db, delivery: deliveryOf(new EmailService(undefined)) });
    const created = await invite({
      organizationId: await newOrganization('No SMTP'),
      invitee: 'nosmtp@example.com',
      expiresAt: Date.now() + HOUR,
      messagePayload: { link: 'https://app.example.com/join' },
    });
    expect(created.status).toBe(201);
    await disabled.drain();
    expect(await mailStates(String(created.json.id))).toMatchObject([
      {
        status: 'not_sent',
        processed: true,
        reason: 'SMTP_URL is not set and the tenant has no email connector',
        attempts: [],
      },
    ]);
    await worker.drain();
    expect(sink.received, 'a message recorded as not sent is not picked up later').toEqual([]);
  });

  it('checks SMTP_URL and does not echo it', () => {
    expect(() => loadConfig({ SMTP_URL: 'http://user:hunter2@mail.example.com' })).toThrow(
      /^Invalid configuration: SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/,
    );
    expect(() => loadConfig({ SMTP_URL: 'http://user:hunter2@mail.example.com' })).not.toThrow(/hunter2/);
    expect(loadConfig({ SMTP_URL: 'smtps://mail.example.com', PUBLIC_URL: 'https://id.acme.test' }).smtp).toEqual({
      url: 'smtps://mail.example.com',
      from: 'Gatehouse <no-reply@id.acme.test>',
    });
  });
});

const main = join(import.meta.dirname, '..', 'src', 'main.ts');

/** The real server process; resolves once it prints its console URL. */
function startProcess(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Console: http:\/\/\S+\/console/.test(output)) resolve(child);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
}

const stopProcess = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

describe.skipIf(!testDatabaseUrl)('the invitation email across server processes', { timeout: 120_000 }, () => {
  it('two server processes on one PostgreSQL send each queued email exactly once', async () => {
    const database = await createTestDatabase();
    const children: ChildProcess[] = [];
    try {
      const tenant = new TenantDb(database.db, DEFAULT_TENANT_ID);
      const organization = await tenant.insert(organizations, { id: generateId(), name: 'Two Processes' });
      const count = 20;
      const invitees: string[] = [];
      for (let index = 0; index < count; index++) {
        const invitee = `process${index}@example.com`;
        invitees.push(invitee);
        const expiresAt = new Date(Date.now() + HOUR);
        const invitation = await tenant.insert(organizationInvitations, {
          id: generateId(),
          organizationId: organization.id,
          invitee,
          expiresAt,
        });
        await tenant.insert(outbox, {
          event: 'OrganizationInvitation.MessageRequested',
          payload: {
            event: 'OrganizationInvitation.MessageRequested',
            data: {
              invitationId: invitation.id,
              organizationId: organization.id,
              invitee,
              expiresAt: expiresAt.getTime(),
              messagePayload: { link: 'https://app.example.com/join/{invitationId}' },
            },
            createdAt: Date.now(),
          },
        });
      }
      const env = { DATABASE_URL: database.url ?? '', SMTP_URL: sink.url };
      children.push(...(await Promise.all([startProcess(env), startProcess(env)])));
      const deadline = Date.now() + 60_000;
      while (sink.received.length < count && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Time for a duplicate to show up, if there were one.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await Promise.all(children.map(stopProcess));
      expect(sink.received.flatMap((message) => message.envelopeTo).sort()).toEqual(invitees.sort());
      const rows = await tenant.findMany(outbox, {
        where: eq(outbox.event, 'OrganizationInvitation.MessageRequested'),
      });
      expect(rows.map((row) => [row.processedAt !== null, (row.payload.mail as MailState).status])).toEqual(
        rows.map(() => [true, 'sent']),
      );
      expect(
        rows.every((row) => (row.payload.mail as MailState).attempts.length === 1),
        'one attempt each',
      ).toBe(true);
    } finally {
      await Promise.all(children.map(stopProcess));
      await database.close();
    }
  });
});
