import { segment } from '../../components/routing/tenant-path.ts';

/** Link builders of spec §2.2 api-resources, relative to the tenant (resolved with useTenantPath). */
export const toApiResources = (): string => 'api-resources';
export const toCreateApiResource = (): string => 'api-resources/create';

export type ApiResourceTab = 'permissions' | 'general';
export const toApiResource = (id: string, tab: ApiResourceTab = 'permissions'): string =>
  `api-resources/${segment(id)}/${tab}`;

export const toApiResourceGuide = (id: string, guideId: string): string =>
  `api-resources/${segment(id)}/guide/${segment(guideId)}`;
