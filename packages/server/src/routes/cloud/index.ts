import { createRouter } from '../../http/route-kit.ts';
import { cloudBillingRoutes } from './billing.ts';
import { cloudCheckoutRoutes } from './checkout.ts';
import { cloudInvitationsRoutes } from './invitations.ts';
import type { CloudDeps } from './shared.ts';
import { cloudTenantInvitationsRoutes } from './tenant-invitations.ts';
import { cloudTenantMembersRoutes } from './tenant-members.ts';
import { cloudTenantsRoutes } from './tenants.ts';

export { cloudPaymentWebhookRoutes } from './payment-webhooks.ts';
export type { CloudDeps } from './shared.ts';
export { cloudWellKnownRoutes } from './well-known.ts';

/** The cloud API behind a cloud token (mounted at /api in the cloud edition only). */
export function cloudRoutes(deps: CloudDeps) {
  return createRouter()
    .route('/', cloudTenantsRoutes(deps))
    .route('/', cloudTenantMembersRoutes(deps))
    .route('/', cloudTenantInvitationsRoutes(deps))
    .route('/', cloudInvitationsRoutes(deps))
    .route('/', cloudBillingRoutes(deps))
    .route('/', cloudCheckoutRoutes(deps));
}
