import { segment } from '../../components/routing/tenant-path.ts';

/** Spec §2.2 users: the tabs of a user. */
export const userTabs = ['settings', 'roles', 'logs', 'organizations'] as const;
export type UserTab = (typeof userTabs)[number];

/** Link builders of the users area, relative to the tenant (resolve with useTenantPath). */
export const toUsers = (): string => 'users';
export const toCreateUser = (): string => 'users/create';
export const toImportUsers = (): string => 'users/import';
export const toUser = (id: string, tab: UserTab = 'settings'): string => `users/${segment(id)}/${tab}`;
export const toUserLog = (userId: string, logId: string): string => `users/${segment(userId)}/logs/${segment(logId)}`;
