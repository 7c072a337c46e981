import {
  ADMIN_TENANT_ID,
  CLOUD_API_RESOURCE,
  DEFAULT_TENANT_ID,
  DomainError,
  type ErrorCode,
  PRODUCT_VERSION,
  USER_IMPORT_MAX_BYTES,
} from '@gatehouse/schemas';
import { OpenAPIHono } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from 'pino';
import { issuerUrl, ME_RESOURCE, managementResource } from './auth/issuers.ts';
import { requireCloudToken, requireManagementToken, requireMeToken } from './auth/middleware.ts';
import { ADMIN_CONSOLE_CLIENT_ID } from './auth/oidc/clients.ts';
import { TenantProviders } from './auth/oidc/provider.ts';
import type { SigningKeyStore } from './auth/signing-keys.ts';
import { createPaymentProvider } from './billing/index.ts';
import { SANDBOX_BASE_PATH, SandboxPaymentProvider } from './billing/sandbox.ts';
import { sandboxPaymentPages } from './billing/sandbox-pages.ts';
import type { Config } from './config.ts';
import type { ChangeNotices } from './db/change-notices.ts';
import type { Database } from './db/client.ts';
import { fromDatabaseError } from './db/database-errors.ts';
import { secretBoxFor, useSecretBox } from './db/secret-box.ts';
import { tenants } from './db/tables.ts';
import { TenantDb, type TenantDbs } from './db/tenant-db.ts';
import { consoleStatic } from './http/console-static.ts';
import { ApiError, httpStatus } from './http/errors.ts';
import { inputGuard } from './http/input-guard.ts';
import { toOpenApi30 } from './http/openapi-30.ts';
import { securityHeaders } from './http/security-headers.ts';
import { errorMessage, negotiateLanguage } from './i18n/messages.ts';
import { type CloudDeps, cloudPaymentWebhookRoutes, cloudRoutes, cloudWellKnownRoutes } from './routes/cloud/index.ts';
import { managementRoutes } from './routes/index.ts';
import { interactionRoutes } from './routes/interaction.ts';
import { meRoutes } from './routes/me.ts';
import { meDeletionRoutes } from './routes/me-deletion.ts';
import { meLinkedAccountsRoutes } from './routes/me-linked-accounts.ts';
import { samlMetadataRoutes } from './routes/saml-metadata.ts';
import { scimRoutes } from './routes/scim.ts';
import { signInExperiencePublicRoutes } from './routes/sign-in-experience-public.ts';
import { signInPreviewRoutes } from './routes/sign-in-preview.ts';
import { consoleAdminExists } from './services/console-admin.ts';
import { EmailService } from './services/email.ts';
import { FailureThrottle } from './services/failure-throttle.ts';
import { accountDeletion } from './services/me-delete.ts';
import { MessageDelivery } from './services/message-delivery.ts';
import { SIGN_IN_IP_LIMIT } from './services/sign-in.ts';
import { assetMimeType, assetNamePattern, LocalAssetStorage } from './services/user-assets.ts';
import type { AppEnv } from './shared/app-env.ts';
import { withCspSources, withFormActionSource } from './shared/form-action.ts';

export type Services = {
  config: Config;
  db: Database;
  /** The tenants' data, for modules whose work is one tenant's at a time (row-level security applies). */
  tenants: TenantDbs;
  keys: SigningKeyStore;
  log: Logger;
  /** The tenants' OIDC providers; created here when not given (in-process tests). */
  providers?: TenantProviders;
  /** Outgoing email of the sign-in pages (forgot-password codes); from `config.smtp` when not given. */
  email?: EmailService;
  /** Requests handled at once, the rest wait in line (the embedded database: http/admission.ts); unset: no limit. */
  admissionLimit?: number | undefined;
  /** Changes made by any process (db/change-notices.ts): this process's caches drop what changed. */
  notices?: ChangeNotices | undefined;
};

/** Largest JSON body the API reads; bigger bodies get 413 before they are parsed. */
export const MAX_BODY_BYTES = 1024 * 1024;

function sendError(c: Context<AppEnv>, status: ContentfulStatusCode, code: ErrorCode, data?: unknown) {
  const body: { code: ErrorCode; message: string; data?: unknown } = {
    code,
    message: errorMessage(code, c.get('language') ?? 'en'),
  };
  if (data !== undefined) body.data = data;
  return c.json(body, status);
}

/**
 * Skips `limit` for GET and HEAD, which carry no body: hono's body limit asks the request for its body
 * stream, and on Node that builds a whole fetch Request per call (a sixth of a one-row read's time).
 */
