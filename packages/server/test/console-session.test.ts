import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { and, eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ME_RESOURCE, managementResource } from '../src/auth/issuers.ts';
import { logs, outbox, users } from '../src/db/tables.ts';
import { TenantDb, TenantDbs } from '../src/db/tenant-db.ts';
import { createFirstConsoleAdmin } from '../src/services/console-admin.ts';
import { REGISTER_LOG_KEY } from '../src/services/registration.ts';
import { CookieJar, startTestHttpServer } from './support/http-server.ts';
import { consoleClient } from './support/oidc-flow.ts';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';

type Tokens = { access_token: string; id_token: string; refresh_token?: string; error?: string };
const mgmt = managementResource(DEFAULT_TENANT_ID);

describe('a console session (OSS)', () => {
  let server: Awaited<ReturnType<typeof startTestHttpServer>>;
  let oidc: ReturnType<typeof consoleClient>;
  beforeAll(async () => {
    server = await startTestHttpServer();
    oidc = consoleClient(server.base);
    await createFirstConsoleAdmin(new TenantDbs(server.database.db), {
      username: 'console_admin',
      password: 'correct-horse-battery',
    });
  });
  afterAll(() => server.close());

  async function signIn(jar: CookieJar) {
    const { verifier, signInPage } = await oidc.startAuthorization(jar, { resources: [mgmt, ME_RESOURCE] });
    const callback = await oidc.followToCallback(
      jar,
      await oidc.submit(jar, signInPage, 'console_admin', 'correct-horse-battery'),
    );
    const response = await oidc.redeemCode(callback.searchParams.get('code') ?? '', verifier, { resource: mgmt });
    expect(response.status).toBe(200);
    return (await response.json()) as Tokens;
  }

  it('gets a management token at sign-in and a me token with the rotating refresh token', async () => {
    const tokens = await signIn(new CookieJar());
    expect(decodeJwt(tokens.access_token).aud).toBe(mgmt);
    // The tenant cannot read the admin tenant's users: the token names the admin, and a write records the name.
    expect(decodeJwt(tokens.access_token).name).toBe('console_admin');
    const created = await fetch(`${server.base}/api/roles`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokens.access_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'named-actor', description: 'Made by a console admin.' }),
    });
    expect(created.status).toBe(200);
    const [entry] = await new TenantDb(server.database.db, DEFAULT_TENANT_ID).findMany(logs, {
      where: eq(logs.key, 'Admin.Role.Created'),
    });
    expect(entry?.payload).toMatchObject({ actor: { type: 'user', name: 'console_admin' } });
    expect(tokens.refresh_token).toBeTruthy();

    const meResponse = await oidc.refresh(tokens.refresh_token ?? '', ME_RESOURCE);
    expect(meResponse.status).toBe(200);
    const me = (await meResponse.json()) as Tokens;
    expect(decodeJwt(me.access_token)).toMatchObject({ aud: ME_RESOURCE, scope: 'all' });
    const profile = await fetch(`${server.base}/api/me`, { headers: { Authorization: `Bearer ${me.access_token}` } });
    expect(profile.status).toBe(200);
    expect(((await profile.json()) as { username: string }).username).toBe('console_admin');
    const wrongApi = await fetch(`${server.base}/api/roles`, {
      headers: { Authorization: `Bearer ${me.access_token}` },
    });
    expect(wrongApi.status, 'a me token does not open the management API').toBe(401);

    expect(me.refresh_token, 'refresh tokens rotate').toBeTruthy();
    expect(me.refresh_token).not.toBe(tokens.refresh_token);
    const replayed = await oidc.refresh(tokens.refresh_token ?? '', mgmt);
    expect(replayed.status, 'a spent refresh token is refused').toBe(400);
    expect(((await replayed.json()) as Tokens).error).toBe('invalid_grant');
  });

  it('refuses a resource that the grant does not hold', async () => {
    const jar = new CookieJar();
    const { verifier, signInPage } = await oidc.startAuthorization(jar, { resources: [mgmt] });
    const callback = await oidc.followToCallback(
      jar,
      await oidc.submit(jar, signInPage, 'console_admin', 'correct-horse-battery'),
    );
    const tokens = (await (
      await oidc.redeemCode(callback.searchParams.get('code') ?? '', verifier, { resource: mgmt })
    ).json()) as Tokens;
    const other = await oidc.refresh(tokens.refresh_token ?? '', ME_RESOURCE);
    expect(other.status).toBe(400);
    expect(((await other.json()) as Tokens).error).toBe('invalid_target');
  });

  it('signs out at the provider: the confirmation submits itself under a hash-only CSP, and the session ends', async () => {
    const jar = new CookieJar();
    const tokens = await signIn(jar);
    const params = new URLSearchParams({
      id_token_hint: tokens.id_token,
      post_logout_redirect_uri: `${server.base}/console`,
      client_id: 'admin-console',
    });
    const confirmation = await jar.fetch(`${oidc.issuer}/session/end?${params}`);
    expect(confirmation.status).toBe(200);
    const csp = confirmation.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'sha256-[\w+/=]+'/);
    expect(csp).not.toContain('unsafe-inline');
    const html = await confirmation.text();
    expect(html).toContain('<script>document.forms[0].submit()</script>');
    const action = /action="([^"]+)"/.exec(html)?.[1] ?? '';
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(action).not.toBe('');
    const ended = await oidc.submitForm(jar, oidc.absolute(action.replaceAll('&amp;', '&')), { xsrf, logout: 'yes' });
    expect(ended.status).toBe(303);
    expect(ended.headers.get('Location')).toBe(`${server.base}/console`);

    // Without a session, a silent authorization request must ask for a login.
    const silent = new URLSearchParams({
      client_id: 'admin-console',
      response_type: 'code',
      redirect_uri: oidc.redirectUri,
      scope: 'openid',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
      prompt: 'none',
    });
    const after = await jar.fetch(`${oidc.issuer}/auth?${silent}`);
    const location = new URL(oidc.absolute(after.headers.get('Location') ?? ''));
    expect(location.searchParams.get('error')).toBe('login_required');
  });

  it('keeps console registration closed in OSS: no link, and the sign-up screen says so', async () => {
    const jar = new CookieJar();
    const { signInPage } = await oidc.startAuthorization(jar);
    expect(await (await jar.fetch(signInPage)).text()).not.toContain('screen=register');
    const closed = await jar.fetch(`${signInPage}?screen=register`);
    expect(closed.status).toBe(403);
    expect(await closed.text()).toContain('New accounts cannot be created here.');
    const posted = await oidc.submitForm(jar, `${signInPage}/register`, {
      username: 'intruder',
      password: 'Tea-party-at-4',
      password_confirm: 'Tea-party-at-4',
    });
    expect(posted.status).toBe(403);
    const admin = new TenantDb(server.database.db, ADMIN_TENANT_ID);
    expect(await admin.findOne(users, eq(users.username, 'intruder'))).toBeUndefined();
  });
});

