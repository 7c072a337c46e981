import { defaultTabRoute } from '../../components/DetailPage/DefaultTab.tsx';
import type { ConsoleArea } from '../../components/routing/area.ts';
import { loadNamespace } from '../../i18n/index.ts';

const withStrings = async <T>(chunk: Promise<T>): Promise<T> =>
  (await Promise.all([chunk, loadNamespace('sign_in_experience')]))[0];

/**
 * Spec §2.2 sign-in-experience: redirects to branding; tabs branding, sign-up-and-sign-in, content and
 * password-policy. One form spans the tabs (the page holds it), so the tabs are in the page's chunk.
 */
export const signInExperienceArea: ConsoleArea = {
  sidebarItem: 'sign_in_experience',
  routes: [
    {
      path: 'sign-in-experience',
      lazy: async () => ({
        Component: (await withStrings(import('./SignInExperiencePage.tsx'))).SignInExperiencePage,
      }),
      children: [
        defaultTabRoute('branding'),
        {
          path: 'branding',
          lazy: async () => ({ Component: (await import('./tabs/BrandingTab.tsx')).BrandingTab }),
        },
        {
          path: 'sign-up-and-sign-in',
          lazy: async () => ({ Component: (await import('./tabs/SignUpAndSignInTab.tsx')).SignUpAndSignInTab }),
        },
        {
          path: 'content',
          lazy: async () => ({ Component: (await import('./tabs/ContentTab.tsx')).ContentTab }),
        },
        {
          path: 'password-policy',
          lazy: async () => ({ Component: (await import('./tabs/PasswordPolicyTab.tsx')).PasswordPolicyTab }),
        },
      ],
    },
  ],
};
