import type { ConsoleArea } from '../../components/routing/area.ts';
import { loadNamespace } from '../../i18n/index.ts';

/** Page chunk and strings download in parallel, so a page never suspends on its translations. */
async function page<T>(load: () => Promise<T>): Promise<T> {
  const [module] = await Promise.all([load(), loadNamespace('audit_logs')]);
  return module;
}

/** Spec §2.2 audit-logs: index; {logId}. */
export const auditLogsArea: ConsoleArea = {
  sidebarItem: 'audit_logs',
  routes: [
    {
      path: 'audit-logs',
      lazy: async () => ({ Component: (await page(() => import('./AuditLogsPage.tsx'))).AuditLogsPage }),
    },
    {
      path: 'audit-logs/:logId',
      lazy: async () => ({ Component: (await page(() => import('./AuditLogPage.tsx'))).AuditLogPage }),
    },
  ],
};
