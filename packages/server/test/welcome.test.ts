import { createHash, randomBytes } from 'node:crypto';
import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managementResource } from '../src/auth/issuers.ts';
import { CookieJar, startTestHttpServer } from './support/http-server.ts';

let server: Awaited<ReturnType<typeof startTestHttpServer>>;
beforeAll(async () => {
  server = await startTestHttpServer();
});
afterAll(() => server.close());

type ConsoleConfig = { adminExists: boolean; issuer: string; clientId: string; resource: string; edition: string };
const consoleConfig = async () =>
  (await (await fetch(`${server.base}/api/.well-known/console`)).json()) as ConsoleConfig;

async function startAuthorization(jar: CookieJar, config: ConsoleConfig) {
  const verifier = randomBytes(32).toString('base64url');
  const params = new URLSearchParams({
    client_id: config.clientId,
    response_type: 'code',
    redirect_uri: `${server.base}/console/callback`,
    scope: 'openid profile all',
    resource: config.resource,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    prompt: 'login consent',
  });
  const response = await jar.fetch(`${config.issuer}/auth?${params}`);
  return { verifier, page: new URL(response.headers.get('Location') ?? '', server.base).toString() };
}

const post = (jar: CookieJar, url: string, form: Record<string, string>) =>
  jar.fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });

describe('first run: welcome creates the first console admin and signs them in', () => {
  it('publishes the console configuration without a token', async () => {
    const config = await consoleConfig();
    expect(config).toMatchObject({
      adminExists: false,
      edition: 'oss',
      issuer: `${server.base}/t/admin/oidc`,
      clientId: 'admin-console',
      resource: managementResource(DEFAULT_TENANT_ID),
    });
  });

  it('rejects bad input on the welcome form and creates nothing', async () => {
    const jar = new CookieJar();
    const { page } = await startAuthorization(jar, await consoleConfig());
    const html = await (await jar.fetch(page)).text();
    expect(html).toContain('Welcome to Gatehouse');
    for (const [form, message] of [
      [{ username: '1admin', password: 'long-enough-1', password_confirm: 'long-enough-1' }, 'Start with a letter'],
      [{ username: 'admin', password: 'short', password_confirm: 'short' }, 'Use at least 8 characters.'],
      [
        { username: 'admin', password: 'long-enough-1', password_confirm: 'long-enough-2' },
        'The passwords do not match.',
      ],
    ] as const) {
      const response = await post(jar, `${page}/welcome`, form);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain(message);
    }
    expect((await consoleConfig()).adminExists).toBe(false);
  });

  it('shows a refusal under the field it is about and keeps what was typed (issue 40, item 16)', async () => {
    const jar = new CookieJar();
    const { page } = await startAuthorization(jar, await consoleConfig());
    await jar.fetch(page);
    const inputOf = (html: string, id: string) => new RegExp(`<input id="${id}"[^>]*>`).exec(html)?.[0] ?? '';
    for (const [form, field, message] of [
      [{ username: 'admin', password: 'short', password_confirm: 'short' }, 'password', 'Use at least 8 characters.'],
      [
        { username: 'admin', password: 'long-enough-1', password_confirm: 'long-enough-2' },
        'password_confirm',
        'The passwords do not match.',
      ],
      [
        { username: '1admin', password: 'long-enough-1', password_confirm: 'long-enough-1' },
        'username',
        'Start with a letter',
      ],
    ] as const) {
      const response = await post(jar, `${page}/welcome`, form);
      expect(response.status).toBe(400);
      expect(response.headers.get('Cache-Control')).toBe('no-store');
      const html = await response.text();
      // Not above the form: right after the field (and before the next label).
      expect(html).not.toContain('id="form-error"');
      const after = html.slice(html.indexOf(inputOf(html, field)) + inputOf(html, field).length);
      expect(after.slice(0, after.indexOf('<label') === -1 ? undefined : after.indexOf('<label'))).toMatch(
        new RegExp(`^\\s*<p class="error field-error" role="alert" id="${field}-error">${message}`),
      );
      expect(inputOf(html, field)).toContain(`aria-describedby="${field}-error" aria-invalid="true" autofocus`);
      for (const other of ['username', 'password', 'password_confirm'].filter((name) => name !== field)) {
        expect(inputOf(html, other), other).not.toContain('aria-invalid');
      }
      // Every field keeps what was typed: the person fixes one, not the whole form.
      expect(inputOf(html, 'username')).toContain(`value="${form.username}"`);
      expect(inputOf(html, 'password')).toContain(`value="${form.password}"`);
      expect(inputOf(html, 'password_confirm')).toContain(`value="${form.password_confirm}"`);
    }
  });

  it('creates the admin and finishes the sign-in in the same step', async () => {
    const jar = new CookieJar();
    const config = await consoleConfig();
    const { verifier, page } = await startAuthorization(jar, config);
    let response = await post(jar, `${page}/welcome`, {
      username: 'first_admin',
      password: 'correct-horse-battery',
      password_confirm: 'correct-horse-battery',
    });
    for (let hop = 0; hop < 6 && !response.headers.get('Location')?.startsWith(`${server.base}/console`); hop++) {
      expect(response.status, `hop ${hop}`).toBe(303);
      response = await jar.fetch(new URL(response.headers.get('Location') ?? '', server.base).toString());
    }
    const callback = new URL(response.headers.get('Location') ?? '');
    const token = await fetch(`${config.issuer}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code') ?? '',
        redirect_uri: `${server.base}/console/callback`,
        client_id: config.clientId,
        code_verifier: verifier,
        resource: config.resource,
      }),
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    expect(decodeJwt(access_token).scope).toBe('all');
    expect((await consoleConfig()).adminExists).toBe(true);

    // Once an admin exists, the same page is the normal sign-in form and welcome is refused.
    const next = new CookieJar();
    const again = await startAuthorization(next, config);
    expect(await (await next.fetch(again.page)).text()).toContain('Username or email');
    const refused = await post(next, `${again.page}/welcome`, {
      username: 'second_admin',
      password: 'correct-horse-battery',
      password_confirm: 'correct-horse-battery',
    });
    expect(refused.status).toBe(409);
  });
});
