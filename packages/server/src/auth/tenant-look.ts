import type { SignInExperienceSettings } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { organizations } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { customPhrasesOf } from '../services/sign-in-experience.ts';
import { type SignInLook, signInLook } from './sign-in-look.ts';
import { themeStylesheet } from './sign-in-theme.ts';

/** A tenant's theme stylesheet: its colours (an organization's over them) and custom CSS. */
export const tenantThemeStylesheet = (
  settings: SignInExperienceSettings,
  organization?: { color: unknown; customCss: string | null },
) => {
  const color = { ...settings.color, ...(organization?.color as Partial<SignInExperienceSettings['color']>) };
  return themeStylesheet(color, [settings.customCss, organization?.customCss].filter(Boolean).join('\n'));
};

/** Builds the look of a tenant's pages (also the live preview's, with forced language and theme). */
export async function tenantLook(
  tenant: TenantDb,
  settings: SignInExperienceSettings,
  options: {
    language: SignInLook['language'];
    name: string;
    themeHref: (css: string) => string;
    organizationId?: unknown;
    forcedTheme?: 'light' | 'dark' | undefined;
  },
): Promise<SignInLook> {
  const organization =
    typeof options.organizationId === 'string' && options.organizationId.length <= 32
      ? await tenant.findOne(organizations, eq(organizations.id, options.organizationId))
      : undefined;
  const css = tenantThemeStylesheet(settings, organization);
  return signInLook({
    language: options.language,
    settings,
    phrases: await customPhrasesOf(tenant, options.language),
    name: options.name,
    themeStylesheet: options.themeHref(css),
    forcedTheme: options.forcedTheme,
    organizationBranding: organization?.branding as SignInExperienceSettings['branding'] | undefined,
  });
}
