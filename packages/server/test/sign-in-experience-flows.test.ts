import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { and, eq, lt, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { interactionCodes, oidcModelInstances, users } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { bootstrapManagementToken, CookieJar, startTestHttpServer } from './support/http-server.ts';
import { oidcClient } from './support/oidc-flow.ts';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';

/**
 * The end-user pages under each sign-in experience setting (issue 20), signed in through by an independent relying
 * party library (openid-client 6: discovery, PKCE, the code grant, ID token validation), the browser's part driven
 * over HTTP and the emailed codes read from a local SMTP sink.
 */

let sink: SmtpSink;
let server: Awaited<ReturnType<typeof startTestHttpServer>>;
let token: string;
let clientId: string;
let config: client.Configuration;
const redirectUri = 'https://shop.example.com/callback';

type Json = Record<string, unknown>;
async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.base}/api${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.ok, `${method} ${path}: ${response.status} ${text}`).toBe(true);
  return (text ? JSON.parse(text) : {}) as Json;
}

const passwordMethod = (identifier: 'username' | 'email', verificationCode = false) => ({
  identifier,
  password: true,
  verificationCode,
  isPasswordPrimary: true,
});
const defaults = {
  signInMode: 'SignInAndRegister',
  signIn: { methods: [passwordMethod('username'), passwordMethod('email')] },
  signUp: { identifiers: ['username'], password: true, verify: false },
  termsOfUseUrl: null,
  privacyPolicyUrl: null,
  agreeToTermsPolicy: 'ManualRegistrationOnly',
};

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startTestHttpServer({ SMTP_URL: sink.url, EMAIL_FROM: 'Shop <auth@shop.example.com>' });
  token = await bootstrapManagementToken(server);
  const app = await api('POST', '/applications', {
    name: 'Acme Shop',
    type: 'SPA',
    oidcClientMetadata: { redirectUris: [redirectUri] },
  });
  clientId = String(app.id);
  await api('POST', '/users', { username: 'olive', primaryEmail: 'olive@example.com', password: 'Olive-Branch-77' });
  config = await client.discovery(new URL(`${server.base}/oidc`), clientId, undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  });
}, 60_000);

afterAll(async () => {
  await server.close();
  await sink.close();
});

beforeEach(async () => {
  await api('PATCH', '/sign-in-exp', defaults);
});

const oidc = () =>
  oidcClient(server.base, { tenantId: DEFAULT_TENANT_ID, clientId, redirectUri, defaultResources: [] });
const form = (jar: CookieJar, url: string, fields: Record<string, string>) =>
  jar.fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Language': 'en' },
    body: new URLSearchParams(fields),
  });

/** An authorization request built by openid-client; answers the sign-in page it leads to. */
async function authorize(extra: Record<string, string> = {}) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid profile email',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...extra,
  });
  const jar = new CookieJar();
  const first = await jar.fetch(url.href);
  expect(first.status).toBe(303);
  const page = oidc().absolute(first.headers.get('Location') ?? '');
  /** Follows the finished interaction to the callback and lets openid-client redeem and validate it. */
  const finish = async (response: Response) => {
    expect(response.status, await response.clone().text()).toBe(303);
    const callback = await oidc().followToCallback(jar, response);
    const tokens = await client
      .authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state })
      .catch((error: unknown) => {
        throw new Error(`token request refused: ${JSON.stringify((error as { cause?: unknown }).cause)}`);
      });
    return (tokens.claims() ?? {}) as Record<string, unknown>;
  };
  return { jar, page, finish, html: async (suffix = '') => (await jar.fetch(`${page}${suffix}`)).text() };
}

const mailTo = (address: string) => sink.received.filter((email) => email.envelopeTo.includes(address));

