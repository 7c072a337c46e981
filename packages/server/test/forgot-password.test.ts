import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID, type LogKey } from '@gatehouse/schemas';
import { and, desc, eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managementResource } from '../src/auth/issuers.ts';
import { logs, outbox, passwordResetCodes, users } from '../src/db/tables.ts';
import { TenantDb, TenantDbs } from '../src/db/tenant-db.ts';
import { createFirstConsoleAdmin } from '../src/services/console-admin.ts';
import { EmailService } from '../src/services/email.ts';
import { createManagementMachineApp } from '../src/services/machine-apps.ts';
import {
  FORGOT_PASSWORD_CREATE_LOG_KEY,
  FORGOT_PASSWORD_SUBMIT_LOG_KEY,
  RESET_CODE,
  RESET_RATE_LIMIT,
  requestPasswordReset,
} from '../src/services/password-reset.ts';
import { encryptPassword } from '../src/services/user-passwords.ts';
import { deliveryOf } from './support/delivery.ts';
import { CookieJar, startTestHttpServer } from './support/http-server.ts';
import { consoleClient, oidcClient } from './support/oidc-flow.ts';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';

/**
 * Forgot password (issue 6) through the real sign-in pages over HTTP: the code arrives by real SMTP (a local
 * sink), the reset is checked against sign-in, refresh tokens, the audit log and the webhook outbox.
 */

let sink: SmtpSink;
let server: Awaited<ReturnType<typeof startTestHttpServer>>;
let adminToken: string;
let clientId: string;
const redirectUri = 'https://spa.example.com/callback';
const userAgent = 'ForgotPasswordTest/1.0';

type Json = Record<string, unknown>;
async function api(path: string, init: { method?: string; body?: unknown } = {}): Promise<Json> {
  const response = await fetch(`${server.base}/api${path}`, {
    method: init.method ?? 'GET',
    headers: {
      Authorization: `Bearer ${adminToken}`,
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  expect(response.ok, `${init.method ?? 'GET'} ${path}: ${response.status} ${text}`).toBe(true);
  return text ? (JSON.parse(text) as Json) : {};
}

const tenant = () => new TenantDb(server.database.db, DEFAULT_TENANT_ID);
const oidc = () =>
  oidcClient(server.base, { tenantId: DEFAULT_TENANT_ID, clientId, redirectUri, defaultResources: [] });

async function createUser(username: string, password = 'Original-Pass-42'): Promise<{ id: string; email: string }> {
  const email = `${username.replace(/_/g, '.')}@example.com`;
  const created = await api('/users', { method: 'POST', body: { username, primaryEmail: email, password } });
  return { id: String(created.id), email };
}

function post(jar: CookieJar, url: string, fields: Record<string, string>, language = 'en') {
  return jar.fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Accept-Language': language,
      'User-Agent': userAgent,
    },
    body: new URLSearchParams(fields),
  });
}

/** A fresh interaction of the SPA: its sign-in page URL. */
async function signInPage(jar: CookieJar, flow = oidc()): Promise<string> {
  return (await flow.startAuthorization(jar, { scope: 'openid offline_access' })).signInPage;
}

async function requestCode(jar: CookieJar, page: string, email: string): Promise<string> {
  const response = await post(jar, `${page}/forgot-password`, { email });
  expect(response.status).toBe(200);
  return response.text();
}

const mailsTo = (email: string) => sink.received.filter((mail) => mail.envelopeTo.includes(email));

/** Waits for the n-th email to `email` and returns the code in it. */
async function codeFor(email: string, nth = 1): Promise<string> {
  for (let i = 0; i < 100 && mailsTo(email).length < nth; i++) await new Promise((r) => setTimeout(r, 50));
  const mail = mailsTo(email)[nth - 1];
  expect(mail, `email ${nth} to ${email}`).toBeDefined();
  const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
  expect(mail?.subject).toContain(code);
  return code ?? '';
}

