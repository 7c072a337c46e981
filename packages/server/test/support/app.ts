import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID, MANAGEMENT_API_SCOPE_ALL } from '@gatehouse/schemas';
import { importJWK, SignJWT } from 'jose';
import pino from 'pino';
import { createApp } from '../../src/app.ts';
import { issuerUrl, managementResource } from '../../src/auth/issuers.ts';
import { jwsAlgorithmOf, SigningKeyStore } from '../../src/auth/signing-keys.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { TenantDbs } from '../../src/db/tenant-db.ts';
import { createTestDatabase } from './database.ts';
import { TEST_SECRETS_KEY } from './secrets.ts';

export type TokenOptions = {
  /** Tenant whose management API the token is for (audience). */
  tenantId?: string;
  /** Tenant whose issuer signs it: the tenant itself (machine apps) or admin (console users). */
  issuerTenantId?: string;
  scope?: string;
  subject?: string;
  clientId?: string;
  /** `null` leaves `exp` out (a token that would never expire). */
  expiresIn?: string | number | null;
  /** `iat` in epoch seconds (default now). */
  issuedAt?: number;
  audience?: string;
  /** Sign with this private JWK instead of the issuer's stored key (forged tokens). */
  privateJwk?: Record<string, unknown>;
};

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** Parsed response bodies in assertions: tests probe arbitrary shapes, including wrong ones. */
// biome-ignore lint/suspicious/noExplicitAny: assertions read untyped JSON; `expect` does the checking.
type TestJson = any;

/**
 * The real application on its own database, called in process with `app.request`. Tokens are
 * signed with the tenant's real signing key from the database, exactly as the OIDC provider signs them.
 */
export async function createTestApp(env: Record<string, string> = {}) {
  const database: DatabaseHandle = await createTestDatabase();
  const config: Config = loadConfig({
    DATA_DIR: '.tmp/unused',
    PUBLIC_URL: 'http://localhost:3001',
    PWNED_PASSWORDS_URL: 'off',
    SECRETS_KEY: TEST_SECRETS_KEY,
    ...env,
  });
  const tenants = new TenantDbs(database.db);
  const keys = new SigningKeyStore(tenants);
  const app = createApp({ config, db: database.db, tenants, keys, log: pino({ level: 'silent' }) });

  async function token(options: TokenOptions = {}): Promise<string> {
    const tenantId = options.tenantId ?? DEFAULT_TENANT_ID;
    const issuerTenantId = options.issuerTenantId ?? ADMIN_TENANT_ID;
    const jwk = options.privateJwk ?? (await keys.privateKeys(issuerTenantId))[0];
    if (!jwk) throw new Error(`tenant ${issuerTenantId} has no signing key`);
    const key = await importJWK(jwk, jwsAlgorithmOf(jwk));
    const jwt = new SignJWT({
      scope: options.scope ?? MANAGEMENT_API_SCOPE_ALL,
      ...(options.clientId ? { client_id: options.clientId } : {}),
    })
      .setProtectedHeader({ alg: jwsAlgorithmOf(jwk), kid: String(jwk.kid) })
      .setIssuer(issuerUrl(config.publicUrl, issuerTenantId))
      .setAudience(options.audience ?? managementResource(tenantId))
      .setIssuedAt(options.issuedAt);
    if (options.expiresIn !== null) jwt.setExpirationTime(options.expiresIn ?? '1h');
    if (options.subject !== undefined) jwt.setSubject(options.subject);
    else if (!options.clientId) jwt.setSubject('test-admin');
    return jwt.sign(key);
  }

  /**
   * The default admin token, signed once and reused for a minute of (possibly faked) clock time: signing meant a key
   * read and an RSA signature, ~6 ms of the ~8 ms a refused request costs here. A 401 with it is retried once with a
   * fresh one, so a test that rotates or removes the admin tenant's keys never sees a stale token's refusal.
   */
  let cached: { value: string; at: number } | undefined;
  async function defaultToken(fresh: boolean): Promise<string> {
    const now = Date.now();
    if (fresh || !cached || now < cached.at || now - cached.at > 60_000) cached = { value: await token(), at: now };
    return cached.value;
  }

  /** A request with a valid admin token unless `headers.Authorization` is given (or `auth: false`). */
  async function call(
    path: string,
    init: { method?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; auth?: boolean } = {},
  ): Promise<{ status: number; headers: Headers; json: TestJson; text: string }> {
    if (init.auth !== false && !init.headers?.Authorization) {
      const first = await send(path, init, `Bearer ${await defaultToken(false)}`);
      return first.status === 401 ? send(path, init, `Bearer ${await defaultToken(true)}`) : first;
    }
    return send(path, init, undefined);
  }

  async function send(
    path: string,
    init: { method?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
    authorization: string | undefined,
  ) {
    const headers: Record<string, string> = { ...init.headers };
    if (authorization) headers.Authorization = authorization;
    let body: string | undefined = init.rawBody;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['Content-Type'] ??= 'application/json';
    } else if (body !== undefined) headers['Content-Type'] ??= 'application/json';
    const response = await app.request(path, { method: init.method ?? 'GET', headers, body });
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return {
      status: response.status,
      headers: response.headers,
      json: json as TestJson,
      text,
    };
  }

  return { app, config, db: database.db, database, keys, token, call, close: () => database.close() };
}
