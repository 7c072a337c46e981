import { createRouter } from '../http/route-kit.ts';
import { applicationsRoutes } from './applications.ts';
import { logsRoutes } from './logs.ts';
import { resourcesRoutes } from './resources.ts';
import { rolesRoutes } from './roles.ts';
import { samlApplicationsRoutes } from './saml-applications.ts';

/** The management API of one tenant: one module per area, mounted under /api (OSS) or /m/{tenantId}/api (cloud). */
export function managementRoutes() {
  return createRouter()
    .route('/', applicationsRoutes)
    .route('/', samlApplicationsRoutes)
    .route('/', rolesRoutes)
    .route('/', resourcesRoutes)
    .route('/', logsRoutes);
}