function reset(
  jar: CookieJar,
  page: string,
  fields: { email: string; code: string; password: string; confirm?: string },
) {
  return post(jar, `${page}/reset-password`, {
    email: fields.email,
    code: fields.code,
    password: fields.password,
    password_confirm: fields.confirm ?? fields.password,
  });
}

async function signIn(identifier: string, password: string, scope = 'openid offline_access') {
  const flow = oidc();
  const jar = new CookieJar();
  const { verifier, signInPage: page } = await flow.startAuthorization(jar, { scope });
  const submitted = await flow.submit(jar, page, identifier, password);
  if (submitted.status !== 303) return { ok: false as const, status: submitted.status };
  const callback = await flow.followToCallback(jar, submitted);
  const tokens = await flow.redeemCode(callback.searchParams.get('code') ?? '', verifier);
  expect(tokens.status).toBe(200);
  return { ok: true as const, tokens: (await tokens.json()) as { refresh_token?: string; id_token: string } };
}

const storedHash = async (id: string) => (await tenant().findOne(users, eq(users.id, id)))?.passwordEncrypted;

async function lastLog(key: LogKey, email: string) {
  const rows = await tenant().findMany(logs, { where: eq(logs.key, key), orderBy: [desc(logs.createdAt)], limit: 50 });
  return rows.find((row) => (row.payload as Json).email === email);
}

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startTestHttpServer({ SMTP_URL: sink.url, EMAIL_FROM: 'Gatehouse <no-reply@example.com>' });
  const bootstrap = await createManagementMachineApp(tenant(), { type: 'system', id: 'test' }, 'bootstrap');
  const token = await fetch(`${server.base}/oidc/token`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: `Basic ${Buffer.from(`${bootstrap.clientId}:${bootstrap.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      resource: managementResource(DEFAULT_TENANT_ID),
      scope: 'all',
    }),
  });
  adminToken = ((await token.json()) as { access_token: string }).access_token;
  const app = await api('/applications', {
    method: 'POST',
    body: { name: 'Reset SPA', type: 'SPA', oidcClientMetadata: { redirectUris: [redirectUri] } },
  });
  clientId = String(app.id);
}, 60_000);
afterAll(async () => {
  await server.close();
  await sink.close();
});