function withoutBodyless(limit: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  // Bodyless or not, the URL and a JSON body then pass the input guard (NUL, lone surrogates, depth).
  return (c, next) =>
    c.req.method === 'GET' || c.req.method === 'HEAD'
      ? inputGuard(c, next)
      : limit(c, async () => {
          await inputGuard(c, next);
        });
}

/**
 * Tenants known to exist, so a management request does not read the tenants table each time. A deleted tenant is
 * forgotten at once in the process that deleted it (`forget`) and in the others when its change notice arrives;
 * should notices fail, an entry still lives only `ttlMs`.
 */
class KnownTenants {
  readonly #seen = new Map<string, number>();
  readonly #ttlMs: number;
  constructor(ttlMs = 60_000) {
    this.#ttlMs = ttlMs;
  }
  has(tenantId: string): boolean {
    const at = this.#seen.get(tenantId);
    return at !== undefined && Date.now() - at < this.#ttlMs;
  }
  add(tenantId: string): void {
    this.#seen.set(tenantId, Date.now());
  }
  forget(tenantId: string): void {
    this.#seen.delete(tenantId);
  }
  clear(): void {
    this.#seen.clear();
  }
}

/** Resolves the tenant of a management request; unknown tenants are 404 (no hint whether it exists elsewhere). */
function tenantContext(db: Database, known: KnownTenants, fixedTenantId?: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const tenantId = fixedTenantId ?? c.req.param('tenantId') ?? '';
    if (!known.has(tenantId)) {
      const [row] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
      if (!row) throw new ApiError(404, 'entity.not_exists_with_id');
      known.add(tenantId);
    }
    c.set('tenant', new TenantDb(db, tenantId));
    await next();
  };
}

/** What the parts of the app share: the services, and what createApp builds from them once. */
type AppParts = {
  services: Services;
  providers: TenantProviders;
  known: KnownTenants;
  storage: LocalAssetStorage;
  payments: ReturnType<typeof createPaymentProvider>;
  delivery: MessageDelivery;
  /** The body limit of the API's requests (`MAX_BODY_BYTES`). */
  limitBody: MiddlewareHandler<AppEnv>;
};

type App = OpenAPIHono<AppEnv>;

/** A body limit of `maxSize` bytes (413 beyond it), skipped for bodyless requests (`withoutBodyless`). */
function limitedBody(maxSize: number): MiddlewareHandler<AppEnv> {
  return withoutBodyless(
    bodyLimit({
      maxSize,
      onError: () => {
        throw new ApiError(413, 'request.payload_too_large');
      },
    }),
  );
}

/** Changes made by any process drop what this process caches of them: known tenants, signing keys, providers. */
function forgetOnNotices(services: Services, known: KnownTenants, providers: TenantProviders): void {
  const { keys } = services;
  services.notices?.subscribe((change) => {
    if (change === 'reset') {
      known.clear();
      keys.forgetAll();
      providers.forgetAll();
      return;
    }
    if (change.kind === 'tenant') known.forget(change.tenantId);
    if (change.kind === 'tenant' || change.kind === 'signing-keys') keys.forget(change.tenantId);
  });
}

/** What the cloud API's routes are given (a new object each time they are mounted). */
function cloudDepsOf({ services, providers, payments, known, storage }: AppParts): CloudDeps {
  const { config, db, keys, log } = services;
  return {
    db,
    keys,
    providers,
    payments,
    publicUrl: config.publicUrl,
    forgetTenant: (tenantId: string) => {
      known.forget(tenantId);
      keys.forget(tenantId);
      providers.forget(tenantId);
      // After the rows are gone: a failure leaves only unreachable files (served per tenant), so it is logged.
      storage
        .removeTenant(tenantId)
        .catch((error: unknown) => log.error({ err: error, tenantId }, 'tenant files not removed'));
    },
  };
}

