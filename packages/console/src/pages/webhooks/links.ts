import { segment } from '../../components/routing/tenant-path.ts';

/** Spec §2.2 webhooks: the tabs of a webhook. */
export const hookTabs = ['settings', 'recent-requests'] as const;
export type HookTab = (typeof hookTabs)[number];

/** Link builders of the webhooks area, relative to the tenant (resolve with useTenantPath). */
export const toHooks = (): string => 'webhooks';
export const toCreateHook = (): string => 'webhooks/create';
export const toHook = (id: string, tab: HookTab = 'settings'): string => `webhooks/${segment(id)}/${tab}`;
export const toHookLog = (hookId: string, logId: string): string =>
  `webhooks/${segment(hookId)}/recent-requests/${segment(logId)}`;
