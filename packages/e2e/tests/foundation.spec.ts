import { expect, test } from '@playwright/test';
import { consolePath, expectHeading, watchPageErrors } from '../support/console.ts';
import { openSignedIn } from '../support/session.ts';
import { chooseLanguage, waitForShell } from '../support/shell.ts';

test.describe('the console is served by the server', () => {
  test('/ asks for sign-in, then lands on the first sidebar page, which sees the server', async ({ page }) => {
    const problems = watchPageErrors(page);
    await openSignedIn(page, '/', { viaForm: true });
    await expect(page).toHaveURL(new RegExp(`${consolePath('get-started')}$`));
    await expectHeading(page, 'Get started');
    await expect(page.getByRole('status')).toHaveText('Server is running');
    await expect(page).toHaveTitle('Get started - Gatehouse');
    await expect(page.getByRole('navigation')).toBeVisible();
    await expect(page.getByRole('main')).toBeVisible();
    expect(problems(), 'no CSP violation, script error or failed request').toEqual([]);
  });

  test('the console document has the security headers and hashed assets are cached for a year', async ({
    page,
    request,
  }) => {
    const response = await request.get(consolePath('get-started'));
    expect(response.status()).toBe(200);
    const headers = response.headers();
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['cache-control'], 'the SPA entry is never cached').toBe('no-cache');

    const assets: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/console/assets/')) assets.push(r.url());
    });
    await openSignedIn(page, consolePath());
    await expectHeading(page, 'Get started');
    expect(assets.length).toBeGreaterThan(0);
    const asset = await request.get(assets[0] ?? '');
    expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers()['content-encoding'], 'assets are sent precompressed').toMatch(/^(br|gzip)$/);
    expect((await request.get('/console/assets/missing-0000.js')).status(), 'a missing asset is a 404').toBe(404);
  });

  test('a deep link survives sign-in: an unknown path shows page not found inside the shell', async ({ page }) => {
    await openSignedIn(page, `${consolePath('no/such/page')}?tab=1`, { viaForm: true });
    await expect(page).toHaveURL(new RegExp(`${consolePath('no/such/page')}\\?tab=1$`));
    await expectHeading(page, 'Page not found');
    await expect(page.getByRole('navigation')).toBeVisible();
  });

  test('pages are loaded as separate chunks, with only the active language', async ({ page }) => {
    const scripts: string[] = [];
    const localeFiles: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (r.resourceType() === 'script') scripts.push(path);
      if (path.startsWith('/console/assets/locales/')) localeFiles.push(path);
    });
    await openSignedIn(page, consolePath('get-started'));
    await expectHeading(page, 'Get started');
    expect(
      scripts.some((s) => /GetStartedPage-[\w-]+\.js$/.test(s)),
      'the page is its own chunk',
    ).toBe(true);
    // Strings are JSON files per language and namespace (packages/console/locale-assets.ts).
    expect(localeFiles.map((path) => path.replace(/^.*\//, '')).sort()).toEqual(
      expect.arrayContaining(['common.json', 'components.json', 'get_started.json']),
    );
    expect(
      localeFiles.every((path) => /^\/console\/assets\/locales\/en-[0-9a-f]+\/\w+\.json$/.test(path)),
      `only English strings: ${localeFiles.join(', ')}`,
    ).toBe(true);

    // With fresh tokens in the tab, a reload reads them from storage and leaves the OIDC client unloaded. The page's
    // queries may still be fetching a token for another API after its heading shows (the cloud edition asks for
    // several); a reload before that ends would rightly load the client to fetch it again.
    await page.waitForLoadState('networkidle');
    scripts.length = 0;
    await page.reload();
    await expectHeading(page, 'Get started');
    expect(scripts.filter((path) => /oidc-client-ts/.test(path))).toEqual([]);
    expect(scripts.some((path) => /GetStartedPage-[\w-]+\.js$/.test(path))).toBe(true);
  });

  test('Arabic renders right to left in Arabic', async ({ page }) => {
    // Through the user menu: the account's saved language wins over the browser's stored one after sign-in.
    await openSignedIn(page, consolePath('get-started'));
    await waitForShell(page);
    await chooseLanguage(page, 'Language', 'العربية', 'ar');
    try {
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Get started');
    } finally {
      await chooseLanguage(page, 'اللغة', 'English', 'en');
    }
  });
});

test.describe('the API behind the console', () => {
  test('status and OpenAPI are public; the management API needs a token', async ({ request }) => {
    expect((await request.get('/api/status')).status()).toBe(204);
    const document = await request.get('/api/openapi.json');
    expect((await document.json()).openapi).toBe('3.1.0');
    const api = consolePath().includes('/default') ? '/m/default/api/roles' : '/api/roles';
    const denied = await request.get(api);
    expect(denied.status()).toBe(401);
    expect(await denied.json()).toMatchObject({ code: 'auth.unauthorized' });
  });
});