/** The middleware every request passes: its id, the response headers, and the request's context and log line. */
function useMiddleware(app: App, { services, providers, delivery }: AppParts): void {
  const { config, keys, log } = services;
  app.use(requestId());
  // Registered before the general headers so its values win: uploaded images get a sandbox (an SVG
  // cannot run script) and may be shown by applications on other origins (the `picture` claim).
  app.use('/user-assets/*', async (c, next) => {
    await next();
    c.res.headers.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    c.res.headers.set('Cross-Origin-Resource-Policy', 'cross-origin');
  });
  // Also before them: a sign-in page's forms may redirect on to its application (shared/form-action.ts).
  app.use('/interaction/*', async (c, next) => {
    await next();
    const policy = c.res.headers.get('Content-Security-Policy');
    const source = c.get('formActionSource');
    const captcha = c.get('captchaSources');
    let widened = policy && source ? withFormActionSource(policy, source) : policy;
    if (widened && captcha) {
      widened = withCspSources(widened, 'script-src', captcha.script);
      widened = withCspSources(widened, 'frame-src', captcha.frame);
      widened = withCspSources(widened, 'connect-src', captcha.connect);
    }
    if (widened && widened !== policy) c.res.headers.set('Content-Security-Policy', widened);
  });
  // Also before them: the console frames the sign-in experience's live preview (same origin only).
  app.use('/sign-in-preview/*', async (c, next) => {
    await next();
    const policy = c.res.headers.get('Content-Security-Policy');
    if (policy)
      c.res.headers.set('Content-Security-Policy', policy.replace("frame-ancestors 'none'", "frame-ancestors 'self'"));
    c.res.headers.set('X-Frame-Options', 'SAMEORIGIN');
  });
  app.use(securityHeaders());
  app.use(async (c, next) => {
    const started = performance.now();
    c.set('config', config);
    c.set('keys', keys);
    c.set('notices', services.notices);
    c.set('delivery', delivery);
    c.set('scripts', providers.scripts);
    c.set('language', negotiateLanguage(c.req.header('Accept-Language')));
    c.set('log', log.child({ requestId: c.get('requestId') }));
    await next();
    c.get('log').info(
      { method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) },
      'request',
    );
  });
}

/** Errors as the API's error bodies (a code and its localised message), and unknown routes. */
function handleErrors(app: App): void {
  app.onError((error, c) => {
    const mapped = fromDatabaseError(error);
    // A domain error of any layer (an ApiError of the edge included): its status, and its code's localised message.
    if (mapped instanceof DomainError) return sendError(c, httpStatus(mapped), mapped.code, mapped.data);
    if (mapped instanceof HTTPException && mapped.status === 400 && /JSON/i.test(mapped.message)) {
      return sendError(c, 400, 'request.invalid_json');
    }
    if (mapped instanceof HTTPException && mapped.status === 415) {
      return sendError(c, 415, 'request.unsupported_media_type');
    }
    if (mapped instanceof HTTPException && mapped.status < 500) {
      return sendError(c, mapped.status as ContentfulStatusCode, 'guard.invalid_input');
    }
    c.get('log')?.error({ err: error }, 'unhandled error');
    return sendError(c, 500, 'request.general');
  });
  app.notFound((c) => {
    if (c.req.path.startsWith('/api/') || c.req.path.startsWith('/m/')) return sendError(c, 404, 'route.not_found');
    return c.text('Not found', 404);
  });
}

/** The routes a browser meets first: the root, the favicon, the status, and what the console needs to start. */
function mountEntryRoutes(app: App, services: Services): void {
  const { config } = services;
  app.get('/', (c) => c.redirect('/console', 302));
  // Browsers ask for /favicon.ico on every page without an icon link (the OIDC and error pages).
  app.get('/favicon.ico', (c) => c.redirect('/console/favicon.svg', 301));
  app.get('/api/status', (c) => c.body(null, 204));
  // What the console needs before anyone signs in: where to sign in, and whether the first admin exists.
  app.get('/api/.well-known/console', async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({
      edition: config.edition,
      version: PRODUCT_VERSION,
      // The cloud edition has no first-run welcome: console accounts sign up.
      adminExists: config.edition === 'cloud' || (await consoleAdminExists(services.tenants)),
      issuer: issuerUrl(config.publicUrl, ADMIN_TENANT_ID),
      clientId: ADMIN_CONSOLE_CLIENT_ID,
      // The cloud console redeems its sign-in code for the cloud API and reaches each tenant's
      // management API with organization tokens of `t-{tenant}`; OSS keeps the default tenant's API.
      resource: config.edition === 'cloud' ? CLOUD_API_RESOURCE : managementResource(DEFAULT_TENANT_ID),
      meResource: ME_RESOURCE,
    });
  });
}

