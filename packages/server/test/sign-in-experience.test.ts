import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_TENANT_ID, defaultSignInExperience } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logs } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { bootstrapManagementToken, startTestHttpServer } from './support/http-server.ts';

/**
 * The sign-in experience API (issue 20; reference `/sign-in-exp`, `/custom-phrases`): defaults, partial updates with
 * cross-field rules, the audit log, every password-policy rejection code (the pwned check against a local range
 * service), custom phrases and the console's live preview.
 */

const BREACHED = 'Password-123-Breached';
let rangeServer: Server;
let rangeHits = 0;
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
  // A local breached-password range service: knows one password, pads its answers as the real one does.
  const hash = createHash('sha1').update(BREACHED).digest('hex').toUpperCase();
  rangeServer = createServer((request, response) => {
    rangeHits += 1;
    const prefix = request.url?.split('/').pop() ?? '';
    const lines = ['0018A45C4D1DEF81644B54AB7F969B88D65:0'];
    if (prefix === hash.slice(0, 5)) lines.push(`${hash.slice(5)}:42`);
    response.end(lines.join('\r\n'));
  });
  await new Promise<void>((resolve) => rangeServer.listen(0, '127.0.0.1', resolve));
  const { port } = rangeServer.address() as AddressInfo;
  server = await startTestHttpServer({ PWNED_PASSWORDS_URL: `http://127.0.0.1:${port}/range/` });
  token = await bootstrapManagementToken(server);
}, 60_000);

afterAll(async () => {
  await server.close();
  await new Promise((resolve) => rangeServer.close(resolve));
});

describe('GET and PATCH /sign-in-exp', () => {
  it('answers the defaults of spec §9 until something is saved', async () => {
    const { status, body } = await call('GET', '/sign-in-exp');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      tenantId: DEFAULT_TENANT_ID,
      id: 'default',
      color: { primaryColor: '#6139F6', isDarkModeEnabled: false },
      signInMode: 'SignInAndRegister',
      passwordPolicy: defaultSignInExperience.passwordPolicy,
      languageInfo: { autoDetect: true, fallbackLanguage: 'en' },
    });
  });

  it('merges the colour and the password policy, replaces the rest, audits before and after', async () => {
    const patched = await call('PATCH', '/sign-in-exp', {
      color: { primaryColor: '#0a7' },
      passwordPolicy: { length: { min: 10 } },
      termsOfUseUrl: 'https://example.com/terms',
      supportEmail: '',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      color: { primaryColor: '#0a7', darkPrimaryColor: '#8768F8' },
      passwordPolicy: { length: { min: 10, max: 256 }, characterTypes: { min: 1 } },
      termsOfUseUrl: 'https://example.com/terms',
      supportEmail: null,
    });
    expect((await call('GET', '/sign-in-exp')).body).toMatchObject({ termsOfUseUrl: 'https://example.com/terms' });
    const tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
    const [entry] = await tenant.findMany(logs, { where: eq(logs.key, 'Admin.SignInExperience.Updated') });
    expect(entry?.payload).toMatchObject({ entity: { type: 'SignInExperience', id: 'default' } });
    // Back to the defaults' values for the tests below.
    await call('PATCH', '/sign-in-exp', { passwordPolicy: { length: { min: 8 } }, termsOfUseUrl: null });
  });

  it.each([
    [{ color: { primaryColor: 'purple' } }, 'guard.invalid_input'],
    [{ termsOfUseUrl: 'javascript:alert(1)' }, 'guard.invalid_input'],
    [{ signInMode: 'Everything' }, 'guard.invalid_input'],
    [{ passwordPolicy: { length: { min: 300 } } }, 'guard.invalid_input'],
    [{ passwordPolicy: { length: { min: 40, max: 20 } } }, 'sign_in_experiences.invalid_password_length'],
    [{ mfa: { factors: ['BackupCode'], policy: 'UserControlled' } }, 'sign_in_experiences.backup_code_requires_totp'],
    // Both rules broken: the first is named (the shared `mfaSettingsProblems`, in its order).
    [{ mfa: { factors: ['BackupCode'], policy: 'Mandatory' } }, 'sign_in_experiences.backup_code_requires_totp'],
    [
      { mfa: { factors: ['EmailVerificationCode'], policy: 'Mandatory' } },
      'sign_in_experiences.mfa_policy_requires_factor',
    ],
    [
      { signUp: { identifiers: ['username'], password: false, verify: true } },
      'sign_in_experiences.username_requires_password',
    ],
    [
      {
        signIn: {
          methods: [{ identifier: 'email', password: true, verificationCode: false, isPasswordPrimary: true }],
        },
        signUp: { identifiers: ['email'], password: false, verify: false },
      },
      'sign_in_experiences.passwordless_requires_verify',
    ],
    [
      {
        signIn: {
          methods: [{ identifier: 'username', password: true, verificationCode: false, isPasswordPrimary: true }],
        },
        signUp: { identifiers: ['email'], password: true, verify: false },
      },
      'sign_in_experiences.miss_sign_up_identifier_in_sign_in',
    ],
    [
      {
        signIn: {
          methods: [{ identifier: 'email', password: false, verificationCode: true, isPasswordPrimary: false }],
        },
        signUp: { identifiers: ['email'], password: true, verify: true },
      },
      // Email codes need SMTP, which this server has not: the first rule broken is the password sign-in.
      'sign_in_experiences.password_sign_in_must_be_enabled',
    ],
    [
      {
        signIn: {
          methods: [{ identifier: 'email', password: true, verificationCode: false, isPasswordPrimary: true }],
        },
        signUp: { identifiers: ['email'], password: true, verify: true },
      },
      'sign_in_experiences.enabled_connector_not_found',
    ],
    [
      {
        signIn: {
          methods: [
            { identifier: 'username', password: true, verificationCode: false, isPasswordPrimary: true },
            { identifier: 'username', password: true, verificationCode: false, isPasswordPrimary: true },
          ],
        },
      },
      'sign_in_experiences.duplicated_sign_in_method',
    ],
    [
      {
        signIn: {
          methods: [{ identifier: 'phone', password: false, verificationCode: false, isPasswordPrimary: true }],
        },
      },
      'sign_in_experiences.at_least_one_authentication_factor',
    ],
    [{ signIn: { methods: [] } }, 'sign_in_experiences.empty_sign_in_methods'],
  ])('refuses %j with %s and saves nothing', async (patch, code) => {
    const before = await call('GET', '/sign-in-exp');
    const refused = await call('PATCH', '/sign-in-exp', patch);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(code);
    expect(refused.body.message).toEqual(expect.any(String));
    expect((await call('GET', '/sign-in-exp')).body).toEqual(before.body);
  });

  it('drops fields it does not declare, read-only ones included, as the reference does', async () => {
    const before = await call('GET', '/sign-in-exp');
    // A client PATCHing back a whole GET answer, plus a field of another version.
    const patched = await call('PATCH', '/sign-in-exp', { ...before.body, unknownField: true });
    expect(patched.status).toBe(200);
    expect(patched.body).not.toHaveProperty('unknownField');
    expect((await call('GET', '/sign-in-exp')).body).toEqual(before.body);
  });
});

