import { createRouter } from '../../http/route-kit.ts';
import { cloudBillingRoutes } from './billing.ts';
import { cloudCheckoutRoutes } from './checkout.ts';
import { cloudInvitationsRoutes } from './invitations.ts';
import type { CloudDeps } from './shared.ts';
import { TENANT_ROUTES, tenantAccessGuard } from './tenant-access.ts';
import { cloudTenantInvitationsRoutes } from './tenant-invitations.ts';
import { cloudTenantMembersRoutes } from './tenant-members.ts';
import { cloudTenantsRoutes } from './tenants.ts';

export { cloudPaymentWebhookRoutes } from './payment-webhooks.ts';
export type { CloudDeps } from './shared.ts';
export { cloudWellKnownRoutes } from './well-known.ts';

/**
 * The cloud API behind a cloud token (mounted at /api in the cloud edition only). Every route of a tenant
 * (`/tenants/{id}…`) passes one access check first, from the requirement it declares (tenant-access.ts).
 */
export function cloudRoutes(deps: CloudDeps) {
  return createRouter({ undeclaredKeys: 'refuse' })
    .use(TENANT_ROUTES, tenantAccessGuard(deps.db))
    .route('/', cloudTenantsRoutes(deps))
    .route('/', cloudTenantMembersRoutes(deps))
    .route('/', cloudTenantInvitationsRoutes(deps))
    .route('/', cloudInvitationsRoutes(deps))
    .route('/', cloudBillingRoutes(deps))
    .route('/', cloudCheckoutRoutes(deps));
}
