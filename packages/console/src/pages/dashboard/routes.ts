import type { ConsoleArea } from '../../components/routing/area.ts';
import { loadNamespace } from '../../i18n/index.ts';

/** Link builder: the dashboard, relative to the tenant. */
export const toDashboard = (): string => 'dashboard';

export const dashboardArea: ConsoleArea = {
  sidebarItem: 'dashboard',
  routes: [
    {
      path: 'dashboard',
      lazy: async () => {
        // Page chunk and its strings download in parallel; the chart library is a further chunk of its own.
        const [{ DashboardPage }] = await Promise.all([import('./DashboardPage.tsx'), loadNamespace('dashboard')]);
        return { Component: DashboardPage };
      },
    },
  ],
};
