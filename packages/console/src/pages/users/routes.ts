import { defaultTabRoute } from '../../components/DetailPage/DefaultTab.tsx';
import type { ConsoleArea, EntitySearch } from '../../components/routing/area.ts';
import { i18n, loadNamespace } from '../../i18n/index.ts';
import { toUser } from './links.ts';
import { userDisplayName } from './user-display.ts';

/** Page chunk and strings download in parallel, so a page never suspends on its translations. */
async function page<T>(load: () => Promise<T>): Promise<T> {
  // The logs tab's entries are worded by the audit-log strings (components/AuditLog).
  const [module] = await Promise.all([load(), loadNamespace('users'), loadNamespace('audit_logs')]);
  return module;
}

/** The palette finds users on the server (substring of id, email, phone, username or name), five at a time. */
const searchEntities: EntitySearch = async (query, signal, { tenantId }) => {
  // Loaded on first use, so the shell's start-up chunk does not carry this area's API code.
  const { searchUsers } = await import('../../api/users.ts');
  const [{ items }] = await Promise.all([searchUsers(tenantId, query, signal), loadNamespace('users')]);
  return items.map((user) => ({
    id: user.id,
    label: userDisplayName(user) ?? user.id,
    kind: i18n.t('users:palette_kind'),
    to: toUser(user.id),
  }));
};

/** Spec §2.2 users: index; create and import (dialogs over the list); '{id}' → settings; tabs; '{userId}/logs/{logId}'. */
export const usersArea: ConsoleArea = {
  sidebarItem: 'users',
  routes: [
    {
      path: 'users',
      lazy: async () => ({ Component: (await page(() => import('./list/UsersPage.tsx'))).UsersPage }),
      children: [
        {
          path: 'create',
          lazy: async () => ({ Component: (await import('./create/CreateUserModal.tsx')).CreateUserModal }),
        },
        {
          path: 'import',
          lazy: async () => ({ Component: (await import('./import/ImportUsersModal.tsx')).ImportUsersModal }),
        },
      ],
    },
    {
      path: 'users/:userId/logs/:logId',
      lazy: async () => ({ Component: (await page(() => import('./detail/UserLogPage.tsx'))).UserLogPage }),
    },
    {
      path: 'users/:userId',
      lazy: async () => ({ Component: (await page(() => import('./detail/UserDetailsPage.tsx'))).UserDetailsPage }),
      children: [
        defaultTabRoute('settings'),
        {
          path: 'settings',
          lazy: async () => ({ Component: (await import('./detail/settings/UserSettings.tsx')).UserSettings }),
        },
        { path: 'roles', lazy: async () => ({ Component: (await import('./detail/UserRoles.tsx')).UserRoles }) },
        { path: 'logs', lazy: async () => ({ Component: (await import('./detail/UserLogs.tsx')).UserLogs }) },
        {
          path: 'organizations',
          lazy: async () => ({
            Component: (await import('./detail/UserOrganizations.tsx')).UserOrganizations,
          }),
        },
      ],
    },
  ],
  searchEntities,
};
