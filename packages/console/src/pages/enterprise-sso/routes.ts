import { defaultTabRoute } from '../../components/DetailPage/DefaultTab.tsx';
import type { ConsoleArea } from '../../components/routing/area.ts';
import { loadNamespace } from '../../i18n/index.ts';

/** Page chunk and strings download in parallel, so a page never suspends on its translations. */
async function page<T>(load: () => Promise<T>): Promise<T> {
  const [module] = await Promise.all([load(), loadNamespace('enterprise_sso')]);
  return module;
}

/**
 * Spec §2.2 enterprise-sso: index; create (a dialog over the list); '{ssoConnectorId}' → connection;
 * '{ssoConnectorId}/{tab}' with the tabs connection, experience, (SAML connectors) idp-initiated-auth and provisioning
 * (SCIM, issue 45; its setup dialog at 'provisioning/setup').
 */
export const enterpriseSsoArea: ConsoleArea = {
  sidebarItem: 'enterprise_sso',
  routes: [
    {
      path: 'enterprise-sso',
      lazy: async () => ({ Component: (await page(() => import('./EnterpriseSsoPage.tsx'))).EnterpriseSsoPage }),
      children: [
        {
          path: 'create',
          lazy: async () => ({
            Component: (await import('./create/CreateSsoConnectorModal.tsx')).CreateSsoConnectorModal,
          }),
        },
      ],
    },
    {
      path: 'enterprise-sso/:ssoConnectorId',
      lazy: async () => ({
        Component: (await page(() => import('./detail/SsoConnectorDetailsPage.tsx'))).SsoConnectorDetailsPage,
      }),
      children: [
        defaultTabRoute('connection'),
        {
          path: 'connection',
          lazy: async () => ({ Component: (await import('./detail/ConnectionTab.tsx')).ConnectionTab }),
        },
        {
          path: 'experience',
          lazy: async () => ({ Component: (await import('./detail/ExperienceTab.tsx')).ExperienceTab }),
        },
        {
          path: 'idp-initiated-auth',
          lazy: async () => ({ Component: (await import('./detail/IdpInitiatedAuthTab.tsx')).IdpInitiatedAuthTab }),
        },
        {
          path: 'provisioning',
          lazy: async () => ({ Component: (await import('./provisioning/ProvisioningTab.tsx')).ProvisioningTab }),
          children: [
            {
              path: 'setup',
              lazy: async () => ({
                Component: (await import('./provisioning/SetUpProvisioningModal.tsx')).SetUpProvisioningModal,
              }),
            },
          ],
        },
      ],
    },
  ],
};