describe('sign-up (cloud console accounts)', () => {
  let server: Awaited<ReturnType<typeof startTestHttpServer>>;
  let oidc: ReturnType<typeof consoleClient>;
  beforeAll(async () => {
    server = await startTestHttpServer({ EDITION: 'cloud' });
    oidc = consoleClient(server.base);
  });
  afterAll(() => server.close());
  const admin = () => new TenantDb(server.database.db, ADMIN_TENANT_ID);

  it('shows the sign-up screen for interaction_mode=signUp, with a way back to sign-in', async () => {
    const jar = new CookieJar();
    const { signInPage } = await oidc.startAuthorization(jar, { extra: { interaction_mode: 'signUp' } });
    const html = await (await jar.fetch(signInPage)).text();
    expect(html).toContain('Create your Gatehouse account');
    expect(html).toContain('autocomplete="new-password"');
    expect(html).toContain('screen=sign_in');
    const signIn = await (await jar.fetch(`${signInPage}?screen=sign_in`)).text();
    expect(signIn).toContain('Sign in to Gatehouse');
    expect(signIn).toContain('screen=register');
  });

  it('refuses bad input with the reason and creates nothing', async () => {
    const jar = new CookieJar();
    const { signInPage } = await oidc.startAuthorization(jar, { extra: { interaction_mode: 'signUp' } });
    const register = (fields: Record<string, string>, language = 'en') =>
      oidc.submitForm(jar, `${signInPage}/register`, fields, language);
    const cases: [Record<string, string>, string][] = [
      [{ username: '9lives', password: 'Tea-party-at-4', password_confirm: 'Tea-party-at-4' }, 'Start with a letter'],
      [
        { username: 'hatter', email: 'not-an-email', password: 'Tea-party-at-4', password_confirm: 'Tea-party-at-4' },
        'Enter a valid email address.',
      ],
      [{ username: 'hatter', password: 'Tea-party-at-4', password_confirm: 'Tea-party-at-5' }, 'do not match'],
      [{ username: 'hatter', password: 'short', password_confirm: 'short' }, 'shorter than 8 characters'],
      [{ username: 'hatter', password: 'hatterhatter', password_confirm: 'hatterhatter' }, 'your own name'],
    ];
    for (const [fields, message] of cases) {
      const response = await register(fields);
      expect(response.status, message).toBe(400);
      expect(await response.text()).toContain(message);
    }
    const german = await register({ username: 'hatter', password: 'aaaaaaaaaa', password_confirm: 'aaaaaaaaaa' }, 'de');
    expect(await german.text()).toContain('wiederholten Zeichen');
    expect(await admin().findOne(users, eq(users.username, 'hatter'))).toBeUndefined();
  });

  it('creates the account, signs it in, audits it and queues PostRegister', async () => {
    const jar = new CookieJar();
    const { verifier, signInPage } = await oidc.startAuthorization(jar, {
      resources: [mgmt, ME_RESOURCE],
      extra: { interaction_mode: 'signUp' },
    });
    const created = await oidc.submitForm(jar, `${signInPage}/register`, {
      username: 'hatter',
      email: 'hatter@example.com',
      password: 'Tea-party-at-4',
      password_confirm: 'Tea-party-at-4',
    });
    expect(created.status).toBe(303);
    const callback = await oidc.followToCallback(jar, created);
    const response = await oidc.redeemCode(callback.searchParams.get('code') ?? '', verifier, { resource: mgmt });
    const tokens = (await response.json()) as Tokens;
    const user = await admin().findOne(users, eq(users.username, 'hatter'));
    expect(user?.primaryEmail).toBe('hatter@example.com');
    expect(user?.primaryEmailVerified, 'typed, not proven: this server sends no mail').toBe(false);
    expect(user?.passwordEncrypted).toMatch(/^\$argon2id\$/);
    expect(decodeJwt(tokens.id_token).sub).toBe(user?.id);
    expect(decodeJwt(tokens.access_token).scope ?? '', 'a new account holds no console role').not.toContain('all');

    const [entry] = await admin().findMany(logs, { where: eq(logs.key, REGISTER_LOG_KEY) });
    expect(entry?.payload).toMatchObject({ result: 'Success', entity: { type: 'User', id: user?.id } });
    const events = await admin().findMany(outbox, { where: eq(outbox.event, 'PostRegister') });
    expect(events).toHaveLength(1);

    const again = new CookieJar();
    const second = await oidc.startAuthorization(again, { extra: { interaction_mode: 'signUp' } });
    const taken = await oidc.submitForm(again, `${second.signInPage}/register`, {
      username: 'HATTER',
      password: 'Tea-party-at-4',
      password_confirm: 'Tea-party-at-4',
    });
    expect(taken.status).toBe(422);
    expect(await taken.text()).toContain('already registered');
    const failures = await admin().findMany(logs, {
      where: and(eq(logs.key, REGISTER_LOG_KEY)),
    });
    expect(failures.map((row) => (row.payload as { result: string }).result).sort()).toEqual(['Error', 'Success']);
  });
});

