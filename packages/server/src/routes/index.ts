import { createRouter } from '../http/route-kit.ts';
import { recordSuccessStatuses } from '../http/write-context.ts';
import { adminConsoleConfigRoutes } from './admin-console-config.ts';
import { applicationRolesRoutes } from './application-roles.ts';
import { applicationSecretsRoutes } from './application-secrets.ts';
import { applicationsRoutes } from './applications.ts';
import { captchaProviderRoutes } from './captcha-provider.ts';
import { connectorsRoutes } from './connectors.ts';
import { dashboardRoutes } from './dashboard.ts';
import { domainsRoutes } from './domains.ts';
import { exportsRoutes } from './exports.ts';
import { hooksRoutes } from './hooks.ts';
import { jwtCustomizerRoutes } from './jwt-customizer.ts';
import { logsRoutes } from './logs.ts';
import { oidcSessionConfigRoutes } from './oidc-session-config.ts';
import { oneTimeTokensRoutes } from './one-time-tokens.ts';
import { organizationApplicationsRoutes } from './organization-applications.ts';
import { organizationInvitationsRoutes } from './organization-invitations.ts';
import { organizationJitRoutes } from './organization-jit.ts';
import { organizationRoleScopesRoutes } from './organization-role-scopes.ts';
import { organizationRolesRoutes } from './organization-roles.ts';
import { organizationScopesRoutes } from './organization-scopes.ts';
import { organizationUsersRoutes } from './organization-users.ts';
import { organizationsRoutes } from './organizations.ts';
import { resourcesRoutes } from './resources.ts';
import { roleRelationsRoutes } from './role-relations.ts';
import { rolesRoutes } from './roles.ts';
import { samlCertificatesRoutes } from './saml-application-certificates.ts';
import { samlApplicationsRoutes } from './saml-applications.ts';
import { scimConnectionsRoutes } from './scim-connections.ts';
import { sentinelActivitiesRoutes } from './sentinel-activities.ts';
import { signInExperienceRoutes } from './sign-in-experience.ts';
import { signingKeysRoutes } from './signing-keys.ts';
import { ssoConnectorsRoutes } from './sso-connectors.ts';
import { userGrantsRoutes } from './user-grants.ts';
import { userIdentitiesRoutes } from './user-identities.ts';
import { userImportsRoutes } from './user-imports.ts';
import { userLogtoConfigsRoutes } from './user-logto-configs.ts';
import { userMfaVerificationsRoutes } from './user-mfa-verifications.ts';
import { userPersonalAccessTokensRoutes } from './user-personal-access-tokens.ts';
import { userRolesRoutes } from './user-roles.ts';
import { usersRoutes } from './users.ts';

/** The management API of one tenant: one module per area, mounted under /api (OSS) or /m/{tenantId}/api (cloud). */
export function managementRoutes() {
  // The success status of each route, which the webhooks of the events a request writes carry (as the reference's).
  return recordSuccessStatuses(
    createRouter()
      .route('/', applicationsRoutes)
      .route('/', applicationRolesRoutes)
      .route('/', applicationSecretsRoutes)
      .route('/', samlApplicationsRoutes)
      .route('/', samlCertificatesRoutes)
      .route('/', rolesRoutes)
      .route('/', roleRelationsRoutes)
      .route('/', resourcesRoutes)
      // Before users and logs, so /users/export and /users/imports are not read as /users/{userId}.
      .route('/', exportsRoutes)
      .route('/', userImportsRoutes)
      .route('/', logsRoutes)
      .route('/', dashboardRoutes)
      .route('/', usersRoutes)
      .route('/', userRolesRoutes)
      .route('/', userIdentitiesRoutes)
      .route('/', userGrantsRoutes)
      .route('/', userMfaVerificationsRoutes)
      .route('/', userPersonalAccessTokensRoutes)
      .route('/', userLogtoConfigsRoutes)
      .route('/', organizationsRoutes)
      .route('/', organizationUsersRoutes)
      .route('/', organizationApplicationsRoutes)
      .route('/', organizationJitRoutes)
      .route('/', organizationRolesRoutes)
      .route('/', organizationRoleScopesRoutes)
      .route('/', organizationScopesRoutes)
      .route('/', organizationInvitationsRoutes)
      .route('/', hooksRoutes)
      // Before the signing keys, whose /configs/oidc/{keyType} would otherwise claim /configs/oidc/session.
      .route('/', oidcSessionConfigRoutes)
      .route('/', jwtCustomizerRoutes)
      .route('/', captchaProviderRoutes)
      .route('/', signingKeysRoutes)
      .route('/', adminConsoleConfigRoutes)
      .route('/', domainsRoutes)
      .route('/', signInExperienceRoutes)
      .route('/', connectorsRoutes)
      .route('/', ssoConnectorsRoutes)
      .route('/', oneTimeTokensRoutes)
      .route('/', scimConnectionsRoutes)
      .route('/', sentinelActivitiesRoutes),
  );
}