describe('forgot password through the sign-in pages', () => {
  it('resets the password with the emailed code, ends sessions, audits and emits PostResetPassword', async () => {
    const user = await createUser('reset_alice');
    const before = await signIn('reset_alice', 'Original-Pass-42');
    expect(before.ok && before.tokens.refresh_token, 'a refresh token to be revoked').toBeTruthy();

    const jar = new CookieJar();
    const page = await signInPage(jar);
    const signInHtml = await (await jar.fetch(page, { headers: { 'Accept-Language': 'en' } })).text();
    const path = new URL(page).pathname;
    // Beside the password's label, and the password can be shown (the page's script reads data-reveal).
    expect(signInHtml).toContain(
      `<div class="label-row"><label for="password">Password</label><a href="${path}/forgot-password">Forgot password?</a></div>`,
    );
    expect(signInHtml).toMatch(/<input id="password" [^>]*data-reveal data-show="Show" data-hide="Hide"/);
    const form = await jar.fetch(`${page}/forgot-password`, { headers: { 'Accept-Language': 'en' } });
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('<input id="email" name="email" type="email"');

    const sent = await requestCode(jar, page, user.email.toUpperCase());
    expect(sent).toContain(`If an account exists for ${user.email.toUpperCase()}, we have sent a code to it.`);
    expect(sent).toContain('autocomplete="one-time-code"');
    // A new code after a minute: the resend link says how long to wait (the page's script counts down).
    expect(sent).toContain(`data-wait="Send a new code in {seconds} s" data-seconds="60">Send a new code</a>`);
    const code = await codeFor(user.email);
    expect(mailsTo(user.email)[0]?.text).toContain(`valid for ${RESET_CODE.ttlMinutes} minutes`);
    const row = await tenant().findOne(passwordResetCodes, eq(passwordResetCodes.userId, user.id));
    expect(row?.codeHash, 'stored hashed').toMatch(/^\$argon2id\$/);
    expect(row?.codeHash).not.toContain(code);

    const mismatch = await reset(jar, page, { email: user.email, code, password: 'Brand-New-Pass-77', confirm: 'x' });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain('The passwords do not match.');

    const done = await reset(jar, page, { email: user.email, code, password: 'Brand-New-Pass-77' });
    expect(done.status).toBe(200);
    const doneHtml = await done.text();
    expect(doneHtml).toContain('Your password has been changed. Sign in with your new password.');
    expect(doneHtml).toContain(`action="${path}/login"`);
    // The same interaction continues: signing in from the page reaches the application.
    const continued = await oidc().submit(jar, page, user.email, 'Brand-New-Pass-77');
    expect(continued.status).toBe(303);
    expect((await oidc().followToCallback(jar, continued)).searchParams.get('code')).toBeTruthy();

    expect((await signIn('reset_alice', 'Original-Pass-42')).ok, 'the old password is refused').toBe(false);
    expect((await signIn('reset_alice', 'Brand-New-Pass-77')).ok).toBe(true);
    if (before.ok) {
      const refreshed = await fetch(`${oidc().issuer}/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: clientId,
          grant_type: 'refresh_token',
          refresh_token: before.tokens.refresh_token ?? '',
        }),
      });
      expect(refreshed.status, 'the refresh token from before the reset is dead').toBe(400);
    }
    const laterJar = new CookieJar();
    const again = await reset(laterJar, await signInPage(laterJar), {
      email: user.email,
      code,
      password: 'Another-Pass-99',
    });
    expect(again.status, 'a code works once').toBe(400);
    expect(await again.text()).toContain('The code is incorrect or has expired.');

    const created = await lastLog(FORGOT_PASSWORD_CREATE_LOG_KEY, user.email);
    expect(created).toMatchObject({ userId: user.id, applicationId: clientId });
    expect(created?.payload).toMatchObject({ result: 'Success', ip: '127.0.0.1', userAgent });
    const submits = await tenant().findMany(logs, {
      where: and(eq(logs.key, FORGOT_PASSWORD_SUBMIT_LOG_KEY), eq(logs.userId, user.id)),
    });
    expect(submits.map((entry) => (entry.payload as Json).result).sort()).toEqual(['Error', 'Success']);
    expect(submits.find((entry) => (entry.payload as Json).result === 'Error')?.payload).toMatchObject({
      error: 'code_not_found',
    });
    const success = submits.find((entry) => (entry.payload as Json).result === 'Success');
    expect(success).toMatchObject({ applicationId: clientId });
    expect(success?.payload).toMatchObject({ ip: '127.0.0.1', userAgent, email: user.email });

    const events = await tenant().findMany(outbox, { where: eq(outbox.event, 'PostResetPassword') });
    const event = events.find((entry) => (entry.payload as { data: Json }).data.userId === user.id);
    expect(event?.payload).toMatchObject({
      event: 'PostResetPassword',
      actor: { type: 'user', id: user.id },
      data: {
        interactionEvent: 'ForgotPassword',
        user: { id: user.id, primaryEmail: user.email },
        application: { id: clientId, name: 'Reset SPA', type: 'SPA' },
        ip: '127.0.0.1',
        userAgent,
      },
    });
    expect(JSON.stringify(event?.payload)).not.toContain('passwordEncrypted');
  }, 60_000);

  it('says email_verified only for an address an admin set or an emailed code proved, never a typed one', async () => {
    const admin = await createUser('verified_by_admin');
    const adminSignIn = await signIn('verified_by_admin', 'Original-Pass-42', 'openid email');
    expect(adminSignIn.ok && decodeJwt(adminSignIn.tokens.id_token)).toMatchObject({
      email: admin.email,
      email_verified: true,
    });

    // Self-registration with a typed address: nobody has proven it.
    const jar = new CookieJar();
    const page = await signInPage(jar);
    const registered = await post(jar, `${page}/register`, {
      username: 'typed_address',
      email: 'typed.address@example.com',
      password: 'Typed-Pass-4242',
      password_confirm: 'Typed-Pass-4242',
    });
    expect(registered.status).toBe(303);
    const typed = await signIn('typed_address', 'Typed-Pass-4242', 'openid email');
    expect(typed.ok && decodeJwt(typed.tokens.id_token)).toMatchObject({
      email: 'typed.address@example.com',
      email_verified: false,
    });

    // A password reset by the code sent to that address proves it.
    const resetJar = new CookieJar();
    const resetPage = await signInPage(resetJar);
    await requestCode(resetJar, resetPage, 'typed.address@example.com');
    const code = await codeFor('typed.address@example.com');
    const done = await reset(resetJar, resetPage, {
      email: 'typed.address@example.com',
      code,
      password: 'Proven-Pass-4242',
    });
    expect(done.status).toBe(200);
    const proven = await signIn('typed_address', 'Proven-Pass-4242', 'openid email');
    expect(proven.ok && decodeJwt(proven.tokens.id_token)).toMatchObject({ email_verified: true });
  });

  it('refuses a wrong code, counts it, and locks the code after the last attempt', async () => {
    const user = await createUser('reset_bob');
    const jar = new CookieJar();
    const page = await signInPage(jar);
    await requestCode(jar, page, user.email);
    const code = await codeFor(user.email);
    const wrong = code === '000000' ? '111111' : '000000';
    const hash = await storedHash(user.id);

    const first = await reset(jar, page, { email: user.email, code: wrong, password: 'Brand-New-Pass-77' });
    expect(first.status).toBe(400);
    expect(await first.text()).toContain('The code is incorrect or has expired.');
    expect(await storedHash(user.id), 'nothing changed').toBe(hash);
    expect((await tenant().findOne(passwordResetCodes, eq(passwordResetCodes.userId, user.id)))?.attempts).toBe(1);
    expect((await lastLog(FORGOT_PASSWORD_SUBMIT_LOG_KEY, user.email))?.payload).toMatchObject({
      result: 'Error',
      error: 'invalid_code',
    });

    for (let attempt = 2; attempt < RESET_CODE.maxAttempts; attempt++) {
      expect((await reset(jar, page, { email: user.email, code: wrong, password: 'Brand-New-Pass-77' })).status).toBe(
        400,
      );
    }
    const last = await reset(jar, page, { email: user.email, code: wrong, password: 'Brand-New-Pass-77' });
    expect(last.status).toBe(429);
    expect(await last.text()).toContain('Too many incorrect codes. Request a new code.');
    const right = await reset(jar, page, { email: user.email, code, password: 'Brand-New-Pass-77' });
    expect(right.status, 'the right code no longer works either').toBe(429);
    expect(await storedHash(user.id)).toBe(hash);
    expect((await lastLog(FORGOT_PASSWORD_SUBMIT_LOG_KEY, user.email))?.payload).toMatchObject({
      error: 'too_many_attempts',
    });

    // A new code starts over.
    await requestCode(jar, page, user.email);
    const fresh = await codeFor(user.email, 2);
    expect((await reset(jar, page, { email: user.email, code: fresh, password: 'Brand-New-Pass-77' })).status).toBe(
      200,
    );
    expect(await storedHash(user.id)).not.toBe(hash);
  }, 60_000);

  it('refuses an expired code', async () => {
    const user = await createUser('reset_carol');
    const jar = new CookieJar();
    const page = await signInPage(jar);
    await requestCode(jar, page, user.email);
    const code = await codeFor(user.email);
    await tenant().update(passwordResetCodes, eq(passwordResetCodes.userId, user.id), {
      expiresAt: new Date(Date.now() - 1000),
    });
    const hash = await storedHash(user.id);
    const expired = await reset(jar, page, { email: user.email, code, password: 'Brand-New-Pass-77' });
    expect(expired.status).toBe(400);
    expect(await expired.text()).toContain('The code is incorrect or has expired.');
    expect(await storedHash(user.id)).toBe(hash);
    expect((await lastLog(FORGOT_PASSWORD_SUBMIT_LOG_KEY, user.email))?.payload).toMatchObject({
      result: 'Error',
      error: 'code_expired',
    });
  });

  it('answers an unknown address the same way and sends nothing', async () => {
    const jar = new CookieJar();
    const page = await signInPage(jar);
    const known = await createUser('reset_dave');
    const knownHtml = await requestCode(jar, page, known.email);
    const unknownHtml = await requestCode(jar, page, 'nobody@example.com');
    expect(unknownHtml).toBe(knownHtml.replaceAll(known.email, 'nobody@example.com'));
    await codeFor(known.email);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo('nobody@example.com')).toHaveLength(0);
    expect(await lastLog(FORGOT_PASSWORD_CREATE_LOG_KEY, 'nobody@example.com')).toMatchObject({
      userId: null,
      payload: { result: 'Error', error: 'user_not_found' },
    });
    const submit = await reset(jar, page, {
      email: 'nobody@example.com',
      code: '123456',
      password: 'Brand-New-Pass-7',
    });
    expect(submit.status).toBe(400);
    expect(await submit.text()).toContain('The code is incorrect or has expired.');
  });

  it('does not reset a suspended user (same answer, audited as failed)', async () => {
    const user = await createUser('reset_erin');
    await tenant().update(users, eq(users.id, user.id), { isSuspended: true });
    const jar = new CookieJar();
    const page = await signInPage(jar);
    expect(await requestCode(jar, page, user.email)).toContain(`If an account exists for ${user.email}`);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo(user.email)).toHaveLength(0);
    expect(await lastLog(FORGOT_PASSWORD_CREATE_LOG_KEY, user.email)).toMatchObject({
      userId: user.id,
      payload: { result: 'Error', error: 'suspended' },
    });

    // Suspended after the code was sent: the code no longer works.
    const other = await createUser('reset_frank');
    await requestCode(jar, page, other.email);
    const code = await codeFor(other.email);
    await tenant().update(users, eq(users.id, other.id), { isSuspended: true });
    const hash = await storedHash(other.id);
    const refused = await reset(jar, page, { email: other.email, code, password: 'Brand-New-Pass-77' });
    expect(refused.status).toBe(400);
    expect(await storedHash(other.id)).toBe(hash);
    expect((await lastLog(FORGOT_PASSWORD_SUBMIT_LOG_KEY, other.email))?.payload).toMatchObject({
      result: 'Error',
      error: 'suspended',
    });
  });

  it("applies the tenant's password policy with its messages, and the code stays usable", async () => {
    const user = await createUser('reset_grace');
    const jar = new CookieJar();
    const page = await signInPage(jar);
    await requestCode(jar, page, user.email);
    const code = await codeFor(user.email);
    const hash = await storedHash(user.id);
    const short = await reset(jar, page, { email: user.email, code, password: 'Ab1!' });
    expect(short.status).toBe(400);
    expect(await short.text()).toContain('Choose a stronger password: it is shorter than 8 characters.');
    expect(await storedHash(user.id)).toBe(hash);
    expect((await lastLog(FORGOT_PASSWORD_SUBMIT_LOG_KEY, user.email))?.payload).toMatchObject({
      result: 'Error',
      error: 'password_rejected',
      rejections: ['password_rejected.too_short'],
    });
    expect((await reset(jar, page, { email: user.email, code, password: 'Brand-New-Pass-77' })).status).toBe(200);
  });

  it('limits the codes sent per address', async () => {
    const user = await createUser('reset_heidi');
    const jar = new CookieJar();
    const page = await signInPage(jar);
    for (let i = 0; i < RESET_RATE_LIMIT.perAddress + 1; i++) await requestCode(jar, page, user.email);
    await codeFor(user.email, RESET_RATE_LIMIT.perAddress);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo(user.email)).toHaveLength(RESET_RATE_LIMIT.perAddress);
    expect((await lastLog(FORGOT_PASSWORD_CREATE_LOG_KEY, user.email))?.payload).toMatchObject({
      result: 'Error',
      error: 'rate_limited',
    });
  }, 60_000);

  it('limits the codes sent per IP address', async () => {
    const delivery = deliveryOf(new EmailService(undefined));
    const meta = { ip: '203.0.113.9', userAgent };
    for (let i = 0; i < RESET_RATE_LIMIT.perIp; i++) {
      await requestPasswordReset(tenant(), { email: `ip${i}@example.com`, language: 'en', delivery }, meta);
    }
    const user = await createUser('reset_judy');
    await requestPasswordReset(tenant(), { email: user.email, language: 'en', delivery }, meta);
    expect(await lastLog(FORGOT_PASSWORD_CREATE_LOG_KEY, user.email)).toMatchObject({
      payload: { result: 'Error', error: 'rate_limited', ip: '203.0.113.9' },
    });
    expect(await tenant().findOne(passwordResetCodes, eq(passwordResetCodes.userId, user.id))).toBeUndefined();
  }, 60_000);

  it('speaks the language of the page, in the pages and the email', async () => {
    const user = await createUser('reset_karl');
    const jar = new CookieJar();
    const page = await signInPage(jar);
    const html = await (await post(jar, `${page}/forgot-password`, { email: user.email }, 'de')).text();
    expect(html).toContain('<html lang="de"');
    expect(html).toContain(`Falls ein Konto für ${user.email} existiert`);
    const code = await codeFor(user.email);
    expect(mailsTo(user.email)[0]?.subject).toBe(`Ihr Code zum Zurücksetzen des Passworts: ${code}`);
    const wrong = await post(
      jar,
      `${page}/reset-password`,
      { email: user.email, code: code === '000000' ? '111111' : '000000', password: 'x', password_confirm: 'x' },
      'de',
    );
    expect(await wrong.text()).toContain('Der Code ist falsch oder abgelaufen.');
  });

  it("does not accept one tenant's code in another tenant", async () => {
    const user = await createUser('reset_ivan');
    // A console account with the same email in the admin tenant.
    const admin = new TenantDb(server.database.db, ADMIN_TENANT_ID);
    const consoleUser = await admin.insert(users, {
      id: 'resetivanadm',
      username: 'reset_ivan_admin',
      primaryEmail: user.email,
      ...(await encryptPassword('Console-Pass-42')),
    });
    const jar = new CookieJar();
    const page = await signInPage(jar);
    await requestCode(jar, page, user.email);
    const code = await codeFor(user.email);

    const consoleJar = new CookieJar();
    const consolePage = await signInPage(consoleJar, consoleClient(server.base));
    const refused = await reset(consoleJar, consolePage, { email: user.email, code, password: 'Brand-New-Pass-77' });
    expect(refused.status).toBe(400);
    expect((await admin.findOne(users, eq(users.id, consoleUser.id)))?.passwordEncrypted).toBe(
      consoleUser.passwordEncrypted,
    );
    expect((await reset(jar, page, { email: user.email, code, password: 'Brand-New-Pass-77' })).status).toBe(200);
  });
});

describe('without SMTP', () => {
  it('shows no forgot-password link and has no forgot-password pages', async () => {
    const plain = await startTestHttpServer();
    try {
      await createFirstConsoleAdmin(new TenantDbs(plain.database.db), {
        username: 'console_admin',
        password: 'Console-Pass-42',
      });
      const jar = new CookieJar();
      const flow = consoleClient(plain.base);
      const { signInPage: page } = await flow.startAuthorization(jar);
      const html = await (await jar.fetch(page)).text();
      expect(html).toContain('autocomplete="current-password"');
      expect(html).not.toContain('forgot-password');
      expect((await jar.fetch(`${page}/forgot-password`)).status).toBe(400);
      expect((await post(jar, `${page}/forgot-password`, { email: 'a@example.com' })).status).toBe(400);
    } finally {
      await plain.close();
    }
  }, 60_000);
});
