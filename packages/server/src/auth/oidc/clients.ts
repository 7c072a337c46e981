import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { applications } from '../../db/tables.ts';
import type { TenantDb } from '../../db/tenant-db.ts';
import { unstorable } from './adapter.ts';
import type { ClientCache } from './client-cache.ts';
import { clientPolicyMetadata } from './client-policy.ts';
import { TOKEN_EXCHANGE_GRANT } from './personal-access-token-exchange.ts';

type Application = typeof applications.$inferSelect;

/** The console's own client in the admin tenant; its redirect URIs follow PUBLIC_URL. */
export const ADMIN_CONSOLE_CLIENT_ID = 'admin-console';

/** OIDC client metadata of an application, by its type. */
export function clientMetadata(application: Application, publicUrl: string): AdapterPayload {
  const metadata =
    application.id === ADMIN_CONSOLE_CLIENT_ID
      ? { redirectUris: [`${publicUrl}/console/callback`], postLogoutRedirectUris: [`${publicUrl}/console`] }
      : (application.oidcClientMetadata as { redirectUris?: string[]; postLogoutRedirectUris?: string[] });
  const base = {
    client_id: application.id,
    client_name: application.name,
    ...clientPolicyMetadata(application.customClientMetadata),
  };
  switch (application.type) {
    case 'MachineToMachine':
      return {
        ...base,
        client_secret: application.secret,
        // Confidential applications may exchange a user's personal access token (RFC 8693).
        grant_types: ['client_credentials', TOKEN_EXCHANGE_GRANT],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: 'client_secret_basic',
      };
    case 'SPA':
    case 'Native':
      return {
        ...base,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: metadata.redirectUris ?? [],
        post_logout_redirect_uris: metadata.postLogoutRedirectUris ?? [],
        token_endpoint_auth_method: 'none',
        application_type: application.type === 'Native' ? 'native' : 'web',
      };
    default:
      return {
        ...base,
        client_secret: application.secret,
        grant_types: [
          'authorization_code',
          'refresh_token',
          ...(application.type === 'Traditional' ? [TOKEN_EXCHANGE_GRANT] : []),
        ],
        response_types: ['code'],
        redirect_uris: metadata.redirectUris ?? [],
        post_logout_redirect_uris: metadata.postLogoutRedirectUris ?? [],
        token_endpoint_auth_method: 'client_secret_basic',
      };
  }
}

/** The provider's read-only Client model: clients are the tenant's applications. */
export class ApplicationClientAdapter implements Adapter {
  readonly #tenant: TenantDb;
  readonly #publicUrl: string;
  readonly #clients: ClientCache;

  constructor(tenant: TenantDb, publicUrl: string, clients: ClientCache) {
    this.#tenant = tenant;
    this.#publicUrl = publicUrl;
    this.#clients = clients;
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (unstorable(id)) return undefined;
    const row = await this.#clients.application(this.#tenant, id);
    // A copy: the cached row's arrays must not reach the provider, which may normalise what it is given.
    return row ? structuredClone(clientMetadata(row, this.#publicUrl)) : undefined;
  }

  // Clients are written through the management API (audited), never by the provider.
  upsert(): Promise<void> {
    return Promise.reject(new Error('clients are managed by the management API'));
  }
  findByUid(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
  findByUserCode(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
  consume(): Promise<void> {
    return Promise.resolve();
  }
  destroy(): Promise<void> {
    return Promise.reject(new Error('clients are managed by the management API'));
  }
  revokeByGrantId(): Promise<void> {
    return Promise.resolve();
  }
}
