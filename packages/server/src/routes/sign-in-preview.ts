import { languages, previewScreens, type SignInExperienceSettings } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { type Context, Hono } from 'hono';
import { renderPreviewCodeScreen, renderScreen, type Screen, type ScreenLinks } from '../auth/sign-in-screens.ts';
import { stylesheetVersion } from '../auth/sign-in-theme.ts';
import { tenantLook, tenantThemeStylesheet } from '../auth/tenant-look.ts';
import { tenants as tenantsTable } from '../db/tables.ts';
import type { TenantDbs } from '../db/tenant-db.ts';
import type { AppEnv } from '../http/context.ts';
import { sendHtml } from '../http/html.ts';
import type { MessageDelivery } from '../services/message-delivery.ts';
import { readSignInPreview } from '../services/sign-in-preview.ts';

/**
 * The console's live preview (`POST /api/sign-in-exp/preview` answers its address): the real sign-in pages, rendered
 * by the same code as the tenant's pages, with the saved settings plus the admin's unsaved changes. The console
 * frames it, so it may be framed by its own origin (app.ts); its forms lead back to the preview.
 */
export function signInPreviewRoutes(tenants: TenantDbs, delivery: MessageDelivery) {
  const app = new Hono<AppEnv>();

  const settingsOf = async (c: Context<AppEnv>) => {
    const tenant = tenants.of(c.req.param('tenantId') ?? '');
    const settings = await readSignInPreview(tenant, c.req.param('token') ?? '');
    return settings && { tenant, settings };
  };
  const gone = (c: Context<AppEnv>) => c.text('This preview has expired.', 404);

  app.get('/sign-in-preview/:tenantId/:token/theme.css', async (c) => {
    const found = await settingsOf(c);
    if (!found) return gone(c);
    c.header('Cache-Control', 'no-store');
    return c.body(tenantThemeStylesheet(found.settings), 200, { 'Content-Type': 'text/css; charset=utf-8' });
  });

  app.get('/sign-in-preview/:tenantId/:token', async (c) => {
    const found = await settingsOf(c);
    if (!found) return gone(c);
    const { tenant, settings } = found;
    const query = c.req.query();
    const language = (languages as readonly string[]).includes(query.lang ?? '')
      ? (query.lang as SignInExperienceSettings['languageInfo']['fallbackLanguage'])
      : settings.languageInfo.fallbackLanguage;
    const theme = query.theme === 'dark' ? 'dark' : 'light';
    const screen = (previewScreens as readonly string[]).includes(query.screen ?? '') ? query.screen : 'sign_in';
    const base = `/sign-in-preview/${tenant.tenantId}/${c.req.param('token')}`;
    const [row] = await tenant.asTenant((db) =>
      db.select({ name: tenantsTable.name }).from(tenantsTable).where(eq(tenantsTable.id, tenant.tenantId)),
    );
    const look = await tenantLook(tenant, settings, {
      language,
      name: row?.name ?? 'Gatehouse',
      forcedTheme: theme,
      themeHref: (css) => `${base}/theme.css?v=${stylesheetVersion(css)}`,
    });
    const keep = `lang=${language}&theme=${theme}`;
    const links: ScreenLinks = {
      screen: (next: Screen) => `${base}?screen=${next}&${keep}`,
      action: () => `${base}/submit?screen=${screen}&${keep}`,
    };
    c.header('Cache-Control', 'no-store');
    if (screen === 'verification_code') return sendHtml(c, renderPreviewCodeScreen(look, links));
    return sendHtml(
      c,
      renderScreen(screen as Screen, {
        look,
        links,
        registration: settings.signInMode !== 'SignIn',
        senders: await delivery.senders(tenant),
        identifier: '',
      }),
    );
  });

  // A preview's form leads back to the same screen: nothing is submitted anywhere.
  app.post('/sign-in-preview/:tenantId/:token/submit', (c) => {
    const { tenantId, token } = c.req.param();
    const { screen, lang, theme } = c.req.query();
    const params = new URLSearchParams({ screen: screen ?? 'sign_in', lang: lang ?? 'en', theme: theme ?? 'light' });
    return c.redirect(`/sign-in-preview/${tenantId}/${token}?${params}`, 303);
  });

  return app;
}
