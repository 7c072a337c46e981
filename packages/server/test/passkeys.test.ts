import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID, generateId } from '@gatehouse/schemas';
import { and, eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ME_RESOURCE } from '../src/auth/issuers.ts';
import { SigningKeyStore } from '../src/auth/signing-keys.ts';
import { loadConfig } from '../src/config.ts';
import { CHANGES_CHANNEL, ChangeNotices } from '../src/db/change-notices.ts';
import type { DatabaseHandle } from '../src/db/client.ts';
import { logs, userMfaVerifications, users, type WebAuthnCredentialData } from '../src/db/tables.ts';
import { TenantDb, TenantDbs } from '../src/db/tenant-db.ts';
import { createHttpServer } from '../src/http-server.ts';
import { MFA_BIND_LOG_KEY, MFA_VERIFY_LOG_KEY } from '../src/services/mfa-sign-in.ts';
import {
  authenticationOptions,
  insertPasskey,
  registrationOptions,
  relyingPartyOf,
  verifyPasskey,
  verifyRegistration,
  WEBAUTHN_TIMEOUT_MS,
} from '../src/services/passkeys.ts';
import { hashPassword } from '../src/services/passwords.ts';
import { SIGN_IN_LOG_KEY } from '../src/services/sign-in-completion.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { createTestDatabase } from './support/database.ts';
import { bootstrapManagementToken, CookieJar } from './support/http-server.ts';
import { oidcClient } from './support/oidc-flow.ts';
import { TEST_SECRETS_KEY } from './support/secrets.ts';
import {
  type AuthenticationAnswer,
  type CreationOptionsJSON,
  type PasskeyForm,
  passkeyFormsOf,
  type RegistrationAnswer,
  type RequestOptionsJSON,
  SoftAuthenticator,
} from './support/soft-authenticator.ts';

/**
 * Passkeys (docs/areas/passkeys.md) through the real pages over HTTP, answered by a software authenticator
 * (support/soft-authenticator.ts): set up and asked for as the second factor after a password, refused when anything
 * of the answer is wrong, signing in alone (passkey sign-in), offered after a password sign-in, and a console account's
 * own passkeys and authenticator app through the 'me' API.
 *
 * Passkeys need a domain name as PUBLIC_URL (an IP address cannot be a relying-party ID, services/passkeys.ts), and
 * support/http-server.ts serves on `http://127.0.0.1:<port>`: this file starts the same server with PUBLIC_URL
 * `http://localhost:<port>` (origin that URL's, RP ID `localhost`).
 */

/** The real HTTP server as support/http-server.ts starts it, with `http://localhost:<port>` as PUBLIC_URL. */
async function startLocalhostServer(): Promise<{ base: string; database: DatabaseHandle; close: () => Promise<void> }> {
  const database = await createTestDatabase();
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  const base = `http://localhost:${port}`;
  const config = loadConfig({
    PUBLIC_URL: base,
    DATA_DIR: '.tmp/unused',
    PWNED_PASSWORDS_URL: 'off',
    SECRETS_KEY: TEST_SECRETS_KEY,
  });
  const notices = new ChangeNotices();
  const stopListening = await database.listen(CHANGES_CHANNEL, notices);
  const http = createHttpServer({
    config,
    db: database.db,
    tenants: new TenantDbs(database.db),
    keys: new SigningKeyStore(new TenantDbs(database.db)),
    log: pino({ level: 'silent' }),
    notices,
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  return {
    base,
    database,
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
      await stopListening();
      await database.close();
    },
  };
}

let server: Awaited<ReturnType<typeof startLocalhostServer>>;
let adminToken: string;
let clientId: string;
const redirectUri = 'https://passkey-spa.example.com/callback';
const password = 'Passkey-Sign-In-Pass-42';
/** A browser's user agent: the passkey is named after it ("Chrome on macOS"). */
const userAgent =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const failedText = 'That passkey could not be used. Try again, or sign in another way.';
const expiredText = 'This sign-in page has expired. Go back to the application and start again.';

// biome-ignore lint/suspicious/noExplicitAny: API answers are read loosely and checked by the expectations.
type Json = any;
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
  return text ? JSON.parse(text) : {};
}

const oidc = () =>
  oidcClient(server.base, { tenantId: DEFAULT_TENANT_ID, clientId, redirectUri, defaultResources: [] });
const signInExperience = (patch: Json) => api('/sign-in-exp', { method: 'PATCH', body: patch });
const tenant = () => new TenantDb(server.database.db, DEFAULT_TENANT_ID);
const pathOf = (url: string) => new URL(url).pathname;
const absolute = (path: string) => new URL(path, server.base).toString();
/** A browser on PUBLIC_URL's origin. */
const newAuthenticator = (options: { backedUp?: boolean } = {}) =>
  new SoftAuthenticator({ origin: new URL(server.base).origin, ...options });

beforeAll(async () => {
  server = await startLocalhostServer();
  adminToken = await bootstrapManagementToken(server);
  clientId = String(
    (
      await api('/applications', {
        method: 'POST',
        body: { name: 'Passkey SPA', type: 'SPA', oidcClientMetadata: { redirectUris: [redirectUri] } },
      })
    ).id,
  );
});
afterAll(() => server?.close());

async function newUser(username: string): Promise<string> {
  return String((await api('/users', { method: 'POST', body: { username, password } })).id);
}

