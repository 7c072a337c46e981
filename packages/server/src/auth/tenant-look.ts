import type { Branding, SignInExperienceSettings } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { organizations } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { readApplicationSignInExperience } from '../services/application-sign-in-experience.ts';
import { customPhrasesOf } from '../services/sign-in-experience.ts';
import { type SignInLook, signInLook } from './sign-in-look.ts';
import { themeStylesheet } from './sign-in-theme.ts';

/**
 * What shows over the tenant's own branding on a page: an organization's (`organization_id`, spec §2.4), or a
 * third-party application's on its consent page (`/applications/{id}/sign-in-experience`).
 */
export type BrandingOverlay = {
  color?: Partial<SignInExperienceSettings['color']>;
  branding?: Branding;
  customCss?: string | null;
  /** The name shown instead of the application's. */
  displayName?: string | null;
  termsOfUseUrl?: string | null;
  privacyPolicyUrl?: string | null;
};

/** Which overlay a page asks for: its organization and, on a consent page, its third-party application. */
export type OverlaySource = { organizationId?: unknown; applicationId?: string | undefined };

export async function brandingOverlay(tenant: TenantDb, source: OverlaySource): Promise<BrandingOverlay> {
  const overlay: BrandingOverlay = {};
  if (typeof source.organizationId === 'string' && source.organizationId.length <= 32) {
    const organization = await tenant.findOne(organizations, eq(organizations.id, source.organizationId));
    if (organization) {
      overlay.color = organization.color as BrandingOverlay['color'];
      overlay.branding = organization.branding as Branding;
      overlay.customCss = organization.customCss;
    }
  }
  if (source.applicationId) {
    const app = await readApplicationSignInExperience(tenant, source.applicationId);
    if (app) {
      Object.assign(overlay, {
        color: { ...overlay.color, ...app.color },
        branding: { ...overlay.branding, ...app.branding },
        displayName: app.displayName,
        termsOfUseUrl: app.termsOfUseUrl,
        privacyPolicyUrl: app.privacyPolicyUrl,
      });
    }
  }
  return overlay;
}

/** A tenant's theme stylesheet: its colours (an overlay's over them) and custom CSS. */
export const tenantThemeStylesheet = (settings: SignInExperienceSettings, overlay: BrandingOverlay = {}) =>
  themeStylesheet(
    { ...settings.color, ...overlay.color },
    [settings.customCss, overlay.customCss].filter(Boolean).join('\n'),
  );

/** Builds the look of a tenant's pages (also the live preview's, with forced language and theme). */
export async function tenantLook(
  tenant: TenantDb,
  settings: SignInExperienceSettings,
  options: {
    language: SignInLook['language'];
    name: string;
    themeHref: (css: string) => string;
    overlay?: BrandingOverlay | undefined;
    forcedTheme?: 'light' | 'dark' | undefined;
    /** The custom phrases already chosen for the visitor (`phrasesForPage`); else the tenant's of `language`. */
    phrases?: Record<string, string> | undefined;
  },
): Promise<SignInLook> {
  const overlay = options.overlay ?? {};
  const css = tenantThemeStylesheet(settings, overlay);
  // A third-party application's terms replace the tenant's on its consent page.
  const terms =
    overlay.termsOfUseUrl !== undefined || overlay.privacyPolicyUrl !== undefined
      ? { termsOfUseUrl: overlay.termsOfUseUrl ?? null, privacyPolicyUrl: overlay.privacyPolicyUrl ?? null }
      : {};
  return signInLook({
    language: options.language,
    settings: { ...settings, ...terms },
    phrases: options.phrases ?? (await customPhrasesOf(tenant, options.language)),
    name: overlay.displayName || options.name,
    themeStylesheet: options.themeHref(css),
    forcedTheme: options.forcedTheme,
    organizationBranding: overlay.branding,
  });
}
