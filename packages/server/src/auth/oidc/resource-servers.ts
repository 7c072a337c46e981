import { ACCESS_TOKEN_TTL_SECONDS, ADMIN_TENANT_ID, CLOUD_API_RESOURCE, type CloudScope } from '@gatehouse/schemas';
import { and, eq } from 'drizzle-orm';
import { errors, type ResourceServer } from 'oidc-provider';
import { applicationsRoles, resources, rolesScopes, scopes, usersRoles } from '../../db/tables.ts';
import type { TenantDb } from '../../db/tenant-db.ts';
import { ME_RESOURCE } from '../issuers.ts';
import { type JwsAlgorithm, SIGNING_ALGORITHM } from '../signing-keys.ts';
import type { ClientCache, ResourceGrant } from './client-cache.ts';

/**
 * The resource named `indicator` and the names of its scopes granted to a subject through its roles (application
 * or user roles), in one statement: the resource left-joined to the granted scopes (a token request's hot path,
 * issue 38). Undefined when the tenant has no such resource.
 */
async function resourceWithGrantedScopes(
  tenant: TenantDb,
  indicator: string,
  subject: { applicationId: string } | { userId: string },
): Promise<ResourceGrant | undefined> {
  const { tenantId } = tenant;
  const holder =
    'applicationId' in subject
      ? {
          table: applicationsRoles,
          join: and(
            eq(applicationsRoles.tenantId, rolesScopes.tenantId),
            eq(applicationsRoles.roleId, rolesScopes.roleId),
          ),
          match: eq(applicationsRoles.applicationId, subject.applicationId),
        }
      : {
          table: usersRoles,
          join: and(eq(usersRoles.tenantId, rolesScopes.tenantId), eq(usersRoles.roleId, rolesScopes.roleId)),
          match: eq(usersRoles.userId, subject.userId),
        };
  const rows = await tenant.asTenant((db) => {
    const grantedScopes = db
      .select({ resourceId: scopes.resourceId, name: scopes.name })
      .from(scopes)
      .innerJoin(rolesScopes, and(eq(rolesScopes.tenantId, scopes.tenantId), eq(rolesScopes.scopeId, scopes.id)))
      .innerJoin(holder.table, holder.join)
      .where(and(eq(scopes.tenantId, tenantId), holder.match))
      .as('granted');
    return db
      .selectDistinct({ accessTokenTtl: resources.accessTokenTtl, scope: grantedScopes.name })
      .from(resources)
      .leftJoin(grantedScopes, eq(grantedScopes.resourceId, resources.id))
      .where(and(eq(resources.tenantId, tenantId), eq(resources.indicator, indicator)));
  });
  const [first] = rows;
  if (!first) return undefined;
  const names = rows.flatMap((row) => (row.scope === null ? [] : [row.scope]));
  return { accessTokenTtl: first.accessTokenTtl, scopes: names.sort() };
}

/** The cloud API scopes every console user holds (spec §6). */
export const SELF_SERVICE_CLOUD_SCOPES: readonly CloudScope[] = ['create:tenant', 'manage:tenant:self'];

/**
 * What oidc-provider may put in an access token for `indicator`: a JWT for that audience, valid for
 * the resource's own lifetime, with the scopes the client (client credentials) or the signed-in user
 * holds through their roles. Those are scopes of this resource only, so a requested scope the
 * resource does not have (or that no role grants) is never in a token: oidc-provider grants the
 * requested scopes that are in this list.
 */
export async function resourceServerInfo(
  tenant: TenantDb,
  indicator: string,
  subject: { applicationId: string } | { userId: string },
  /** The algorithm of the tenant's current signing key. */
  signingAlgorithm: JwsAlgorithm = SIGNING_ALGORITHM,
  /** Keeps an application's grants between requests (a user's are read each time). */
  clients?: ClientCache,
): Promise<ResourceServer> {
  const { tenantId } = tenant;
  const read = () => resourceWithGrantedScopes(tenant, indicator, subject);
  const resource =
    clients && 'applicationId' in subject
      ? await clients.machineGrants(tenant, subject.applicationId, indicator, read)
      : await read();
  if (!resource) throw new errors.InvalidTarget('unknown resource indicator');
  // Every console user may manage their own account: the 'me' API needs no role.
  const consoleUser = tenantId === ADMIN_TENANT_ID && 'userId' in subject;
  // …and every console account of the cloud edition may create tenants and manage its own (spec §6);
  // per-tenant rights come from tenant membership, read at each cloud API request.
  const granted =
    consoleUser && indicator === ME_RESOURCE
      ? ['all']
      : consoleUser && indicator === CLOUD_API_RESOURCE
        ? [...new Set([...SELF_SERVICE_CLOUD_SCOPES, ...resource.scopes])].sort()
        : resource.scopes;
  return {
    scope: granted.join(' '),
    audience: indicator,
    accessTokenTTL: resource.accessTokenTtl,
    accessTokenFormat: 'jwt',
    jwt: { sign: { alg: signingAlgorithm } },
  };
}

/** The tenant's default API (spec §3 `isDefault`): the audience of a token request that names no resource. */
export async function defaultResourceIndicator(tenant: TenantDb): Promise<string | undefined> {
  const row = await tenant.findOne(resources, eq(resources.isDefault, true));
  return row?.indicator;
}

/**
 * oidc-provider's `defaultResource`: with no resource requested, the default API (none: an opaque token
 * as before). When a token request must pick one of several granted resources (`oneOf`), the default
 * wins if it is among them; otherwise the choice stays the client's (`invalid_target`).
 */
export async function chooseDefaultResource(
  tenant: TenantDb,
  oneOf: readonly string[] | undefined,
): Promise<string | readonly string[] | undefined> {
  const fallback = await defaultResourceIndicator(tenant);
  if (oneOf === undefined) return fallback;
  return fallback !== undefined && oneOf.includes(fallback) ? fallback : oneOf;
}

/** A token's lifetime: its resource's `accessTokenTtl`, else the schema's default (opaque tokens). */
export function accessTokenLifetime(token: { resourceServer?: { accessTokenTTL?: number | undefined } | undefined }) {
  return token.resourceServer?.accessTokenTTL ?? ACCESS_TOKEN_TTL_SECONDS.default;
}
