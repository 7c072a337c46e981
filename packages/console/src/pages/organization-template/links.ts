import { segment } from '../../components/routing/tenant-path.ts';

/** Spec §2.2: the tabs of the organization template and of an organization role. */
export type TemplateTab = 'organization-roles' | 'organization-permissions';
export type OrganizationRoleTab = 'permissions' | 'general';

/** Link builders of the organization template area, relative to the tenant. */
export const toOrganizationTemplate = (tab: TemplateTab = 'organization-roles'): string =>
  `organization-template/${tab}`;
export const toCreateOrganizationRole = (): string => 'organization-template/organization-roles/create';
export const toOrganizationRole = (id: string, tab: OrganizationRoleTab = 'permissions'): string =>
  `organization-template/organization-roles/${segment(id)}/${tab}`;
