import { generatePath } from 'react-router';
import type { Edition } from './edition.ts';

/** Cloud '/' has no tenant picker yet, so it lands in the default tenant. */
export const defaultTenantId = 'default';

/** A path inside the current tenant: '/x' in OSS, '/{tenantId}/x' in cloud (spec §2.1). */
export function tenantPath(edition: Edition, tenantId: string | undefined, path: string): string {
  if (edition === 'oss') return `/${path}`;
  if (!tenantId) throw new Error('Tenant ID not found');
  return `${generatePath('/:tenantId', { tenantId })}/${path}`;
}
