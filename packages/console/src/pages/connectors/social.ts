import { type Connector, type ConnectorFactory, DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { useParams } from 'react-router';
import { tenantEndpoints, useConsoleConfig } from '../../api/tenant-endpoints.ts';

/** The server's id rule for a connector (`connectorIdSchema`): letters, digits, _ and -, at most 128. */
const MAX_ID = 128;

/**
 * The id a new social connector gets, chosen by the console so the guide page can show the redirect URI before the
 * connector exists: the factory's target ('google', 'oidc'), or with '-2', '-3'… when another connector of the tenant
 * has that id already.
 */
export function suggestSocialId(factory: Pick<ConnectorFactory, 'target' | 'id'>, existing: readonly Connector[]) {
  const base = (factory.target || factory.id).replace(/[^\w-]/g, '-').slice(0, MAX_ID - 4) || 'social';
  const taken = new Set(existing.map((connector) => connector.id));
  if (!taken.has(base)) return base;
  let number = 2;
  while (taken.has(`${base}-${number}`)) number += 1;
  return `${base}-${number}`;
}

/**
 * The metadata a new social connector is created with. Sign-in pages show one connector per target, so a second
 * connector of a target that is in use gets its own target (its id); the first keeps the factory's.
 */
export function socialTargetFor(
  factory: Pick<ConnectorFactory, 'target'>,
  id: string,
  existing: readonly Connector[],
): string | undefined {
  const used = existing.some((connector) => connector.type === 'Social' && connector.target === factory.target);
  return used ? id.slice(0, 64) : undefined;
}

/**
 * The redirect URI to register at the provider (server `socialCallbackUrl`): the public URL, the tenant and the
 * connector's id. Undefined until the console configuration has loaded.
 */
export function useSocialRedirectUri(connectorId: string | undefined): string | undefined {
  const { tenantId } = useParams();
  const config = useConsoleConfig();
  if (!config.data || !connectorId) return undefined;
  const { publicUrl } = tenantEndpoints(config.data, tenantId);
  const tenant = encodeURIComponent(tenantId ?? DEFAULT_TENANT_ID);
  return `${publicUrl}/callback/social/${tenant}/${encodeURIComponent(connectorId)}`;
}
