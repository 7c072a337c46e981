import { segment } from '../../components/routing/tenant-path.ts';

/** Spec §2.2: the tabs of a role. */
export type RoleTab = 'permissions' | 'users' | 'machine-to-machine-apps' | 'general';

/** Link builders of the roles area, relative to the tenant. */
export const toRoles = (): string => 'roles';
export const toCreateRole = (): string => 'roles/create';
export const toRole = (id: string, tab: RoleTab = 'permissions'): string => `roles/${segment(id)}/${tab}`;
