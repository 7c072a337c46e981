import type { ConnectorType } from '@gatehouse/schemas';
import { segment } from '../../components/routing/tenant-path.ts';

/** Spec §2.2 connectors: the list's tabs, the create types (email and SMS on passwordless, social) and a connector's tabs. */
export const connectorListTabs = ['passwordless', 'social'] as const;
export type ConnectorListTab = (typeof connectorListTabs)[number];
export const createTypes = ['email', 'sms', 'social'] as const;
export type CreateType = (typeof createTypes)[number];
export const connectorDetailTabs = ['connection', 'experience'] as const;
export type ConnectorDetailTab = (typeof connectorDetailTabs)[number];

export const isListTab = (value: string | undefined): value is ConnectorListTab =>
  connectorListTabs.includes(value as ConnectorListTab);
export const isCreateType = (value: string | undefined): value is CreateType =>
  createTypes.includes(value as CreateType);

export const typeOfCreateType: Record<CreateType, ConnectorType> = { email: 'Email', sms: 'Sms', social: 'Social' };
export const createTypeOf = (type: ConnectorType): CreateType =>
  type === 'Email' ? 'email' : type === 'Sms' ? 'sms' : 'social';
export const listTabOf = (type: ConnectorType): ConnectorListTab => (type === 'Social' ? 'social' : 'passwordless');

/** Link builders of the connectors area, relative to the tenant (resolve with useTenantPath). */
export const toConnectors = (tab: ConnectorListTab = 'passwordless'): string => `connectors/${tab}`;
export const toCreateConnector = (tab: ConnectorListTab, type: string): string =>
  `connectors/${tab}/create/${segment(type)}`;
export const toConnectorGuide = (tab: ConnectorListTab, factoryId: string): string =>
  `connectors/${tab}/guide/${segment(factoryId)}`;
export const toConnector = (tab: ConnectorListTab, id: string, detailTab: ConnectorDetailTab = 'connection'): string =>
  `connectors/${tab}/${segment(id)}/${detailTab}`;
