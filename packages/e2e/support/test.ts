import { type BrowserContext, test as base, type Page } from '@playwright/test';
import { retireTabSessions } from './session.ts';

export { expect } from '@playwright/test';

/**
 * The `test` of the area specs: one browser tab per Playwright worker, kept across its tests (docs/testing.md, issue
 * 36). A fresh context per test cost about 1.3 s before its first page showed (a new renderer compiling the console's
 * code again); a tab the worker already used shows the next page in about 0.3 s. What a test could leave behind is
 * put back after it: listeners, routes, emulated media, viewport, cookies, local and session storage, other tabs.
 * A failed test ends its worker (Playwright's rule), so a retry always starts in a new tab.
 *
 * A test whose subject is a first visit (a fake clock, init scripts of its own) takes `freshPage` instead; specs about
 * what the console loads (foundation, profile) use `@playwright/test`'s own `test`, a fresh context per test.
 */
const pageEvents = [
  'console',
  'dialog',
  'download',
  'filechooser',
  'framenavigated',
  'load',
  'domcontentloaded',
  'pageerror',
  'popup',
  'request',
  'requestfailed',
  'requestfinished',
  'response',
  'websocket',
] as const;

const defaultViewport = { width: 1280, height: 720 };

/** Puts the worker's tab back as a fresh one would be, for the next test. */
async function reset(page: Page, baseURL: string): Promise<void> {
  for (const event of pageEvents) page.removeAllListeners(event);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  for (const other of page.context().pages()) if (other !== page) await other.close();
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: null, forcedColors: null, media: null });
  const size = page.viewportSize();
  if (size?.width !== defaultViewport.width || size.height !== defaultViewport.height) {
    await page.setViewportSize(defaultViewport);
  }
  // A small JSON answer of our origin, not the console: its storage is cleared without loading the app.
  await page.goto(new URL('/api/.well-known/console', baseURL).toString());
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await retireTabSessions(page);
  await page.context().clearCookies();
  await page.context().clearPermissions();
}

/** The worker's context and tab; a test that closed the tab gets a new one in the same context. */
type WorkerTab = { context: BrowserContext; page?: Page };

const tabOf = async (tab: WorkerTab): Promise<Page> => {
  if (!tab.page || tab.page.isClosed()) tab.page = await tab.context.newPage();
  return tab.page;
};

export const test = base.extend<{ freshPage: Page }, { workerTab: WorkerTab }>({
  workerTab: [
    async ({ browser }, use, workerInfo) => {
      const context = await browser.newContext({ baseURL: workerInfo.project.use.baseURL, viewport: defaultViewport });
      await use({ context });
      await context.close();
    },
    { scope: 'worker' },
  ],
  context: async ({ workerTab }, use) => {
    await use(workerTab.context);
  },
  page: async ({ workerTab, baseURL }, use) => {
    const page = await tabOf(workerTab);
    await use(page);
    await reset(await tabOf(workerTab), baseURL ?? '');
  },
  /** A tab in a context of its own, for a test whose subject is a first visit (a fake clock, its own init scripts). */
  freshPage: async ({ browser, baseURL }, use) => {
    const context = await browser.newContext({ baseURL, viewport: defaultViewport });
    await use(await context.newPage());
    await context.close();
  },
});