/** Starts a sign-in (in `jar`, a new browser by default) and gives the password. */
async function passwordStep(username: string, jar = new CookieJar()) {
  const flow = oidc();
  const { verifier, signInPage } = await flow.startAuthorization(jar, { scope: 'openid offline_access' });
  const submitted = await flow.submit(jar, signInPage, username, password);
  return { flow, jar, verifier, page: signInPage, submitted };
}
type Step = Awaited<ReturnType<typeof passwordStep>>;

const post = (jar: CookieJar, url: string, fields: Record<string, string>) =>
  jar.fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Accept-Language': 'en',
      'User-Agent': userAgent,
    },
    body: new URLSearchParams(fields),
  });

/** What the sign-in script does with the browser's answer: its JSON in the form's `credential` field, posted. */
const postAnswer = (jar: CookieJar, form: PasskeyForm, answer: RegistrationAnswer | AuthenticationAnswer) =>
  post(jar, absolute(form.action), { credential: JSON.stringify(answer) });

async function getPage(jar: CookieJar, url: string) {
  const response = await jar.fetch(url, { headers: { 'Accept-Language': 'en', 'User-Agent': userAgent } });
  return { status: response.status, html: await response.text() };
}

/** The page's one passkey form, of the mode expected. */
function onlyForm(html: string, mode: 'get' | 'create'): PasskeyForm {
  const forms = passkeyFormsOf(html);
  expect(forms, 'one passkey form on the page').toHaveLength(1);
  const [form] = forms;
  expect(form?.mode).toBe(mode);
  return form as PasskeyForm;
}
const creationOptions = (form: PasskeyForm) => form.options as unknown as CreationOptionsJSON;
const requestOptions = (form: PasskeyForm) => form.options as unknown as RequestOptionsJSON;

async function tokensAfter(step: Pick<Step, 'flow' | 'jar' | 'verifier'>, response: Response) {
  const callback = await step.flow.followToCallback(step.jar, response);
  const tokens = await step.flow.redeemCode(callback.searchParams.get('code') ?? '', step.verifier);
  expect(tokens.status).toBe(200);
  const body = (await tokens.json()) as { id_token: string };
  return { ...body, claims: decodeJwt(body.id_token) };
}

const entries = (key: string, userId: string) =>
  tenant().findMany(logs, { where: and(eq(logs.key, key as never), eq(logs.userId, userId)) });
const errorsOf = async (key: string, userId: string) =>
  (await entries(key, userId))
    .filter((entry) => entry.payload.result === 'Error')
    .map((entry) => entry.payload.error)
    .sort();

const factorsOf = async (userId: string): Promise<Json[]> => api(`/users/${userId}/mfa-verifications`);
const storedPasskey = async (credentialId: string) => {
  const [row] = await tenant().findMany(userMfaVerifications, {
    where: eq(userMfaVerifications.credentialId, credentialId),
  });
  return row as (typeof userMfaVerifications.$inferSelect & { data: WebAuthnCredentialData }) | undefined;
};

/** After the password, the enrolment page's passkey form (a user without a factor, under a policy that asks for one). */
async function enrolmentForm(username: string) {
  const step = await passwordStep(username);
  expect(step.submitted.status).toBe(303);
  expect(step.submitted.headers.get('Location')).toBe(`${pathOf(step.page)}/mfa`);
  const page = await getPage(step.jar, `${step.page}/mfa`);
  expect(page.status).toBe(200);
  return { step, html: page.html, form: onlyForm(page.html, 'create') };
}

/** After the password, the verify page's passkey form (a user holding a passkey). */
async function verifyForm(username: string) {
  const step = await passwordStep(username);
  expect(step.submitted.headers.get('Location')).toBe(`${pathOf(step.page)}/mfa`);
  const page = await getPage(step.jar, `${step.page}/mfa`);
  expect(page.status).toBe(200);
  return { step, html: page.html, form: onlyForm(page.html, 'get') };
}

