import { segment } from '../../components/routing/tenant-path.ts';

/** Spec §2.2: the tabs of an organization. */
export type OrganizationTab = 'settings' | 'members' | 'machine-to-machine';

/** Link builders of the organizations area, relative to the tenant. */
export const toOrganizations = (): string => 'organizations';
export const toCreateOrganization = (): string => 'organizations/create';
export const toOrganization = (id: string, tab: OrganizationTab = 'settings'): string =>
  `organizations/${segment(id)}/${tab}`;
