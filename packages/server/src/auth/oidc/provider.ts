import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import Provider, { type Configuration, type ErrorOut, type KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { tenantConfigs, tenants, users } from '../../db/tables.ts';
import { TenantDb } from '../../db/tenant-db.ts';
import { negotiateLanguage } from '../../i18n/messages.ts';
import { signInText } from '../../i18n/sign-in.ts';
import { issuerUrl } from '../issuers.ts';
import { renderLogoutPage, renderMessagePage } from '../sign-in-page.ts';
import type { SigningKeyStore } from '../signing-keys.ts';
import { OidcModelAdapter } from './adapter.ts';
import { clientPolicy } from './client-policy.ts';
import { ApplicationClientAdapter } from './clients.ts';
import { accessTokenLifetime, chooseDefaultResource, resourceServerInfo } from './resource-servers.ts';

const COOKIE_KEYS = 'oidc.cookieKeys';

/** The tenant's cookie-signing keys, created on first use and shared by every process. */
async function cookieKeys(db: Database, tenantId: string): Promise<string[]> {
  const fresh = [randomBytes(32).toString('base64url')];
  await db.insert(tenantConfigs).values({ tenantId, key: COOKIE_KEYS, value: fresh }).onConflictDoNothing();
  const [row] = await db
    .select({ value: tenantConfigs.value })
    .from(tenantConfigs)
    .where(and(eq(tenantConfigs.tenantId, tenantId), eq(tenantConfigs.key, COOKIE_KEYS)));
  return (row?.value as string[] | undefined) ?? fresh;
}

/** Minimal error page: the provider's default one uses inline styles, which our CSP forbids. */
function renderError(ctx: KoaContextWithOIDC, out: ErrorOut): void {
  const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  ctx.type = 'html';
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(out.error ?? 'error')}</title></head><body><h1>${escapeHtml(out.error ?? 'error')}</h1><p>${escapeHtml(out.error_description ?? '')}</p></body></html>`;
}

export type OidcDeps = { db: Database; config: Config; keys: SigningKeyStore };

export async function createTenantProvider(deps: OidcDeps, tenantId: string): Promise<Provider> {
  const { db, config, keys } = deps;
  const configuration: Configuration = {
    adapter: (name: string) =>
      name === 'Client'
        ? new ApplicationClientAdapter(db, tenantId, config.publicUrl)
        : new OidcModelAdapter(db, tenantId, name),
    jwks: { keys: (await keys.privateKeys(tenantId)) as NonNullable<Configuration['jwks']>['keys'] },
    cookies: { keys: await cookieKeys(db, tenantId) },
    // Access tokens live as long as their API resource says (spec §3 accessTokenTtl), whatever the grant.
    ttl: {
      AccessToken: (_ctx, token) => accessTokenLifetime(token),
      ClientCredentials: (_ctx, token) => accessTokenLifetime(token),
      // Id and refresh tokens follow the application's settings (spec §3 customClientMetadata).
      ...clientPolicy.ttl,
    },
    extraClientMetadata: clientPolicy.extraClientMetadata,
    issueRefreshToken: clientPolicy.issueRefreshToken,
    rotateRefreshToken: clientPolicy.rotateRefreshToken,
    clientBasedCORS: clientPolicy.clientBasedCORS,
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          ctx.type = 'html';
          ctx.body = renderLogoutPage(negotiateLanguage(ctx.get('accept-language')), form);
        },
        postLogoutSuccessSource: (ctx) => {
          const language = negotiateLanguage(ctx.get('accept-language'));
          ctx.type = 'html';
          ctx.body = renderMessagePage(language, signInText(language, 'signed_out'));
        },
      },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        defaultResource: (_ctx, _client, oneOf) => chooseDefaultResource(db, tenantId, oneOf),
        getResourceServerInfo: (ctx, indicator, client) => {
          const accountId = ctx.oidc.session?.accountId ?? ctx.oidc.grant?.accountId;
          return resourceServerInfo(
            db,
            tenantId,
            indicator,
            accountId ? { userId: accountId } : { applicationId: client.clientId },
          );
        },
      },
    },
    // Spec §2.4: sign-in experience parameters an application may pass to the sign-in pages.
    extraParams: ['interaction_mode', 'first_screen', 'direct_sign_in', 'organization_id', 'identifier'],
    pkce: { required: () => true },
    interactions: { url: (_ctx, interaction) => `/interaction/${tenantId}/${interaction.uid}` },
    claims: {
      openid: ['sub'],
      profile: ['name', 'username', 'picture', 'updated_at'],
      email: ['email', 'email_verified'],
    },
    renderError,
    findAccount: async (_ctx, id) => {
      const user = await new TenantDb(db, tenantId).findOne(users, eq(users.id, id));
      if (!user || user.isSuspended) return undefined;
      return {
        accountId: user.id,
        claims: () => ({
          sub: user.id,
          name: user.name ?? undefined,
          username: user.username ?? undefined,
          picture: user.avatar ?? undefined,
          email: user.primaryEmail ?? undefined,
          email_verified: Boolean(user.primaryEmail),
          updated_at: Math.floor(user.updatedAt.getTime() / 1000),
        }),
      };
    },
  };
  const provider = new Provider(issuerUrl(config.publicUrl, tenantId), configuration);
  // Behind a TLS-terminating proxy, trust X-Forwarded-* so issued URLs use https.
  provider.proxy = config.publicUrl.startsWith('https://');
  return provider;
}

/** One provider per tenant, created on first use. */
export class TenantProviders {
  readonly #deps: OidcDeps;
  readonly #providers = new Map<string, Promise<Provider>>();

  constructor(deps: OidcDeps) {
    this.#deps = deps;
  }

  /** The tenant's provider, or undefined when the tenant does not exist. */
  async get(tenantId: string): Promise<Provider | undefined> {
    let provider = this.#providers.get(tenantId);
    if (!provider) {
      const [row] = await this.#deps.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId));
      if (!row) return undefined;
      provider = createTenantProvider(this.#deps, tenantId);
      this.#providers.set(tenantId, provider);
      provider.catch(() => this.#providers.delete(tenantId));
    }
    return provider;
  }
}
