import { segment } from '../../components/routing/tenant-path.ts';

/**
 * Spec §2.2 enterprise-sso: a connector's tabs; IdP-initiated sign-in (`idp-initiated-auth`) is SAML's only, SCIM
 * provisioning (`provisioning`, issue 45) every connector's.
 */
export const ssoConnectorTabs = ['connection', 'experience', 'idp-initiated-auth', 'provisioning'] as const;
export type SsoConnectorTab = (typeof ssoConnectorTabs)[number];

/** The tabs a connector of this protocol has. */
export const ssoConnectorTabsOf = (providerType: 'OIDC' | 'SAML'): readonly SsoConnectorTab[] =>
  providerType === 'SAML' ? ssoConnectorTabs : ssoConnectorTabs.filter((tab) => tab !== 'idp-initiated-auth');

/** Link builders of the enterprise SSO area, relative to the tenant (resolve with useTenantPath). */
export const toSsoConnectors = (): string => 'enterprise-sso';
export const toCreateSsoConnector = (): string => 'enterprise-sso/create';
export const toSsoConnector = (id: string, tab: SsoConnectorTab = 'connection'): string =>
  `enterprise-sso/${segment(id)}/${tab}`;
/** The dialog that sets up a connector's SCIM provisioning, over its provisioning tab. */
export const toSetUpProvisioning = (id: string): string => `${toSsoConnector(id, 'provisioning')}/setup`;