describe('passkeys as the second factor', () => {
  beforeAll(() => signInExperience({ mfa: { factors: ['WebAuthn'], policy: 'Mandatory' } }));
  afterAll(() => signInExperience({ mfa: { factors: [], policy: 'UserControlled' } }));

  it('sets one up after the password when the tenant requires a second factor and offers passkeys', async () => {
    const id = await newUser('pk_enrol_user');
    const { step, html, form } = await enrolmentForm('pk_enrol_user');
    expect(html).toContain('data-passkey="create"');
    expect(html, 'only passkeys offered: no authenticator app').not.toContain('Set up an authenticator app');
    expect(html, 'required: no way to skip').not.toContain('Skip for now');
    expect(form.action).toBe(`${pathOf(step.page)}/mfa/enroll-passkey`);
    const options = creationOptions(form);
    expect(options).toMatchObject({
      rp: { id: 'localhost' },
      user: { name: 'pk_enrol_user' },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      excludeCredentials: [],
    });
    expect(Buffer.from(options.user.id, 'base64url').toString()).toBe(id);

    const authenticator = newAuthenticator();
    const bound = await postAnswer(step.jar, form, authenticator.register(options));
    expect(bound.status).toBe(303);
    const { claims } = await tokensAfter(step, bound);
    expect(claims.sub).toBe(id);
    expect(claims.amr).toEqual(['mfa', 'hwk']);

    const factors = await factorsOf(id);
    expect(factors).toEqual([
      expect.objectContaining({ type: 'WebAuthn', name: 'Chrome on macOS', agent: userAgent, backedUp: false }),
    ]);
    const row = await storedPasskey(authenticator.id);
    expect(row?.userId).toBe(id);
    expect(row?.data).toMatchObject({ rpId: 'localhost', counter: 0, deviceType: 'singleDevice', backedUp: false });
    const [bind, ...more] = await entries(MFA_BIND_LOG_KEY, id);
    expect(more).toEqual([]);
    expect(bind?.payload).toMatchObject({ result: 'Success', factors: ['WebAuthn'] });
    const [signIn] = await entries(SIGN_IN_LOG_KEY, id);
    expect(signIn?.payload).toMatchObject({ method: 'Password', factors: ['Password', 'WebAuthnBound'] });
  });

  it('asks for the passkey at the next sign-in; two passkeys of one user both work', async () => {
    await signInExperience({ mfa: { factors: ['WebAuthn', 'BackupCode'], policy: 'Mandatory' } });
    try {
      const id = await newUser('pk_two_keys_user');
      // Two browsers at the enrolment at once: each sets up its own passkey.
      const first = await enrolmentForm('pk_two_keys_user');
      const second = await enrolmentForm('pk_two_keys_user');
      const laptop = newAuthenticator();
      const phone = newAuthenticator({ backedUp: true });
      const withCodes = await postAnswer(first.step.jar, first.form, laptop.register(creationOptions(first.form)));
      expect(withCodes.status, 'the first factor comes with backup codes').toBe(200);
      const codesPage = await withCodes.text();
      expect(codesPage).toContain('Save your backup codes');
      expect(codesPage.match(/<li>[0-9a-z]{10}<\/li>/g)).toHaveLength(10);
      const done = await post(first.step.jar, `${first.step.page}/mfa/done`, {});
      expect(done.status).toBe(303);
      expect((await tokensAfter(first.step, done)).claims.amr).toEqual(['mfa', 'hwk']);
      const synced = await postAnswer(second.step.jar, second.form, phone.register(creationOptions(second.form)));
      expect(synced.status, 'backup codes exist already: none again').toBe(303);
      expect((await tokensAfter(second.step, synced)).claims.amr).toEqual(['mfa', 'swk']);
      const factors = await factorsOf(id);
      expect(factors.map((factor) => factor.type).sort()).toEqual(['BackupCode', 'WebAuthn', 'WebAuthn']);

      // The next sign-in asks for a passkey, either of them.
      for (const [authenticator, key] of [
        [laptop, 'hwk'],
        [phone, 'swk'],
      ] as const) {
        const { step, html, form } = await verifyForm('pk_two_keys_user');
        expect(html).toContain('data-passkey="get"');
        expect(html).toContain(`href="${pathOf(step.page)}/mfa?factor=backup_code"`);
        expect(form.action).toBe(`${pathOf(step.page)}/mfa/passkey`);
        const options = requestOptions(form);
        expect(options.rpId).toBe('localhost');
        expect(options.userVerification).toBe('preferred');
        expect(options.allowCredentials?.map((credential) => credential.id).sort()).toEqual(
          [laptop.id, phone.id].sort(),
        );
        const accepted = await postAnswer(step.jar, form, authenticator.authenticate(options));
        expect(accepted.status).toBe(303);
        const { claims } = await tokensAfter(step, accepted);
        expect(claims).toMatchObject({ sub: id, amr: ['mfa', key, 'user'] });
        const row = await storedPasskey(authenticator.id);
        expect(row?.data.counter, 'the signature counter is kept').toBe(authenticator.counter);
        expect(row?.lastUsedAt).not.toBeNull();
      }
      const verified = (await entries(MFA_VERIFY_LOG_KEY, id)).map((entry) => entry.payload);
      expect(verified).toEqual([
        expect.objectContaining({ result: 'Success', factor: 'webauthn' }),
        expect.objectContaining({ result: 'Success', factor: 'webauthn' }),
      ]);
    } finally {
      await signInExperience({ mfa: { factors: ['WebAuthn'], policy: 'Mandatory' } });
    }
  });

  it('refuses a wrong origin, a wrong RP ID, a replay, a forged signature, a counter going back, a removed passkey', async () => {
    const id = await newUser('pk_refusals_user');
    const first = await enrolmentForm('pk_refusals_user');
    const second = await enrolmentForm('pk_refusals_user');
    const authenticator = newAuthenticator();
    const removed = newAuthenticator();
    expect(
      (await postAnswer(first.step.jar, first.form, authenticator.register(creationOptions(first.form)))).status,
    ).toBe(303);
    expect(
      (await postAnswer(second.step.jar, second.form, removed.register(creationOptions(second.form)))).status,
    ).toBe(303);
    // A copy of the key taken now, before the authenticator signs again.
    const cloned = authenticator.clone();

    // Two sign-ins with the real authenticator: its counter goes to 2, and its answers are kept.
    const answers: AuthenticationAnswer[] = [];
    for (let i = 0; i < 2; i++) {
      const { step, form } = await verifyForm('pk_refusals_user');
      answers.push(authenticator.authenticate(requestOptions(form)));
      expect((await postAnswer(step.jar, form, answers[i] as AuthenticationAnswer)).status).toBe(303);
    }
    expect((await storedPasskey(authenticator.id))?.data.counter).toBe(2);
    const errorsBefore = await errorsOf(MFA_VERIFY_LOG_KEY, id);
    expect(errorsBefore).toEqual([]);

    const { step, form: firstForm } = await verifyForm('pk_refusals_user');
    let form = firstForm;
    /** Each refusal leaves the sign-in at the verify page (401), with a new challenge for the next attempt. */
    const refused = async (label: string, answer: AuthenticationAnswer) => {
      const response = await postAnswer(step.jar, form, answer);
      expect(response.status, label).toBe(401);
      const html = await response.text();
      expect(html, label).toContain(failedText);
      const next = onlyForm(html, 'get');
      expect(next.action, label).toBe(`${pathOf(step.page)}/mfa/passkey`);
      expect(requestOptions(next).challenge, `${label}: a new challenge`).not.toBe(requestOptions(form).challenge);
      form = next;
    };
    await refused(
      'wrong origin',
      authenticator.authenticate(requestOptions(form), { origin: 'http://evil.localhost' }),
    );
    await refused('wrong RP ID', authenticator.authenticate(requestOptions(form), { rpId: 'evil.example.com' }));
    await refused('replay of an accepted answer', answers[1] as AuthenticationAnswer);
    const forged = authenticator.authenticate(requestOptions(form));
    forged.response.signature = removed.authenticate(requestOptions(form)).response.signature;
    await refused('a signature by another key', forged);
    // The clone's counter (1) is behind the one already accepted (2): a cloned authenticator.
    await refused('counter going back', cloned.authenticate(requestOptions(form)));
    // The counter's refusal leaves the stored counter where it was.
    expect((await storedPasskey(authenticator.id))?.data.counter).toBe(2);

    // Removed by the admin: its answers are refused from then on.
    const removedRow = await storedPasskey(removed.id);
    const deleted = await fetch(`${server.base}/api/users/${id}/mfa-verifications/${removedRow?.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    expect(deleted.status).toBe(204);
    expect(await storedPasskey(removed.id)).toBeUndefined();
    await refused('a removed passkey', removed.authenticate(requestOptions(form)));

    expect(await errorsOf(MFA_VERIFY_LOG_KEY, id)).toEqual(
      ['counter', 'invalid', 'invalid', 'invalid', 'invalid', 'unknown_credential'].sort(),
    );
    for (const entry of (await entries(MFA_VERIFY_LOG_KEY, id)).filter((row) => row.payload.result === 'Error')) {
      expect(entry.payload).toMatchObject({ factor: 'webauthn', userAgent });
    }
    // Nothing was recorded as a sign-in by the refusals; the real authenticator still completes this one.
    const signInsBefore = (await entries(SIGN_IN_LOG_KEY, id)).length;
    const accepted = await postAnswer(step.jar, form, authenticator.authenticate(requestOptions(form)));
    expect(accepted.status).toBe(303);
    expect((await tokensAfter(step, accepted)).claims).toMatchObject({ sub: id, amr: ['mfa', 'hwk', 'user'] });
    expect(await entries(SIGN_IN_LOG_KEY, id)).toHaveLength(signInsBefore + 1);
    expect((await storedPasskey(authenticator.id))?.data.counter).toBe(authenticator.counter);
  });
});

/** A password sign-in offered a passkey (passkey sign-in on), and the passkey made there. */
async function createdAtOffer(username: string, authenticator: SoftAuthenticator) {
  const step = await passwordStep(username);
  expect(step.submitted.status).toBe(303);
  expect(step.submitted.headers.get('Location')).toBe(`${pathOf(step.page)}/passkey/offer`);
  const page = await getPage(step.jar, `${step.page}/passkey/offer`);
  expect(page.status).toBe(200);
  const form = onlyForm(page.html, 'create');
  const created = await postAnswer(step.jar, form, authenticator.register(creationOptions(form)));
  return { step, html: page.html, form, created };
}

/** The first screen's passkey form, and the options its script asks for. */
async function passkeySignInStart(jar = new CookieJar()) {
  const flow = oidc();
  const { verifier, signInPage } = await flow.startAuthorization(jar, { scope: 'openid offline_access' });
  const page = await getPage(jar, signInPage);
  const form = onlyForm(page.html, 'get');
  const response = await jar.fetch(absolute(form.optionsUrl ?? ''), {
    method: 'POST',
    headers: { Accept: 'application/json' },
  });
  return { flow, jar, verifier, page: signInPage, html: page.html, form, response };
}

describe('signing in with a passkey alone', () => {
  beforeAll(() => signInExperience({ passkeySignIn: { enabled: true, showPasskeyButton: true, allowAutofill: true } }));
  afterAll(() => signInExperience({ passkeySignIn: { enabled: false } }));

  it('offers a passkey after a password sign-in; the one made there is stored and not offered again', async () => {
    const id = await newUser('pk_offer_user');
    const authenticator = newAuthenticator({ backedUp: true });
    const { step, html, form, created } = await createdAtOffer('pk_offer_user', authenticator);
    expect(html).toContain('Sign in faster next time');
    expect(html).toContain(`action="${pathOf(step.page)}/passkey/offer/skip"`);
    expect(form.action).toBe(`${pathOf(step.page)}/passkey/offer`);
    expect(created.status).toBe(303);
    expect((await tokensAfter(step, created)).claims).toMatchObject({ sub: id });
    expect(await factorsOf(id)).toEqual([
      expect.objectContaining({ type: 'WebAuthn', name: 'Chrome on macOS', backedUp: true }),
    ]);
    const [signIn] = await entries(SIGN_IN_LOG_KEY, id);
    expect(signIn?.payload).toMatchObject({ method: 'Password', passkeyCreated: true });

    // A user holding a passkey is not offered another.
    const next = await passwordStep('pk_offer_user');
    expect(next.submitted.status).toBe(303);
    expect(next.submitted.headers.get('Location')).not.toContain('/passkey/offer');
    expect((await tokensAfter(next, next.submitted)).claims.sub).toBe(id);
  });

  it('refuses a bad answer at the offer, and "Not now" is remembered in the browser', async () => {
    const id = await newUser('pk_decline_user');
    const { step, form, created } = await createdAtOffer(
      'pk_decline_user',
      new SoftAuthenticator({ origin: 'http://evil.localhost' }),
    );
    expect(created.status, 'made on another origin').toBe(400);
    const again = await created.text();
    expect(again).toContain(failedText);
    expect(creationOptions(onlyForm(again, 'create')).challenge).not.toBe(creationOptions(form).challenge);
    expect(await factorsOf(id)).toEqual([]);

    const skipped = await post(step.jar, `${step.page}/passkey/offer/skip`, {});
    expect(skipped.status).toBe(303);
    const cookie = skipped.headers.getSetCookie().find((line) => line.startsWith('gatehouse_passkey_offer='));
    expect(cookie).toMatch(/^gatehouse_passkey_offer=declined; Path=\/interaction\/default; Max-Age=\d+; HttpOnly; /);
    expect((await tokensAfter(step, skipped)).claims.sub).toBe(id);
    expect(await factorsOf(id)).toEqual([]);

    // The same browser is not asked again; another browser is.
    const later = await passwordStep('pk_decline_user', step.jar);
    expect(later.submitted.status).toBe(303);
    expect(later.submitted.headers.get('Location')).not.toContain('/passkey/offer');
    expect((await tokensAfter(later, later.submitted)).claims.sub).toBe(id);
    const elsewhere = await passwordStep('pk_decline_user');
    expect(elsewhere.submitted.headers.get('Location')).toBe(`${pathOf(elsewhere.page)}/passkey/offer`);
  });

  it('is not offered, in any browser, to a user whose passkeySignIn.skipped an admin set (logto-configs)', async () => {
    const id = await newUser('pk_admin_skipped');
    await api(`/users/${id}/logto-configs`, { method: 'PATCH', body: { passkeySignIn: { skipped: true } } });
    const step = await passwordStep('pk_admin_skipped');
    expect(step.submitted.status).toBe(303);
    expect(step.submitted.headers.get('Location')).not.toContain('/passkey/offer');
    expect((await tokensAfter(step, step.submitted)).claims.sub).toBe(id);
    // Cleared, the offer comes back.
    await api(`/users/${id}/logto-configs`, { method: 'PATCH', body: { passkeySignIn: { skipped: false } } });
    const later = await passwordStep('pk_admin_skipped');
    expect(later.submitted.headers.get('Location')).toBe(`${pathOf(later.page)}/passkey/offer`);
  });

  it('signs in with a passkey and no password: user verification makes it two factors', async () => {
    const id = await newUser('pk_alone_user');
    const authenticator = newAuthenticator();
    expect((await createdAtOffer('pk_alone_user', authenticator)).created.status).toBe(303);

    const start = await passkeySignInStart();
    expect(start.html).toContain('autocomplete="username webauthn"');
    expect(start.html).toContain('Sign in with a passkey');
    expect(start.html).toContain('data-autofill');
    expect(start.form.optionsUrl).toBe(`${pathOf(start.page)}/passkey/options`);
    expect(start.form.action).toBe(`${pathOf(start.page)}/passkey`);
    expect(start.response.status).toBe(200);
    expect(start.response.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(start.response.headers.get('Cache-Control')).toBe('no-store');
    const options = (await start.response.json()) as RequestOptionsJSON;
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(options.challenge).toMatch(/^[\w-]{16,}$/);
    expect(options, 'any passkey of the site: the browser asks which').not.toHaveProperty('allowCredentials');

    const accepted = await postAnswer(start.jar, start.form, authenticator.authenticate(options));
    expect(accepted.status).toBe(303);
    const { claims } = await tokensAfter(start, accepted);
    expect(claims.sub).toBe(id);
    expect(claims.amr).toEqual(['mfa', 'hwk', 'user']);
    const signIns = (await entries(SIGN_IN_LOG_KEY, id)).map((entry) => entry.payload);
    expect(signIns).toContainEqual(
      expect.objectContaining({
        result: 'Success',
        method: 'Passkey',
        passkeyId: (await storedPasskey(authenticator.id))?.id,
      }),
    );
    expect((await storedPasskey(authenticator.id))?.data.counter).toBe(authenticator.counter);
  });

  it('refuses a passkey without user verification, a replay, a suspended user and a passkey of another tenant', async () => {
    const id = await newUser('pk_alone_refused');
    const authenticator = newAuthenticator();
    expect((await createdAtOffer('pk_alone_refused', authenticator)).created.status).toBe(303);
    const passkeyFailures = async () =>
      (await tenant().findMany(logs, { where: eq(logs.key, SIGN_IN_LOG_KEY) })).filter(
        (entry) => entry.payload.result === 'Error' && entry.payload.factor === 'webauthn',
      );
    /** A refused answer: the first screen again (401), and one more failure audited, answered. */
    const rejectedAt = async (label: string, answer: (options: RequestOptionsJSON) => AuthenticationAnswer) => {
      const before = new Set((await passkeyFailures()).map((entry) => entry.id));
      const start = await passkeySignInStart();
      const options = (await start.response.json()) as RequestOptionsJSON;
      const response = await postAnswer(start.jar, start.form, answer(options));
      expect(response.status, label).toBe(401);
      const html = await response.text();
      expect(html, label).toContain(failedText);
      expect(html, `${label}: back at the first screen`).toContain(`action="${pathOf(start.page)}/login"`);
      const added = (await passkeyFailures()).filter((entry) => !before.has(entry.id));
      expect(added, label).toHaveLength(1);
      expect(added[0], label).toMatchObject({ applicationId: clientId, payload: { userAgent } });
      return { options, failure: added[0] };
    };

    const unverified = await rejectedAt('no user verification', (options) =>
      authenticator.authenticate(options, { userVerified: false }),
    );
    expect(unverified.options.userVerification).toBe('required');
    expect(unverified.failure?.payload.error).toBe('invalid');
    // An answer to another interaction's challenge.
    const honest = authenticator.authenticate(
      (await (await passkeySignInStart()).response.json()) as RequestOptionsJSON,
    );
    expect((await rejectedAt('an answer for another challenge', () => honest)).failure?.payload.error).toBe('invalid');
    // A suspended user's passkey is refused like a wrong one (audited with the user).
    await api(`/users/${id}/is-suspended`, { method: 'PATCH', body: { isSuspended: true } });
    const suspended = await rejectedAt('a suspended user', (options) => authenticator.authenticate(options));
    expect(suspended.failure).toMatchObject({ userId: id, payload: { error: 'suspended' } });
    await api(`/users/${id}/is-suspended`, { method: 'PATCH', body: { isSuspended: false } });
    expect((await entries(SIGN_IN_LOG_KEY, id)).filter((entry) => entry.payload.method === 'Passkey')).toEqual([]);

    // A passkey of the admin tenant's account, made for the same site (one PUBLIC_URL serves every tenant).
    const admin = new TenantDb(server.database.db, ADMIN_TENANT_ID);
    const consoleUser = await admin.insert(users, {
      id: generateId(12),
      username: 'pk_console_user',
      passwordEncrypted: await hashPassword(password),
      passwordEncryptionMethod: 'Argon2id',
    });
    const rp = relyingPartyOf(server.base, 'Gatehouse');
    if (!rp) throw new Error('PUBLIC_URL must be a domain name here');
    const foreign = newAuthenticator();
    const registration = await registrationOptions(rp, consoleUser, []);
    const verified = await verifyRegistration(
      rp,
      registration.challenge,
      foreign.register(registration.options as CreationOptionsJSON),
      {},
    );
    if (!verified) throw new Error('the admin tenant passkey did not verify');
    await insertPasskey(admin, consoleUser.id, verified);
    // It works in its own tenant…
    const own = await authenticationOptions(rp, undefined, 'required');
    const inOwnTenant = await verifyPasskey(admin, rp, own.challenge, foreign.authenticate(own.options), {
      requireUserVerification: true,
    });
    expect(inOwnTenant).toMatchObject({ ok: true, userId: consoleUser.id });
    // …and is unknown in this one.
    const isolated = await rejectedAt('a passkey of another tenant', (options) => foreign.authenticate(options));
    expect(isolated.failure).toMatchObject({ userId: null, payload: { error: 'unknown_credential' } });

    // The user's own passkey still signs in.
    const start = await passkeySignInStart();
    const accepted = await postAnswer(
      start.jar,
      start.form,
      authenticator.authenticate((await start.response.json()) as RequestOptionsJSON),
    );
    expect(accepted.status).toBe(303);
    expect((await tokensAfter(start, accepted)).claims.sub).toBe(id);
  });

  it('answers as an expired session when passkey sign-in is off', async () => {
    const authenticator = newAuthenticator();
    const id = await newUser('pk_switched_off');
    expect((await createdAtOffer('pk_switched_off', authenticator)).created.status).toBe(303);
    const start = await passkeySignInStart();
    const options = (await start.response.json()) as RequestOptionsJSON;
    await signInExperience({ passkeySignIn: { enabled: false } });
    try {
      const page = await getPage(start.jar, start.page);
      expect(page.html, 'no passkey form on the first screen').not.toContain('data-passkey');
      const asked = await start.jar.fetch(`${start.page}/passkey/options`, { method: 'POST' });
      expect(asked.status).toBe(400);
      expect(await asked.text()).toContain(expiredText);
      const answered = await postAnswer(start.jar, start.form, authenticator.authenticate(options));
      expect(answered.status).toBe(400);
      expect(await answered.text()).toContain(expiredText);
      expect((await entries(SIGN_IN_LOG_KEY, id)).filter((entry) => entry.payload.method === 'Passkey')).toEqual([]);
      // The offer is gone too: a password sign-in completes.
      const step = await passwordStep('pk_switched_off');
      expect(step.submitted.headers.get('Location')).not.toContain('/passkey');
      expect((await post(step.jar, `${step.page}/passkey/offer/skip`, {})).status).toBe(400);
    } finally {
      await signInExperience({ passkeySignIn: { enabled: true } });
    }
  });
});

describe("the 'me' API: a console account's passkeys and authenticator app", () => {
  let t: TestApp;
  let carol: string;
  let dan: string;
  const carolPassword = 'carol-Passkey-Pass-1';
  const admin = () => new TenantDb(t.db, ADMIN_TENANT_ID);

  beforeAll(async () => {
    t = await createTestApp();
    const create = async (username: string, secret: string | null) =>
      (
        await admin().insert(users, {
          id: generateId(12),
          username,
          primaryEmail: `${username}@example.com`,
          passwordEncrypted: secret ? await hashPassword(secret) : null,
          passwordEncryptionMethod: secret ? 'Argon2id' : null,
        })
      ).id;
    carol = await create('carol', carolPassword);
    dan = await create('dan', null);
  });
  afterAll(() => t?.close());

  const me = async (
    subject: string,
    path: string,
    init: { method?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ) =>
    t.call(`/api/me${path}`, {
      ...init,
      headers: {
        Authorization: `Bearer ${await t.token({ audience: ME_RESOURCE, subject, scope: 'all' })}`,
        'User-Agent': userAgent,
        ...init.headers,
      },
    });
  const proof = async () => {
    const verified = await me(carol, '/password/verify', { method: 'POST', body: { password: carolPassword } });
    expect(verified.status).toBe(201);
    return String(verified.json.verificationRecordId);
  };
  const consoleAuthenticator = (options: { backedUp?: boolean } = {}) =>
    new SoftAuthenticator({ origin: new URL(t.config.publicUrl).origin, ...options });

  it('refuses calls without a token', async () => {
    expect((await t.call('/api/me/mfa-verifications', { auth: false })).status).toBe(401);
    const start = await t.call('/api/me/mfa-verifications/webauthn-registration', {
      method: 'POST',
      body: {},
      auth: false,
    });
    expect(start.status).toBe(401);
  });

  it('adds a passkey with a fresh proof of the password, and refuses bad tickets, bad answers and duplicates', async () => {
    const withoutProof = await me(carol, '/mfa-verifications/webauthn-registration', { method: 'POST', body: {} });
    expect(withoutProof.status).toBe(422);
    expect(withoutProof.json.code).toBe('verification_record.invalid');
    const forged = await me(carol, '/mfa-verifications/webauthn-registration', {
      method: 'POST',
      body: { verificationRecordId: 'eyJhbGciOiJub25lIn0.e30.' },
    });
    expect(forged.status).toBe(422);

    const started = await me(carol, '/mfa-verifications/webauthn-registration', {
      method: 'POST',
      body: { verificationRecordId: await proof() },
    });
    expect(started.status).toBe(201);
    const { options, ticket } = started.json as { options: CreationOptionsJSON & Json; ticket: string };
    expect(options).toMatchObject({
      rp: { id: 'localhost' },
      user: { name: 'carol' },
      excludeCredentials: [],
      authenticatorSelection: { residentKey: 'required' },
    });
    expect(typeof ticket).toBe('string');

    const authenticator = consoleAuthenticator();
    const bad = await me(carol, '/mfa-verifications', {
      method: 'POST',
      body: {
        type: 'WebAuthn',
        ticket,
        response: authenticator.register(options, { origin: 'http://evil.localhost' }),
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.code).toBe('user.webauthn_verification_failed');
    const wrongRp = await me(carol, '/mfa-verifications', {
      method: 'POST',
      body: { type: 'WebAuthn', ticket, response: authenticator.register(options, { rpId: 'evil.example.com' }) },
    });
    expect(wrongRp.json.code).toBe('user.webauthn_verification_failed');

    const answer = authenticator.register(options);
    for (const [label, other] of [
      ['a forged ticket', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJjYXJvbCJ9.'],
      ['a garbled ticket', `${ticket.slice(0, -4)}AAAA`],
    ]) {
      const refused = await me(carol, '/mfa-verifications', {
        method: 'POST',
        body: { type: 'WebAuthn', ticket: other, response: answer },
      });
      expect(refused.status, label).toBe(422);
      expect(refused.json.code, label).toBe('verification_record.invalid');
    }
    const notDans = await me(dan, '/mfa-verifications', {
      method: 'POST',
      body: { type: 'WebAuthn', ticket, response: answer },
    });
    expect(notDans.status, "carol's ticket is not dan's").toBe(422);
    expect(notDans.json.code).toBe('verification_record.invalid');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + WEBAUTHN_TIMEOUT_MS + 60_000 });
    try {
      const expired = await me(carol, '/mfa-verifications', {
        method: 'POST',
        body: { type: 'WebAuthn', ticket, response: answer },
      });
      expect(expired.status, 'the ticket expired').toBe(422);
      expect(expired.json.code).toBe('verification_record.invalid');
    } finally {
      vi.useRealTimers();
    }

    const created = await me(carol, '/mfa-verifications', {
      method: 'POST',
      body: { type: 'WebAuthn', ticket, name: 'Work laptop', response: answer },
    });
    expect(created.status).toBe(201);
    expect(created.json.verification).toMatchObject({
      type: 'WebAuthn',
      name: 'Work laptop',
      agent: userAgent,
      backedUp: false,
      lastUsedAt: null,
    });
    expect(created.json.backupCodes, 'the admin tenant offers no backup codes').toBeUndefined();
    const [row] = await admin().findMany(userMfaVerifications, {
      where: eq(userMfaVerifications.credentialId, authenticator.id),
    });
    expect(row).toMatchObject({ userId: carol, type: 'WebAuthn', id: created.json.verification.id });

    // The same credential again (its browser would not offer it: the new options exclude it).
    const restart = await me(carol, '/mfa-verifications/webauthn-registration', {
      method: 'POST',
      body: { verificationRecordId: await proof() },
    });
    expect(restart.json.options.excludeCredentials.map((credential: { id: string }) => credential.id)).toEqual([
      authenticator.id,
    ]);
    const duplicate = await me(carol, '/mfa-verifications', {
      method: 'POST',
      body: { type: 'WebAuthn', ticket: restart.json.ticket, response: authenticator.register(restart.json.options) },
    });
    expect(duplicate.status).toBe(422);
    expect(duplicate.json.code).toBe('user.passkey_already_registered');
    // …nor by another account.
    const dansStart = await me(dan, '/mfa-verifications/webauthn-registration', { method: 'POST', body: {} });
    expect(dansStart.status, 'no password: no proof needed').toBe(201);
    const stolen = await me(dan, '/mfa-verifications', {
      method: 'POST',
      body: {
        type: 'WebAuthn',
        ticket: dansStart.json.ticket,
        response: authenticator.register(dansStart.json.options),
      },
    });
    expect(stolen.json.code).toBe('user.passkey_already_registered');
    const dans = await me(dan, '/mfa-verifications', {
      method: 'POST',
      body: {
        type: 'WebAuthn',
        ticket: dansStart.json.ticket,
        response: consoleAuthenticator({ backedUp: true }).register(dansStart.json.options),
      },
    });
    expect(dans.status).toBe(201);
    expect(dans.json.verification).toMatchObject({ type: 'WebAuthn', name: 'Chrome on macOS', backedUp: true });

    const listed = await me(carol, '/mfa-verifications');
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual([expect.objectContaining({ id: created.json.verification.id, type: 'WebAuthn' })]);
    const audited = await admin().findMany(logs, {
      where: and(eq(logs.key, 'Account.Mfa.Created'), eq(logs.userId, carol)),
    });
    expect(audited).toHaveLength(1);
    expect(audited[0]?.payload).toMatchObject({ after: { id: created.json.verification.id, type: 'WebAuthn' } });
    expect(JSON.stringify(audited[0]?.payload)).not.toContain(
      String((row?.data as WebAuthnCredentialData | undefined)?.publicKey),
    );
  });

  it('answers 400 with a code and a message for a malformed body', async () => {
    for (const body of [
      { type: 'WebAuthn', ticket: 'x', response: { id: 'not base64url!', rawId: 'x', type: 'public-key' } },
      { type: 'Passkey', ticket: 'x' },
      { type: 'Totp', ticket: 'x', code: '12' },
    ]) {
      const response = await me(carol, '/mfa-verifications', { method: 'POST', body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    const notJson = await me(carol, '/mfa-verifications', { method: 'POST', rawBody: '{"type":' });
    expect(notJson.status).toBe(400);
    expect(notJson.json).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  it('sets up an authenticator app with its first code', async () => {
    const withoutProof = await me(carol, '/mfa-verifications/totp-secret', { method: 'POST', body: {} });
    expect(withoutProof.status).toBe(422);
    expect(withoutProof.json.code).toBe('verification_record.invalid');
    const started = await me(carol, '/mfa-verifications/totp-secret', {
      method: 'POST',
      body: { verificationRecordId: await proof() },
    });
    expect(started.status).toBe(201);
    const { secret, ticket } = started.json as { secret: string; ticket: string };
    expect(started.json.secretQrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
    const wrong = await me(carol, '/mfa-verifications', {
      method: 'POST',
      body: { type: 'Totp', ticket, code: code === '000000' ? '111111' : '000000' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.json.code).toBe('mfa.invalid_code');
    const asPasskey = await me(carol, '/mfa-verifications', {
      method: 'POST',
      body: {
        type: 'WebAuthn',
        ticket,
        response: consoleAuthenticator().register({ challenge: 'x', rp: {}, user: { id: 'x' } }),
      },
    });
    expect(asPasskey.status, 'a ticket of the app setup is not one of a passkey').toBe(422);
    expect(asPasskey.json.code).toBe('verification_record.invalid');
    const created = await me(carol, '/mfa-verifications', { method: 'POST', body: { type: 'Totp', ticket, code } });
    expect(created.status).toBe(201);
    expect(created.json.verification).toMatchObject({ type: 'Totp' });
    expect(JSON.stringify(created.json)).not.toContain(secret);
    const again = await me(carol, '/mfa-verifications/totp-secret', {
      method: 'POST',
      body: { verificationRecordId: await proof() },
    });
    expect(again.json.code).toBe('user.totp_already_in_use');
    const types = ((await me(carol, '/mfa-verifications')).json as Json[]).map((factor) => factor.type).sort();
    expect(types).toEqual(['Totp', 'WebAuthn']);
  });

  it('removes a factor with a fresh proof of the password', async () => {
    const [passkey] = ((await me(carol, '/mfa-verifications')).json as Json[]).filter(
      (factor) => factor.type === 'WebAuthn',
    );
    const withoutProof = await me(carol, `/mfa-verifications/${passkey.id}`, { method: 'DELETE' });
    expect(withoutProof.status).toBe(422);
    expect(withoutProof.json.code).toBe('verification_record.invalid');
    const record = await proof();
    const unknown = await me(carol, '/mfa-verifications/nosuchfactor', {
      method: 'DELETE',
      headers: { 'x-verification-record-id': record },
    });
    expect(unknown.status).toBe(404);
    const dans = ((await me(dan, '/mfa-verifications')).json as Json[])[0];
    const notHers = await me(carol, `/mfa-verifications/${dans.id}`, {
      method: 'DELETE',
      headers: { 'x-verification-record-id': record },
    });
    expect(notHers.status, "dan's passkey is not carol's to remove").toBe(404);
    const removed = await me(carol, `/mfa-verifications/${passkey.id}`, {
      method: 'DELETE',
      headers: { 'x-verification-record-id': record },
    });
    expect(removed.status).toBe(204);
    const types = ((await me(carol, '/mfa-verifications')).json as Json[]).map((factor) => factor.type);
    expect(types).toEqual(['Totp']);
    expect(await admin().findMany(userMfaVerifications, { where: eq(userMfaVerifications.id, passkey.id) })).toEqual(
      [],
    );
    const [entry] = await admin().findMany(logs, {
      where: and(eq(logs.key, 'Account.Mfa.Deleted'), eq(logs.userId, carol)),
    });
    expect(entry?.payload).toMatchObject({ before: { id: passkey.id, type: 'WebAuthn' } });
    expect(((await me(dan, '/mfa-verifications')).json as Json[]).map((factor) => factor.id)).toEqual([dans.id]);
  });
});
