import { ADMIN_TENANT_ID, languages, previewScreens, type SignInExperienceSettings } from '@gatehouse/schemas';
import { type Context, Hono } from 'hono';
import { renderPreviewCodeScreen, renderScreen, type Screen, type ScreenLinks } from '../auth/sign-in-screens.ts';
import { stylesheetVersion } from '../auth/sign-in-theme.ts';
import { PRODUCT_NAME } from '../auth/steps/kit.ts';
import { tenantLook, tenantThemeStylesheet } from '../auth/tenant-look.ts';
import type { MessageDelivery } from '../services/message-delivery.ts';
import { openSignInPreview, previewApplication } from '../services/sign-in-preview.ts';
import type { AppEnv } from '../shared/app-env.ts';
import { sendHtml } from '../shared/html.ts';

/**
 * The console's live preview (`POST /api/sign-in-exp/preview` answers its address): the real sign-in pages, rendered
 * by the same code as the tenant's pages, with the saved settings plus the admin's unsaved changes. The console
 * frames it, so it may be framed by its own origin (app.ts); its forms lead back to the preview.
 */
export function signInPreviewRoutes(tenants: Parameters<typeof openSignInPreview>[0], delivery: MessageDelivery) {
  const app = new Hono<AppEnv>();

  const settingsOf = (c: Context<AppEnv>) =>
    openSignInPreview(tenants, c.req.param('tenantId') ?? '', c.req.param('token') ?? '');
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
    const application = await previewApplication(tenant, query.app);
    const look = await tenantLook(tenant, settings, {
      language,
      // As the real page: "Sign in to <application>" (issue 40, item 10: the preview said the tenant's name).
      name: tenant.tenantId === ADMIN_TENANT_ID ? PRODUCT_NAME : (application?.name ?? PRODUCT_NAME),
      forcedTheme: theme,
      themeHref: (css) => `${base}/theme.css?v=${stylesheetVersion(css)}`,
    });
    const keep = `lang=${language}&theme=${theme}${application ? `&app=${encodeURIComponent(application.id)}` : ''}`;
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
    const { screen, lang, theme, app: appId } = c.req.query();
    const params = new URLSearchParams({ screen: screen ?? 'sign_in', lang: lang ?? 'en', theme: theme ?? 'light' });
    if (appId) params.set('app', appId);
    return c.redirect(`/sign-in-preview/${tenantId}/${token}?${params}`, 303);
  });

  return app;
}