/** The API's OpenAPI document, in its 3.1 form and (for tools that read only 3.0) its 3.0 form. */
function mountOpenApiDocument(app: App, config: Config): void {
  // Generated from the zod route definitions on first request, when every route is registered.
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
  });
  const document = () =>
    app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: {
        title: 'Gatehouse management API',
        version: PRODUCT_VERSION,
        description: 'Generated from the zod route definitions of the server.',
      },
      servers: [{ url: config.publicUrl }],
      security: [{ bearerAuth: [] }],
    });
  let cached: ReturnType<typeof document> | undefined;
  const serveDocument = (c: Context<AppEnv>) => {
    cached ??= document();
    return c.json(cached);
  };
  // The reference serves its document at /api/swagger.json: here its OpenAPI 3.0 form, for tools that read only 3.0.
  let cached30: ReturnType<typeof toOpenApi30> | undefined;
  const serveDocument30 = (c: Context<AppEnv>) => {
    cached ??= document();
    cached30 ??= toOpenApi30(cached);
    return c.json(cached30);
  };
  app.get('/api/openapi.json', serveDocument);
  app.get('/api/swagger.json', serveDocument30);
  // The reference's other name for the same document (its OpenAPI 3.0 one, like /api/swagger.json).
  app.get('/api/.well-known/management.openapi.json', serveDocument30);
}

/**
 * The 'me' API: the signed-in console user's own account, stored in the admin tenant. Registered
 * before the OSS management API, whose middleware would otherwise claim /api/me too.
 */
function mountMeApi(app: App, parts: AppParts): void {
  const { config, db, keys } = parts.services;
  const me = new OpenAPIHono<AppEnv>();
  me.use(parts.limitBody);
  me.use(tenantContext(db, parts.known, ADMIN_TENANT_ID));
  me.use(requireMeToken(keys));
  me.route('/', meRoutes({ keys, storage: parts.storage }));
  // Deleting one's account deletes tenants too: cloud only (OSS answers it as an unknown route).
  const deletion =
    config.edition === 'cloud' ? accountDeletion(db, { forgetTenant: cloudDepsOf(parts).forgetTenant }) : undefined;
  me.route('/', meDeletionRoutes({ keys, accountDeletion: deletion }));
  // Linked email and social identities: cloud only too (spec §6).
  me.route('/', meLinkedAccountsRoutes({ keys, edition: config.edition }));
  app.route('/api/me', me);
}

/**
 * The cloud API (tenants, members, invitations): console users' own requests, authorized per tenant
 * from the database. Registered before the catch-alls; OSS has none of these routes.
 */
function mountCloudApi(app: App, parts: AppParts): void {
  const { db, keys } = parts.services;
  const { known, limitBody, payments } = parts;
  app.route('/api', cloudWellKnownRoutes(cloudDepsOf(parts)));
  const cloud = new OpenAPIHono<AppEnv>();
  // `/x/*` also matches `/x` itself: listing both ran the chain twice, and the second body limit found the
  // body already read (a 500 for a body without Content-Length, such as a chunked one).
  const cloudPaths = ['/tenants/*', '/invitations/*', '/skus', '/checkout-session/*', '/payment-provider'];
  for (const path of cloudPaths) {
    cloud.use(path, limitBody, tenantContext(db, known, ADMIN_TENANT_ID), requireCloudToken(keys));
  }
  cloud.route('/', cloudRoutes(cloudDepsOf(parts)));
  app.route('/api', cloud);
  // The payment provider's webhook authenticates by the provider's signature, not a bearer token.
  const webhooks = new OpenAPIHono<AppEnv>();
  webhooks.use('/payment-webhooks/*', limitBody);
  webhooks.route('/', cloudPaymentWebhookRoutes(cloudDepsOf(parts)));
  app.route('/api', webhooks);
  // The sandbox provider's checkout and portal pages (their URLs carry the capability, as hosted pages do).
  if (payments instanceof SandboxPaymentProvider) {
    app.use(`${SANDBOX_BASE_PATH}/*`, limitBody);
    app.route(SANDBOX_BASE_PATH, sandboxPaymentPages(db, payments));
  }
}

