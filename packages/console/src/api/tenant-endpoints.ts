import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID, issuerPath, managementResourceIndicator } from '@gatehouse/schemas';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { z } from 'zod';
import { useConsoleConfig } from './console-config-query.ts';
import { managementPath } from './management.ts';

export type TenantEndpoints = {
  /** Where users reach Gatehouse (PUBLIC_URL), with any path prefix a proxy adds. */
  publicUrl: string;
  /** The tenant's OpenID Provider: the issuer its applications sign in with. */
  issuer: string;
  discoveryUrl: string;
  /** The tenant's management API and its resource indicator (the audience of its tokens). */
  managementApi: string;
  managementResource: string;
};

/**
 * The console learns only the admin tenant's issuer (`/api/.well-known/console`); a tenant's own issuer and
 * management API sit beside it under the same public URL, named by the shared rules of the schemas package.
 */
export function tenantEndpoints(config: { issuer: string }, tenantId: string | undefined): TenantEndpoints {
  const adminPath = issuerPath(ADMIN_TENANT_ID);
  const publicUrl = config.issuer.endsWith(adminPath)
    ? config.issuer.slice(0, -adminPath.length)
    : new URL(config.issuer).origin;
  const issuer = `${publicUrl}${issuerPath(tenantId ?? DEFAULT_TENANT_ID)}`;
  return {
    publicUrl,
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    managementApi: `${publicUrl}${managementPath(tenantId, '')}`.replace(/\/$/, ''),
    managementResource: managementResourceIndicator(tenantId ?? DEFAULT_TENANT_ID),
  };
}

// Here too, for the pages that show the endpoints; the top bar imports it from its own module, so the first page does
// not load this one (nor zod, for the discovery document).
export { useConsoleConfig } from './console-config-query.ts';

/** The parts of an OpenID Provider's discovery document the console shows (OpenID Connect Discovery 1.0). */
const discoverySchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  userinfo_endpoint: z.string().optional(),
  end_session_endpoint: z.string().optional(),
  jwks_uri: z.string(),
});
export type OidcDiscovery = z.infer<typeof discoverySchema>;

/**
 * The tenant issuer's own discovery document, so the endpoints shown are the ones it really serves (a wrong guess
 * of the naming shows as an error, not as wrong values). Public: no token is sent. Fetched by its path, as the
 * console's CSP allows only its own origin.
 */
function useOidcDiscovery(discoveryUrl: string | undefined) {
  return useQuery({
    queryKey: ['well-known', 'openid-configuration', discoveryUrl],
    queryFn: async ({ signal }) => {
      const path = new URL(discoveryUrl ?? '').pathname;
      const response = await fetch(path, {
        headers: { Accept: 'application/json' },
        signal: AbortSignal.any([signal, AbortSignal.timeout(20_000)]),
      });
      if (!response.ok) throw new Error(`${path}: ${response.statusText || response.status}`);
      return discoverySchema.parse(await response.json());
    },
    enabled: discoveryUrl !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The current tenant's endpoints and its issuer's discovery document. */
export function useTenantEndpoints() {
  const { tenantId } = useParams();
  const config = useConsoleConfig();
  const endpoints = config.data && tenantEndpoints(config.data, tenantId);
  const discovery = useOidcDiscovery(endpoints?.discoveryUrl);
  const retry = () => (config.isError ? config.refetch() : discovery.refetch());
  return { endpoints, discovery, isError: config.isError || discovery.isError, retry };
}
