import { segment } from '../../components/routing/tenant-path.ts';

/** Link builders of the audit-logs area, relative to the tenant (resolve with useTenantPath). */
export const toAuditLogs = (search = ''): string =>
  `audit-logs${search && !search.startsWith('?') ? `?${search}` : search}`;
export const toAuditLog = (logId: string): string => `audit-logs/${segment(logId)}`;
