import { segment } from '../../components/routing/tenant-path.ts';
import type { GuideId } from './guides/guides.ts';

/** Spec §2.2 application routes, relative to the tenant (resolve with useTenantPath). */
export const applicationTabs = ['settings', 'branding', 'roles', 'logs', 'organizations'] as const;
export type ApplicationTab = (typeof applicationTabs)[number];

export const toApplications = (): string => 'applications';
export const toThirdPartyApplications = (): string => 'applications/third-party-applications';
export const toCreateApplication = (): string => 'applications/create';
export const toApplication = (id: string, tab: ApplicationTab = 'settings'): string =>
  `applications/${segment(id)}/${tab}`;
export const toApplicationGuide = (id: string, guide: GuideId): string => `applications/${segment(id)}/guide/${guide}`;
export const toApplicationLog = (id: string, logId: string): string =>
  `applications/${segment(id)}/logs/${segment(logId)}`;
