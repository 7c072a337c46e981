import { segment } from '../../components/routing/tenant-path.ts';

/** Spec §2.2 enterprise-sso: a connector's tabs (the reference's idp-initiated-auth tab is not built). */
export const ssoConnectorTabs = ['connection', 'experience'] as const;
export type SsoConnectorTab = (typeof ssoConnectorTabs)[number];

/** Link builders of the enterprise SSO area, relative to the tenant (resolve with useTenantPath). */
export const toSsoConnectors = (): string => 'enterprise-sso';
export const toCreateSsoConnector = (): string => 'enterprise-sso/create';
export const toSsoConnector = (id: string, tab: SsoConnectorTab = 'connection'): string =>
  `enterprise-sso/${segment(id)}/${tab}`;
