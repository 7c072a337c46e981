import type { Page } from '@playwright/test';
import { edition } from '../playwright.config.ts';
import { seriousViolations } from '../support/axe.ts';
import { consolePath } from '../support/console.ts';
import { managementApiAs } from '../support/management-api.ts';
import { openSignedIn } from '../support/session.ts';
import { chooseLanguage, sidebarItemKeys, waitForShell } from '../support/shell.ts';
import { type SweepStop, sweepAreas } from '../support/sweep.ts';
import { expect, test } from '../support/test.ts';

const screenshots = process.env.E2E_SCREENSHOTS; // A folder: the sweep then saves every page it checked there.

async function snap(page: Page, name: string): Promise<void> {
  const file = `${edition}-sweep-${name.replace(/[^\w-]+/g, '-')}.png`;
  if (screenshots) await page.screenshot({ path: `${screenshots}/${file}`, fullPage: true });
}

/**
 * Where an area gets the whole sweep (axe in light and dark, Arabic): in the edition that has it, OSS when both do
 * (the pages are the same). The cloud run still opens every page of those areas, through the tenant's organization
 * token and tenant-prefixed paths, without repeating axe.
 */
const sweptIn = (key: string) => (key === 'tenant_settings' ? 'cloud' : 'oss');

/** Scripts must not fail on any page: a CSP violation or an uncaught error is reported as a page error. */
function watchScriptErrors(page: Page): () => string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return () => errors;
}

/**
 * axe on what the page shows now, in light with every rule, then in dark with the rules that depend on colours alone
 * (the appearance changes only colours: the same elements, names and roles). The appearance follows the system's
 * colour scheme, emulated here, so the account's saved appearance is never touched.
 */
const colourRules = ['color-contrast', 'link-in-text-block'];
async function axeInBothModes(page: Page, label: string, include?: string) {
  for (const mode of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: mode });
    await expect(page.locator('html'), 'the appearance follows the system').toHaveAttribute('data-theme', mode);
    const rules = mode === 'dark' ? colourRules : undefined;
    expect(await seriousViolations(page, { include, rules }), `${label}, ${mode}`).toEqual([]);
    await snap(page, `${label}-${mode}`);
  }
}

async function openStop(page: Page, stop: SweepStop): Promise<void> {
  await page.goto(consolePath(stop.path));
  // Each stop waits for what its page shows (support/sweep.ts), not for the network to go quiet.
  await stop.ready(page);
}

test.describe('every console page', () => {
  test('the accessibility check finds a violation planted on a page, in light and in dark', async ({ page }) => {
    // The sweep's checks are only as good as the checker: a page with a known serious violation must fail them.
    await openSignedIn(page, consolePath('get-started'));
    await waitForShell(page);
    expect(await seriousViolations(page), 'the page as it is').toEqual([]);
    await page.evaluate(() => {
      const planted = document.createElement('p');
      planted.id = 'planted-low-contrast';
      planted.textContent = 'Hard to read';
      planted.style.cssText = 'color:#777;background:#888';
      document.querySelector('main')?.append(planted);
      const image = document.createElement('img');
      image.id = 'planted-image';
      image.src = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
      document.querySelector('main')?.append(image);
    });
    expect(await seriousViolations(page)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^color-contrast: .*#planted-low-contrast/),
        expect.stringMatching(/^image-alt: .*#planted-image/),
      ]),
    );
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await seriousViolations(page, { rules: colourRules })).toEqual([
      expect.stringMatching(/^color-contrast: .*#planted-low-contrast/),
    ]);
    expect(await seriousViolations(page, { include: 'main', rules: ['image-alt'] })).toEqual([
      expect.stringMatching(/^image-alt: .*#planted-image/),
    ]);
  });

  test('every sidebar area of this edition has a sweep entry (support/sweep.ts)', async ({ page }) => {
    await openSignedIn(page, consolePath('get-started'));
    const keys = await sidebarItemKeys(page);
    expect(keys.length, 'the sidebar lists the areas').toBeGreaterThan(5);
    expect(
      keys.filter((key) => !(key in sweepAreas)),
      'sidebar items without a sweep entry',
    ).toEqual([]);
  });

  for (const [key, area] of Object.entries(sweepAreas)) {
    if (sweptIn(key) !== edition) continue;
    test(`${key}: pages and dialogs pass axe in light and dark, and read right to left in Arabic`, async ({ page }) => {
      test.setTimeout(240_000); // Two axe runs per page and dialog on a shared two-core machine.
      const scriptErrors = watchScriptErrors(page);
      await openSignedIn(page, consolePath('get-started'));
      await waitForShell(page);
      const { stops, cleanup } = await area.prepare(await managementApiAs(page));
      try {
        for (const stop of stops) {
          await page.emulateMedia({ colorScheme: 'light' });
          await openStop(page, stop);
          await axeInBothModes(page, `${key} ${stop.name}`);
          for (const dialog of stop.dialogs ?? []) {
            await page.emulateMedia({ colorScheme: 'light' });
            await dialog.open(page);
            await axeInBothModes(page, `${key} ${stop.name} ${dialog.name}`, dialog.scope ?? '[aria-modal="true"]');
            if (dialog.close) await dialog.close(page);
            else await page.keyboard.press('Escape');
          }
        }

        // Through the user menu, as a user would: the account's saved language wins over this browser's.
        await page.emulateMedia({ colorScheme: 'light' });
        await page.goto(consolePath(stops[0]?.path ?? 'get-started'));
        await waitForShell(page);
        await chooseLanguage(page, 'Language', 'العربية', 'ar');
        // In Arabic: the area's first page, and every page whose entry says what it must show in Arabic.
        for (const stop of stops.filter((candidate, index) => index === 0 || candidate.arabic)) {
          await page.goto(consolePath(stop.path));
          await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
          await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
          await stop.arabic?.(page);
          await snap(page, `${key} ${stop.name}-ar`);
        }
      } finally {
        // The language is saved with the shared admin's preferences: put it back.
        if ((await page.locator('html').getAttribute('lang')) === 'ar') {
          await page.keyboard.press('Escape');
          await chooseLanguage(page, 'اللغة', 'English', 'en');
        }
        await cleanup?.();
      }
      expect(scriptErrors(), 'no script error or CSP violation on any page').toEqual([]);
    });
  }

  test(`every page of the areas swept in the other edition opens in ${edition}`, async ({ page }) => {
    const elsewhere = Object.entries(sweepAreas).filter(([key]) => sweptIn(key) !== edition);
    test.skip(edition === 'oss', 'the OSS run sweeps every area it has (tenant settings exist in cloud only)');
    test.setTimeout(240_000);
    const scriptErrors = watchScriptErrors(page);
    await openSignedIn(page, consolePath('get-started'));
    await waitForShell(page);
    const api = await managementApiAs(page);
    for (const [key, area] of elsewhere) {
      const { stops, cleanup } = await area.prepare(api);
      try {
        for (const stop of stops) {
          await test.step(`${key}: ${stop.name}`, () => openStop(page, stop));
        }
      } finally {
        await cleanup?.();
      }
    }
    expect(scriptErrors(), 'no script error or CSP violation on any page').toEqual([]);
  });
});