describe('POST /sign-in-exp/default/check-password', () => {
  const check = (password: string, userId?: string) =>
    call('POST', '/sign-in-exp/default/check-password', { password, ...(userId ? { userId } : {}) });
  // Without a userId the user-info rule cannot be applied (400, as the reference): these checks run with it off.
  const userInfoRule = (on: boolean) =>
    call('PATCH', '/sign-in-exp', { passwordPolicy: { rejects: { userInfo: on } } });
  beforeAll(() => userInfoRule(false));
  afterAll(() => userInfoRule(true));

  it('accepts a good password', async () => {
    expect(await check('Quiet-Harbour-57')).toEqual({ status: 200, body: { result: true } });
  });

  it.each([
    ['short1!', 'password_rejected.too_short'],
    ['x'.repeat(257), 'password_rejected.too_long'],
    ['Pässwörter-und-mehr', 'password_rejected.unsupported_characters'],
    ['aaaaaaaaaaaa', 'password_rejected.restricted.repetition'],
    ['abcdefghijkl', 'password_rejected.restricted.sequence'],
  ])('%s → %s', async (password, code) => {
    const { body } = await check(password);
    expect(body.result).toBe(false);
    expect((body.issues as { code: string }[]).map((issue) => issue.code)).toContain(code);
  });

  it('tells the limits with the length codes, and follows the saved policy', async () => {
    expect((await check('short1!')).body.issues).toContainEqual({
      code: 'password_rejected.too_short',
      interpolation: { min: 8, max: 256 },
    });
    await call('PATCH', '/sign-in-exp', {
      passwordPolicy: { characterTypes: { min: 3 }, rejects: { words: ['gatehouse'] } },
    });
    const types = await check('lowercaseonly-words');
    expect(types.body.issues).toContainEqual({ code: 'password_rejected.character_types', interpolation: { min: 3 } });
    const words = await check('Gatehouse1!');
    expect((words.body.issues as { code: string }[]).map((issue) => issue.code)).toContain(
      'password_rejected.restricted.words',
    );
    await call('PATCH', '/sign-in-exp', { passwordPolicy: { characterTypes: { min: 1 }, rejects: { words: [] } } });
  });

  it("compares with the user's own name and identifiers when userId is given, 404 for an unknown user", async () => {
    await userInfoRule(true);
    const user = await call('POST', '/users', { username: 'marmaduke', name: 'Marmaduke Bright' });
    expect((await check('Marmaduke99', String(user.body.id))).body.issues).toContainEqual({
      code: 'password_rejected.restricted.user_info',
    });
    expect((await check('Marmaduke99', 'nobody12345')).status).toBe(404);
    const withoutUser = await check('Marmaduke99');
    expect(withoutUser.status, 'the rule needs a user').toBe(400);
    expect(withoutUser.body.code).toBe('request.invalid_input');
    await userInfoRule(false);
  });

  it('asks the range service for 5 hash characters only and refuses a breached password', async () => {
    const hits = rangeHits;
    expect((await check(BREACHED)).body).toEqual({ result: false, issues: [{ code: 'password_rejected.pwned' }] });
    expect(rangeHits).toBe(hits + 1);
    await call('PATCH', '/sign-in-exp', { passwordPolicy: { rejects: { pwned: false } } });
    expect((await check(BREACHED)).body).toEqual({ result: true });
    expect(rangeHits, 'the check is off: nothing asked').toBe(hits + 1);
    await call('PATCH', '/sign-in-exp', { passwordPolicy: { rejects: { pwned: true } } });
  });

  it('allows the password when the range service cannot be reached', async () => {
    const other = await startTestHttpServer({ PWNED_PASSWORDS_URL: 'http://127.0.0.1:9/range/' });
    try {
      const otherToken = await bootstrapManagementToken(other);
      await fetch(`${other.base}/api/sign-in-exp`, {
        method: 'PATCH',
        headers: { Authorization: `Bearer ${otherToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ passwordPolicy: { rejects: { userInfo: false } } }),
      });
      const response = await fetch(`${other.base}/api/sign-in-exp/default/check-password`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${otherToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ password: BREACHED }),
      });
      expect(await response.json()).toEqual({ result: true });
    } finally {
      await other.close();
    }
  });

  it('refuses a body without a password with 400', async () => {
    const refused = await call('POST', '/sign-in-exp/default/check-password', {});
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('guard.invalid_input');
  });
});

describe('/custom-phrases', () => {
  it('creates and replaces (201, as the reference), reads and lists a language, nested keys read as dotted ones', async () => {
    const created = await call('PUT', '/custom-phrases/fr', {
      submit: 'Entrer',
      rejected: { too_short: 'trop court' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      languageTag: 'fr',
      translation: { submit: 'Entrer', 'rejected.too_short': 'trop court' },
    });
    const replaced = await call('PUT', '/custom-phrases/fr', { submit: 'Se connecter maintenant' });
    expect(replaced.status).toBe(201);
    expect((await call('GET', '/custom-phrases/fr')).body.translation).toEqual({ submit: 'Se connecter maintenant' });
    const list = await call('GET', '/custom-phrases');
    expect(list.body).toEqual([expect.objectContaining({ languageTag: 'fr' })]);
  });

  it('refuses unknown keys and malformed language tags, and keeps the fallback language', async () => {
    const unknown = await call('PUT', '/custom-phrases/de', { not_a_key: 'x' });
    expect(unknown.status, 'the reference answers an unknown key 422').toBe(422);
    expect(unknown.body.code).toBe('localization.invalid_translation_structure');
    for (const malformed of ['en_US', 'x', 'i-klingon', 'a'.repeat(36)]) {
      expect((await call('PUT', `/custom-phrases/${malformed}`, { submit: 'x' })).status, malformed).toBe(400);
    }
    expect((await call('GET', '/custom-phrases/de')).status).toBe(404);

    await call('PUT', '/custom-phrases/en', { submit: 'Go' });
    const fallback = await call('DELETE', '/custom-phrases/en');
    expect(fallback.status).toBe(409);
    expect(fallback.body.code).toBe('localization.cannot_delete_default_language');
    expect((await call('GET', '/custom-phrases/en')).status).toBe(200);
    expect((await call('DELETE', '/custom-phrases/fr')).status).toBe(204);
    expect((await call('DELETE', '/custom-phrases/fr')).status).toBe(404);
  });
});

describe('POST /sign-in-exp/preview', () => {
  it('renders the real page with the unsaved settings, framable by the console only, and saves nothing', async () => {
    const before = await call('GET', '/sign-in-exp');
    const { status, body } = await call('POST', '/sign-in-exp/preview', {
      settings: {
        color: { primaryColor: '#ff5500' },
        termsOfUseUrl: 'https://example.com/terms',
        agreeToTermsPolicy: 'Manual',
        branding: { logoUrl: 'https://cdn.example.com/logo.png' },
      },
    });
    expect(status).toBe(201);
    expect(body.url).toMatch(/^\/sign-in-preview\/default\/[\w-]{32}$/);
    const page = await fetch(`${server.base}${body.url}?screen=sign_in&lang=ar&theme=dark`);
    expect(page.status).toBe(200);
    expect(page.headers.get('Content-Security-Policy')).toContain("frame-ancestors 'self'");
    expect(page.headers.get('X-Frame-Options')).toBe('SAMEORIGIN');
    const html = await page.text();
    expect(html).toContain('dir="rtl"');
    expect(html).toContain('data-theme="dark"');
    expect(html).toContain('src="https://cdn.example.com/logo.png"');
    expect(html).toContain('name="agree"');
    const theme = /href="([^"]*theme\.css[^"]*)"/.exec(html)?.[1] ?? '';
    expect(await (await fetch(`${server.base}${theme.replaceAll('&amp;', '&')}`)).text()).toContain('#ff5500');
    const register = await (await fetch(`${server.base}${body.url}?screen=register`)).text();
    expect(register).toContain('autocomplete="new-password"');
    expect((await call('GET', '/sign-in-exp')).body).toEqual(before.body);
    expect((await fetch(`${server.base}/sign-in-preview/default/${'x'.repeat(32)}`)).status).toBe(404);
  });

  it('is named for an application as the real page is: the one asked for, else the first users sign in to', async () => {
    const created = async (name: string, type: string) =>
      (await call('POST', '/applications', { name, type, oidcClientMetadata: { redirectUris: [] } })).body as {
        id: string;
      };
    await created('Billing robot', 'MachineToMachine');
    await created('Storefront', 'SPA');
    const admin = await created('Back office', 'Traditional');
    const { body } = await call('POST', '/sign-in-exp/preview', { settings: {} });
    const title = async (query: string) =>
      /<h1[^>]*>([^<]*)</.exec(
        await (await fetch(`${server.base}${body.url}?screen=sign_in&lang=en${query}`)).text(),
      )?.[1];
    expect(await title(''), 'the first application users sign in to, not the tenant').toContain('Storefront');
    expect(await title(`&app=${admin.id}`)).toContain('Back office');
    const chosen = await (await fetch(`${server.base}${body.url}?screen=sign_in&app=${admin.id}`)).text();
    expect(chosen, 'its links keep the application').toContain(`app=${admin.id}`);
  });
});

describe('the public endpoints for sign-in UIs', () => {
  it('answers the sign-in experience and the phrases without a token, custom phrases applied', async () => {
    const experience = await fetch(`${server.base}/api/.well-known/sign-in-exp`);
    expect(experience.status).toBe(200);
    expect(await experience.json()).toMatchObject({
      id: 'default',
      forgotPassword: { email: false, phone: false },
      socialConnectors: [],
    });
    await call('PUT', '/custom-phrases/de', { submit: 'Los geht’s' });
    const german = await fetch(`${server.base}/api/.well-known/phrases?lng=DE`);
    expect(german.headers.get('Content-Language')).toBe('de');
    const phrases = (await german.json()) as Record<string, string>;
    expect(phrases.submit).toBe('Los geht’s');
    expect(phrases.password).toBe('Passwort');
    const fallback = (await (await fetch(`${server.base}/api/.well-known/phrases?lng=xx`)).json()) as Record<
      string,
      string
    >;
    expect(fallback.password).toBe('Password');
    await call('DELETE', '/custom-phrases/de');
  });
});
