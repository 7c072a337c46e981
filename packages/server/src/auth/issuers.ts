import { issuerPath, managementResourceIndicator } from '@gatehouse/schemas';

// The naming rules live in the schemas package, shared with the console.
export { issuerPath };

export function issuerUrl(publicUrl: string, tenantId: string): string {
  return `${publicUrl}${issuerPath(tenantId)}`;
}

/** The resource indicator (token audience) of a tenant's management API. */
export const managementResource = managementResourceIndicator;

/**
 * The resource indicator of the 'me' API (spec §7), where a console user reads and changes their
 * own account. Tokens for it come from the admin tenant's issuer.
 */
export const ME_RESOURCE = 'https://admin.gatehouse.internal/me';