/** The management API of a tenant, and its public parts. */
function mountManagementApi(app: App, parts: AppParts): void {
  const { config, db, keys } = parts.services;
  const { known, limitBody } = parts;
  const managementBase = config.edition === 'oss' ? '/api' : '/m/:tenantId/api';
  const tenantOfManagement = () =>
    config.edition === 'oss' ? tenantContext(db, known, DEFAULT_TENANT_ID) : tenantContext(db, known);
  // Public parts of the management API (SAML metadata, fetched by service providers without a token),
  // registered before the management API, whose token check would otherwise claim them.
  const publicManagement = new OpenAPIHono<AppEnv>();
  publicManagement.use('/saml-applications/:id/metadata', tenantOfManagement());
  publicManagement.use('/.well-known/sign-in-exp', tenantOfManagement());
  publicManagement.use('/.well-known/phrases', tenantOfManagement());
  publicManagement.route('/', samlMetadataRoutes);
  publicManagement.route('/', signInExperiencePublicRoutes);
  app.route(managementBase, publicManagement);

  // The management API of one tenant, behind the body limit, tenant resolution and token check.
  const management = new OpenAPIHono<AppEnv>();
  // A user import carries its whole file (JSON-escaped, so up to twice its size); other bodies stay small.
  const limitImportBody = limitedBody(2 * USER_IMPORT_MAX_BYTES);
  management.use((c, next) =>
    (c.req.method === 'POST' && c.req.path.endsWith('/users/imports') ? limitImportBody : limitBody)(c, next),
  );
  management.use(tenantOfManagement());
  // The cloud edition also lets tenant members in with their organization token of `t-{tenant}`.
  management.use(
    requireManagementToken(keys, ['all'], config.edition === 'cloud' ? { tenants: parts.services.tenants } : undefined),
  );
  management.route('/', managementRoutes());
  // OSS serves the default tenant at /api; the cloud edition serves every tenant at /m/{tenantId}/api.
  app.route(managementBase, management);
}

/** Uploaded images: unguessable names, served with the type sniffed at upload. */
function mountUserAssets(app: App, storage: LocalAssetStorage): void {
  app.get('/user-assets/:tenantId/:name', async (c) => {
    const { tenantId, name } = c.req.param();
    const type = assetMimeType(name);
    const bytes =
      assetNamePattern.test(name) && /^[\w-]{1,21}$/.test(tenantId) ? await storage.get(tenantId, name) : undefined;
    if (!bytes || !type) return c.text('Not found', 404);
    c.header('Cache-Control', 'public, max-age=31536000, immutable');
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': type });
  });
}

/**
 * The tenants' SCIM 2.0 service (docs/areas/scim.md), beside their issuers (`/oidc`, `/t/{id}/oidc`): the default
 * tenant's at /scim/v2, in cloud every tenant's at /t/{id}/scim/v2. Authenticated by a connection's token.
 */
function mountScim(app: App, { services, known, limitBody }: AppParts): void {
  const { config, db } = services;
  const scimThrottle = new FailureThrottle(db, 60_000);
  const scim = (tenant: MiddlewareHandler<AppEnv>) =>
    scimRoutes({ config, throttle: scimThrottle, tenantContext: tenant, limitBody });
  app.route('/scim/v2', scim(tenantContext(db, known, DEFAULT_TENANT_ID)));
  if (config.edition === 'cloud') app.route('/t/:tenantId/scim/v2', scim(tenantContext(db, known)));
}

export function createApp(services: Services) {
  const { config, db } = services;
  // The data layer seals and opens secrets with the configured key (db/sealed-columns.ts).
  useSecretBox(secretBoxFor(config));
  const providers = services.providers ?? new TenantProviders(services);
  const known = new KnownTenants();
  forgetOnNotices(services, known, providers);
  const storage = new LocalAssetStorage(config.dataDir);
  const payments = createPaymentProvider(config);
  const email = services.email ?? new EmailService(config.smtp);
  const delivery = new MessageDelivery(email, config.outbound);
  const limitBody = limitedBody(MAX_BODY_BYTES);
  const parts: AppParts = { services, providers, known, storage, payments, delivery, limitBody };
  const app = new OpenAPIHono<AppEnv>();

  useMiddleware(app, parts);
  handleErrors(app);
  mountEntryRoutes(app, services);
  mountOpenApiDocument(app, config);
  mountMeApi(app, parts);
  if (config.edition === 'cloud') {
    mountCloudApi(app, parts);
  } else {
    // OSS serves the default tenant only, at /api.
    app.all('/m/*', () => {
      throw new ApiError(404, 'tenant.only_default_in_oss');
    });
  }
  mountManagementApi(app, parts);
  mountUserAssets(app, storage);
  mountScim(app, parts);

  const signInThrottle = new FailureThrottle(db, SIGN_IN_IP_LIMIT.windowMinutes * 60_000);
  app.route('/', interactionRoutes({ providers, tenants: services.tenants, config, delivery, signInThrottle }));
  app.route('/', signInPreviewRoutes(services.tenants, delivery));
  app.route('/', consoleStatic(config.consoleDir));
  return app;
}