describe('sign-up of a console account with an email, where mail is sent (issue 39, item 6)', () => {
  let sink: SmtpSink;
  let server: Awaited<ReturnType<typeof startTestHttpServer>>;
  let oidc: ReturnType<typeof consoleClient>;
  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestHttpServer({ EDITION: 'cloud', SMTP_URL: sink.url, EMAIL_FROM: 'Cloud <c@example.test>' });
    oidc = consoleClient(server.base);
  });
  afterAll(async () => {
    await server.close();
    await sink.close();
  });

  it('proves the typed email by code before the account exists', async () => {
    const jar = new CookieJar();
    const { verifier, signInPage } = await oidc.startAuthorization(jar, {
      resources: [mgmt, ME_RESOURCE],
      extra: { interaction_mode: 'signUp' },
    });
    const admin = new TenantDb(server.database.db, ADMIN_TENANT_ID);
    const asked = await oidc.submitForm(jar, `${signInPage}/register`, {
      username: 'dormouse',
      email: 'Dormouse@Example.com',
      password: 'Tea-party-at-4',
      password_confirm: 'Tea-party-at-4',
    });
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain('We sent a code to Dormouse@Example.com');
    expect(await admin.findOne(users, eq(users.username, 'dormouse')), 'no account before the code').toBeUndefined();
    await vi.waitFor(() =>
      expect(sink.received.some((mail) => mail.envelopeTo.includes('dormouse@example.com'))).toBe(true),
    );
    const mail = sink.received.find((message) => message.envelopeTo.includes('dormouse@example.com'));
    const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1] ?? '';
    const done = await oidc.submitForm(jar, `${signInPage}/register/verify`, { code });
    expect(done.status).toBe(303);
    const callback = await oidc.followToCallback(jar, done);
    const response = await oidc.redeemCode(callback.searchParams.get('code') ?? '', verifier, { resource: mgmt });
    expect(response.status).toBe(200);
    const user = await admin.findOne(users, eq(users.username, 'dormouse'));
    expect(user).toMatchObject({ primaryEmail: 'dormouse@example.com', primaryEmailVerified: true });
  });
});
