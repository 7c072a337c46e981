import {
  ADMIN_TENANT_ID,
  DomainError,
  dataPermissionOf,
  organizationAudience,
  tenantOrganizationId,
} from '@gatehouse/schemas';
import type { Context, MiddlewareHandler } from 'hono';
import type { TenantDbs } from '../db/tenant-db.ts';
import { memberScopeNames } from '../services/organization-access.ts';
import type { AppEnv } from '../shared/app-env.ts';
import type { SigningKeyStore } from './signing-keys.ts';
import {
  tokenAudiences,
  verifyCloudToken,
  verifyManagementToken,
  verifyMeToken,
  verifyTenantOrganizationToken,
} from './tokens.ts';

function bearerToken(c: Context<AppEnv>): string {
  const match = /^Bearer\s+(\S+)$/i.exec(c.req.header('Authorization') ?? '');
  if (!match?.[1]) throw new DomainError('unauthorized', 'auth.unauthorized', { reason: 'missing' });
  return match[1];
}

/**
 * Requires a valid bearer token for the request's tenant holding every scope in `required`.
 * With `tenantMembers` (cloud edition) a tenant member's organization token for `t-{tenant}` is
 * accepted too: it must carry the tenant permission the method needs (`dataPermissionOf`), and the
 * user must still hold it in the database now (a removal or role change counts from the next request).
 */
export function requireManagementToken(
  keys: SigningKeyStore,
  required: readonly string[],
  tenantMembers?: { tenants: TenantDbs },
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const tenantId = c.get('tenant').tenantId;
    const token = bearerToken(c);
    const publicUrl = c.get('config').publicUrl;
    const organizationId = tenantOrganizationId(tenantId);
    if (tenantMembers && tokenAudiences(token).includes(organizationAudience(organizationId))) {
      const auth = await verifyTenantOrganizationToken(keys, publicUrl, tenantId, token);
      const permission = dataPermissionOf(c.req.method);
      if (!auth.scopes.has(permission)) throw new DomainError('forbidden', 'auth.forbidden');
      const held = await memberScopeNames(tenantMembers.tenants.of(ADMIN_TENANT_ID), organizationId, {
        userId: auth.actor.id,
      });
      if (!held.includes(permission)) throw new DomainError('forbidden', 'auth.forbidden');
      c.set('auth', auth);
      return next();
    }
    const auth = await verifyManagementToken(keys, publicUrl, tenantId, token);
    if (!required.every((scope) => auth.scopes.has(scope))) throw new DomainError('forbidden', 'auth.forbidden');
    c.set('auth', auth);
    await next();
  };
}

/** Requires a 'me' API token of a console user; the user is the token's subject. */
export function requireMeToken(keys: SigningKeyStore): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('auth', await verifyMeToken(keys, c.get('config').publicUrl, bearerToken(c)));
    await next();
  };
}

/** Requires a cloud API token of a console user (cloud edition); per-tenant rights are read by the routes. */
export function requireCloudToken(keys: SigningKeyStore): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('auth', await verifyCloudToken(keys, c.get('config').publicUrl, bearerToken(c)));
    await next();
  };
}