/** The last code emailed to an address, once more than `previous` messages reached it. */
async function codeSentTo(address: string, previous = 0): Promise<string> {
  for (let wait = 0; wait < 50; wait++) {
    const messages = mailTo(address);
    const message = messages.length > previous ? messages.at(-1) : undefined;
    const code = message?.text?.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no code emailed to ${address}`);
}

describe('sign-in with a password', () => {
  it('by username and by email, as the methods allow; other identifiers are refused', async () => {
    const byUsername = await authorize();
    const html = await byUsername.html();
    expect(html).toContain('Sign in to Acme Shop');
    expect(html).toContain('Username or email');
    const claims = await byUsername.finish(
      await form(byUsername.jar, `${byUsername.page}/login`, { identifier: 'olive', password: 'Olive-Branch-77' }),
    );
    expect(claims.email).toBe('olive@example.com');
    expect(claims.email_verified, 'set by an admin: the admin’s word').toBe(true);

    const byEmail = await authorize();
    await byEmail.finish(
      await form(byEmail.jar, `${byEmail.page}/login`, {
        identifier: 'Olive@Example.com',
        password: 'Olive-Branch-77',
      }),
    );

    await api('PATCH', '/sign-in-exp', {
      signIn: { methods: [passwordMethod('email')] },
      signUp: { identifiers: ['email'], password: true, verify: false },
    });
    const emailOnly = await authorize();
    expect(await emailOnly.html()).toMatch(/<label for="identifier">Email<\/label>/);
    const refused = await form(emailOnly.jar, `${emailOnly.page}/login`, {
      identifier: 'olive',
      password: 'Olive-Branch-77',
    });
    expect(refused.status).toBe(401);
  });

  it('identifier first (first_screen=identifier:sign_in), then the password', async () => {
    const flow = await authorize({ first_screen: 'identifier:sign_in', login_hint: 'olive' });
    const first = await flow.html();
    expect(first).not.toContain('type="password"');
    expect(first).toContain('value="olive"');
    const step = await form(flow.jar, `${flow.page}/identifier`, { identifier: 'olive' });
    const stepHtml = await step.text();
    expect(stepHtml).toContain('type="password"');
    expect(stepHtml).toContain('<input type="hidden" name="identifier" value="olive">');
    const wrong = await form(flow.jar, `${flow.page}/login`, {
      identifier: 'olive',
      password: 'nope',
      step: 'password',
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text(), 'the fixed identifier stays').toContain('name="step"');
    await flow.finish(
      await form(flow.jar, `${flow.page}/login`, {
        identifier: 'olive',
        password: 'Olive-Branch-77',
        step: 'password',
      }),
    );
  });

  it('first_screen chooses the first page, the deprecated signIn included', async () => {
    expect(await (await authorize({ first_screen: 'register' })).html()).toContain('Create your Acme Shop account');
    expect(await (await authorize({ first_screen: 'signIn' })).html()).toContain('Sign in to Acme Shop');
    expect(await (await authorize({ first_screen: 'single_sign_on' })).html()).toContain('Sign in to Acme Shop');
    expect(await (await authorize({ first_screen: 'reset_password' })).html()).toContain('Reset your password');
    expect(await (await authorize({ interaction_mode: 'signUp' })).html()).toContain('autocomplete="new-password"');
  });

  it('enforces the terms when the policy is Manual, and names them when it is Automatic', async () => {
    await api('PATCH', '/sign-in-exp', {
      termsOfUseUrl: 'https://shop.example.com/terms',
      privacyPolicyUrl: 'https://shop.example.com/privacy',
      agreeToTermsPolicy: 'Manual',
    });
    const flow = await authorize();
    expect(await flow.html()).toContain('name="agree"');
    const refused = await form(flow.jar, `${flow.page}/login`, { identifier: 'olive', password: 'Olive-Branch-77' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('Agree to the terms to continue.');
    await flow.finish(
      await form(flow.jar, `${flow.page}/login`, { identifier: 'olive', password: 'Olive-Branch-77', agree: 'yes' }),
    );

    await api('PATCH', '/sign-in-exp', { agreeToTermsPolicy: 'Automatic' });
    const automatic = await (await authorize()).html();
    expect(automatic).not.toContain('name="agree"');
    expect(automatic).toContain('By continuing, you agree to the');
    expect(automatic).toContain('href="https://shop.example.com/terms"');
  });
});

describe('sign-up', () => {
  it('with email verification: the account exists only after the emailed code, and email_verified is true', async () => {
    await api('PATCH', '/sign-in-exp', {
      signIn: { methods: [passwordMethod('email', true), passwordMethod('username')] },
      signUp: { identifiers: ['email'], password: true, verify: true },
    });
    const flow = await authorize({ first_screen: 'register' });
    const page = await flow.html();
    expect(page).not.toContain('name="username"');
    expect(page).toMatch(/<input id="email" name="email" type="email" autocomplete="username" required/);
    const address = 'new.buyer@example.com';
    const sent = await form(flow.jar, `${flow.page}/register`, {
      email: address,
      password: 'Fresh-Basket-31',
      password_confirm: 'Fresh-Basket-31',
    });
    expect(sent.status).toBe(200);
    expect(await sent.text()).toContain(`We sent a code to ${address}`);
    const tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
    expect(await tenant.findOne(users, eq(users.primaryEmail, address)), 'not before the code').toBeUndefined();

    const code = await codeSentTo(address);
    const wrong = await form(flow.jar, `${flow.page}/register/verify`, {
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('The code is incorrect or has expired.');

    // The code works only in the browser session that asked for it.
    const other = await authorize({ first_screen: 'register' });
    expect((await form(other.jar, `${other.page}/register/verify`, { code })).status).toBe(400);

    const claims = await flow.finish(await form(flow.jar, `${flow.page}/register/verify`, { code }));
    expect(claims).toMatchObject({ email: address, email_verified: true });
    const user = await tenant.findOne(users, eq(users.primaryEmail, address));
    expect(user?.passwordEncrypted).toMatch(/^\$argon2id\$/);
    expect(user?.username).toBeNull();
  });

  it('with a typed, unverified email: email_verified is false', async () => {
    const flow = await authorize({ first_screen: 'register' });
    const claims = await flow.finish(
      await form(flow.jar, `${flow.page}/register`, {
        username: 'typed_buyer',
        email: 'typed.buyer@example.com',
        password: 'Typed-Basket-44',
        password_confirm: 'Typed-Basket-44',
      }),
    );
    expect(claims).toMatchObject({ email: 'typed.buyer@example.com', email_verified: false });
  });

  it("the email blocklist applies: disposable domains, sub-addressing, the tenant's entries, its allowlist", async () => {
    // An entry that is neither an address, @domain nor a domain is refused, nothing saved.
    const refused = await fetch(`${server.base}/api/sign-in-exp`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ emailBlocklistPolicy: { customBlocklist: ['not a domain'] } }),
    });
    expect(refused.status).toBe(400);
    expect(((await api('GET', '/sign-in-exp')).emailBlocklistPolicy as Json).customBlocklist).toBeUndefined();
    await api('PATCH', '/sign-in-exp', {
      emailBlocklistPolicy: {
        blockDisposableAddresses: true,
        blockSubaddressing: true,
        customBlocklist: ['@blocked.example', 'someone@shop.example.com'],
        customAllowlist: ['vip@blocked.example'],
      },
    });
    try {
      const tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
      const register = async (username: string, email: string) => {
        const flow = await authorize({ first_screen: 'register' });
        const fields = { username, email, password: 'Block-List-2468', password_confirm: 'Block-List-2468' };
        return { flow, response: await form(flow.jar, `${flow.page}/register`, fields) };
      };
      for (const [username, email] of [
        ['throwaway', 'someone@mailinator.com'],
        ['tagged', 'buyer+news@example.com'],
        ['subdomain', 'buyer@eu.blocked.example'],
        ['listed', 'Someone@shop.example.com'],
      ] as const) {
        const { response } = await register(username, email);
        expect(response.status, email).toBe(400);
        expect(await response.text(), email).toContain('This email address cannot be used here.');
        expect(await tenant.findOne(users, eq(users.username, username)), email).toBeUndefined();
      }
      const allowed = await register('vip_buyer', 'vip@blocked.example');
      const claims = await allowed.flow.finish(allowed.response);
      expect(claims.email).toBe('vip@blocked.example');
    } finally {
      await api('PATCH', '/sign-in-exp', { emailBlocklistPolicy: {} });
    }
  });

  it('the tenant password policy applies', async () => {
    await api('PATCH', '/sign-in-exp', { passwordPolicy: { length: { min: 14 } } });
    const flow = await authorize({ first_screen: 'register' });
    const refused = await form(flow.jar, `${flow.page}/register`, {
      username: 'short_pass',
      password: 'Only-12-char',
      password_confirm: 'Only-12-char',
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('shorter than 14 characters');
    await api('PATCH', '/sign-in-exp', { passwordPolicy: { length: { min: 8 } } });
  });

  it("the tenant's username policy applies: lengths and character classes, nothing saved when refused", async () => {
    const policy = {
      caseSensitive: false,
      minLength: 4,
      maxLength: 12,
      allowedChars: { lowercase: true, uppercase: false, numbers: true, underscore: false },
    };
    await api('PATCH', '/sign-in-exp', { usernamePolicy: policy });
    try {
      const tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
      const register = async (username: string) => {
        const flow = await authorize({ first_screen: 'register' });
        const fields = { username, password: 'Policy-Check-8642', password_confirm: 'Policy-Check-8642' };
        return { flow, response: await form(flow.jar, `${flow.page}/register`, fields) };
      };
      for (const [username, message] of [
        ['abc', 'Use at least 4 characters for your username.'],
        ['waytoolongname', 'Use at most 12 characters for your username.'],
        ['Shopper', 'Usernames cannot contain uppercase letters.'],
        ['shop_per', 'Usernames cannot contain underscores.'],
      ] as const) {
        const { response } = await register(username);
        expect(response.status, username).toBe(422);
        const page = await response.text();
        expect(page, username).toContain(message);
        expect(page, 'the typed username is shown again').toContain(`value="${username}"`);
        expect(await tenant.findOne(users, sql`lower(${users.username}) = ${username.toLowerCase()}`)).toBeUndefined();
      }
      const refusals = await api('GET', '/logs?logKey=Interaction.Register.Submit&page_size=100');
      const errors = (refusals as unknown as { payload: { error?: string } }[]).map((log) => log.payload.error);
      expect(errors).toEqual(
        expect.arrayContaining(['user.username_too_short', 'user.username_uppercase_not_allowed']),
      );

      const allowed = await register('shopper42');
      const claims = await allowed.flow.finish(allowed.response);
      expect(claims.sub).toBeTruthy();
      expect((await tenant.findOne(users, eq(users.username, 'shopper42')))?.id).toBe(claims.sub);
    } finally {
      await api('PATCH', '/sign-in-exp', {
        usernamePolicy: {
          ...policy,
          minLength: 1,
          maxLength: 128,
          allowedChars: { ...policy.allowedChars, uppercase: true, underscore: true },
        },
      });
    }
  });

  it('sign-in only refuses registration; register only refuses sign-in', async () => {
    await api('PATCH', '/sign-in-exp', { signInMode: 'SignIn' });
    const closed = await authorize();
    expect(await closed.html()).not.toContain('screen=register');
    expect((await closed.jar.fetch(`${closed.page}?screen=register`)).status).toBe(403);
    const posted = await form(closed.jar, `${closed.page}/register`, {
      username: 'gatecrasher',
      password: 'Gate-Crash-99',
      password_confirm: 'Gate-Crash-99',
    });
    expect(posted.status).toBe(403);
    const tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
    expect(await tenant.findOne(users, eq(users.username, 'gatecrasher'))).toBeUndefined();

    await api('PATCH', '/sign-in-exp', { signInMode: 'Register' });
    const registerOnly = await authorize();
    expect(await registerOnly.html()).toContain('Create your Acme Shop account');
    const login = await form(registerOnly.jar, `${registerOnly.page}/login`, {
      identifier: 'olive',
      password: 'Olive-Branch-77',
    });
    expect(login.status).toBe(403);
  });
});

describe('sign-in by email code', () => {
  it('emails a code to an account’s address only, signs in with it and proves the address', async () => {
    await api('PATCH', '/sign-in-exp', {
      signIn: { methods: [passwordMethod('username'), passwordMethod('email', true)] },
    });
    await api('POST', '/users', { username: 'quill', primaryEmail: 'quill@example.com' });
    const tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
    await tenant.update(users, eq(users.username, 'quill'), { primaryEmailVerified: false });

    const flow = await authorize();
    expect(await flow.html()).toContain('Sign in with a code sent to your email');
    const unknown = await form(flow.jar, `${flow.page}/code-sign-in`, { email: 'nobody@example.com' });
    const known = await form(flow.jar, `${flow.page}/code-sign-in`, { email: 'quill@example.com' });
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(await unknown.text(), 'the same answer either way').toContain('If an account exists for nobody@example.com');
    const code = await codeSentTo('quill@example.com');
    expect(sink.received.some((email) => email.envelopeTo.includes('nobody@example.com'))).toBe(false);
    const claims = await flow.finish(await form(flow.jar, `${flow.page}/code-sign-in/verify`, { code }));
    expect(claims).toMatchObject({ email: 'quill@example.com', email_verified: true });
  });
});

describe('codes of the sign-in pages', () => {
  const codeMethods = { signIn: { methods: [passwordMethod('username'), passwordMethod('email', true)] } };

  it('refuses a reused code, an expired one, and too many tries', async () => {
    await api('PATCH', '/sign-in-exp', codeMethods);
    await api('POST', '/users', { username: 'rowan', primaryEmail: 'rowan@example.com' });
    const flow = await authorize();
    await form(flow.jar, `${flow.page}/code-sign-in`, { email: 'rowan@example.com' });
    const code = await codeSentTo('rowan@example.com');
    await flow.finish(await form(flow.jar, `${flow.page}/code-sign-in/verify`, { code }));

    // The same code again, in a new interaction of the same browser: spent, and bound to the first interaction.
    const again = await authorize();
    const reused = await form(again.jar, `${again.page}/code-sign-in/verify`, { code });
    expect(reused.status).toBe(400);

    // A code past its 10 minutes.
    await form(again.jar, `${again.page}/code-sign-in`, { email: 'rowan@example.com' });
    const late = await codeSentTo('rowan@example.com', 1);
    const tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
    await tenant.update(interactionCodes, eq(interactionCodes.email, 'rowan@example.com'), {
      expiresAt: new Date(Date.now() - 1000),
    });
    expect((await form(again.jar, `${again.page}/code-sign-in/verify`, { code: late })).status).toBe(400);

    // Five wrong tries spend a code: the right one no longer works.
    await form(again.jar, `${again.page}/code-sign-in`, { email: 'rowan@example.com' });
    const fresh = await codeSentTo('rowan@example.com', 2);
    const wrong = fresh === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 5; attempt++) {
      await form(again.jar, `${again.page}/code-sign-in/verify`, { code: wrong });
    }
    const exhausted = await form(again.jar, `${again.page}/code-sign-in/verify`, { code: fresh });
    expect(exhausted.status).toBe(429);
    expect(await exhausted.text()).toContain('Too many incorrect codes');
  });

  it('sends at most 5 codes per address an hour, and says so', async () => {
    await api('PATCH', '/sign-in-exp', codeMethods);
    await api('POST', '/users', { username: 'hazel', primaryEmail: 'hazel@example.com' });
    const flow = await authorize();
    const statuses: number[] = [];
    for (let request = 0; request < 6; request++) {
      statuses.push((await form(flow.jar, `${flow.page}/code-sign-in`, { email: 'hazel@example.com' })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await form(flow.jar, `${flow.page}/code-sign-in`, { email: 'hazel@example.com' });
    expect(await limited.text()).toContain('Too many codes were requested');
  });
});

describe('custom content', () => {
  it("shows the tenant's own words on the page they name, as text", async () => {
    await api('PATCH', '/sign-in-exp', {
      customContent: { '/sign-in': 'Staff only.\n\nCall <b>IT</b> at 5555\nor write.', '/register': 'Ask first.' },
    });
    try {
      const signIn = await (await authorize()).html();
      expect(signIn).toContain(
        '<div class="custom-content"><p>Staff only.</p><p>Call &lt;b&gt;IT&lt;/b&gt; at 5555\nor write.</p></div>',
      );
      expect(signIn).not.toContain('Ask first.');
      const register = await (await authorize({ first_screen: 'register' })).html();
      expect(register).toContain('<p>Ask first.</p>');
      expect(register).not.toContain('Staff only.');
    } finally {
      await api('PATCH', '/sign-in-exp', { customContent: {} });
    }
  });
});

describe('the session lifetime (/configs/oidc/session)', () => {
  it('is 14 days until set; a new value applies to sessions started after it', async () => {
    expect(await api('GET', '/configs/oidc/session')).toEqual({ ttl: 1_209_600 });
    const refused = await fetch(`${server.base}/api/configs/oidc/session`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ttl: 0 }),
    });
    expect(refused.status).toBe(400);
    expect(await api('PATCH', '/configs/oidc/session', { ttl: 3600 })).toEqual({ ttl: 3600 });
    const started = Date.now();
    const flow = await authorize();
    await flow.finish(await form(flow.jar, `${flow.page}/login`, { identifier: 'olive', password: 'Olive-Branch-77' }));
    const tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
    // Earlier tests' sessions end in 14 days; the new one within the hour.
    const sessions = await tenant.findMany(oidcModelInstances, {
      where: and(
        eq(oidcModelInstances.modelName, 'Session'),
        lt(oidcModelInstances.expiresAt, new Date(started + 24 * 3600_000)),
      ),
    });
    expect(sessions).toHaveLength(1);
    const endsIn = (sessions[0]?.expiresAt?.getTime() ?? 0) - started;
    expect(endsIn).toBeGreaterThan(3500_000);
    expect(endsIn).toBeLessThan(3700_000);
    await api('PATCH', '/configs/oidc/session', { ttl: 1_209_600 });
  });
});

describe('the look', () => {
  it('shows the tenant’s colours, logo, custom CSS and custom phrases, and the Powered-by line unless hidden', async () => {
    await api('PATCH', '/sign-in-exp', {
      color: { primaryColor: '#ffd500', isDarkModeEnabled: true, darkPrimaryColor: '#333399' },
      branding: { logoUrl: 'https://shop.example.com/logo.svg', favicon: 'https://shop.example.com/icon.png' },
      customCss: 'main { border-radius: 0 }',
      supportEmail: 'help@shop.example.com',
    });
    await api('PUT', '/custom-phrases/en', { submit: 'Enter the shop' });
    const flow = await authorize();
    const html = await flow.html();
    expect(html).toContain('data-theme="auto"');
    expect(html).toContain('<img class="logo logo-light" src="https://shop.example.com/logo.svg" alt="Acme Shop">');
    expect(html).toContain('<link rel="icon" href="https://shop.example.com/icon.png">');
    expect(html).toContain('Enter the shop');
    expect(html).toContain('href="mailto:help@shop.example.com"');
    expect(html).toContain('Powered by Gatehouse');
    const theme = /href="(\/interaction\/default\/theme\.css[^"]*)"/.exec(html)?.[1]?.replaceAll('&amp;', '&') ?? '';
    const css = await (await fetch(`${server.base}${theme}`)).text();
    expect(css).toContain('--primary:#ffd500;--on-primary:#111111');
    expect(css, 'a pale brand colour is darkened for links').not.toContain('--link:#ffd500');
    expect(css).toContain('main { border-radius: 0 }');
    await api('PATCH', '/sign-in-exp', { hideLogtoBranding: true, customCss: null, branding: {} });
    expect(await (await authorize()).html()).not.toContain('Powered by');
  });

  it('shows custom phrases of a language no built-in one serves over the fallback language (issue 43)', async () => {
    await api('PUT', '/custom-phrases/vi-VN', { submit: 'Tiếp tục' });
    const vietnamese = await (await authorize({ ui_locales: 'vi-VN de' })).html();
    expect(vietnamese).toContain('Tiếp tục');
    expect(vietnamese, 'the other strings in the fallback language (en), as the reference shows English').toContain(
      'Password',
    );
    const german = await (await authorize({ ui_locales: 'de vi-VN' })).html();
    expect(german, 'the first language the visitor prefers decides').not.toContain('Tiếp tục');
    expect(german).toContain('Passwort');
    await api('DELETE', '/custom-phrases/vi-VN');
  });
});
