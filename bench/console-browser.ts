// `console-size` and `console-speed`: what a browser downloads and how fast the console paints, measured in
// Debian's Chromium against a real server, signed in as a real admin (ADMIN_USERNAME/ADMIN_PASSWORD).
// Sizes come from the network log (JS + CSS, gzip -9 of each body), never from the dist folder.
import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { type Browser, type BrowserContext, chromium, type Page, type Response } from 'playwright-core';
import { viteBuild } from './build.ts';
import { type Bench, dataDir, type Figure, log, median, round, runCli, startServer } from './lib.ts';

const chromiumPath = '/usr/bin/chromium';
const launchArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const admin = { username: 'bench_admin', password: 'bench-correct-horse-7' };
/** The active language's strings, fetched as JSON (packages/console/locale-assets.ts): counted with the scripts. */
const localeFile = /\/console\/assets\/locales\/[^/]+\/[^/]+\.json$/;
const runs = 5;

type Asset = { url: string; raw: number; gzip: number; transfer: number };

async function measureAsset(response: Response): Promise<Asset | undefined> {
  const type = response.headers()['content-type'] ?? '';
  const url = new URL(response.url()).pathname;
  // The server-rendered sign-in pages count their HTML too: it is the whole page, there is no script.
  const signInDocument = /html/.test(type) && url.startsWith('/interaction/');
  if (!/javascript|css/.test(type) && !/\.(m?js|css)$/.test(url) && !localeFile.test(url) && !signInDocument) {
    return undefined;
  }
  const body = await response.body().catch(() => undefined);
  if (!body) return undefined;
  const sizes = await response.request().sizes();
  return { url, raw: body.length, gzip: gzipSync(body, { level: 9 }).length, transfer: sizes.responseBodySize };
}

/** Collects the JS, CSS and locale responses of `page` until the returned function is called. */
function recordAssets(page: Page): () => Promise<Asset[]> {
  const pending: Promise<Asset | undefined>[] = [];
  const onResponse = (response: Response) => pending.push(measureAsset(response));
  page.on('response', onResponse);
  return async () => {
    page.off('response', onResponse);
    return (await Promise.all(pending)).filter((asset) => asset !== undefined);
  };
}

const kB = (bytes: number) => round(bytes / 1000, 1);
const sum = (assets: Asset[], key: 'raw' | 'gzip' | 'transfer') => assets.reduce((total, a) => total + a[key], 0);

// In the page before any script: records when the first page heading and the first list row appear, on the
// page's own clock, so Playwright's round trips are not part of the figure.
const observerScript = `(() => {
  const marks = (window.__benchMarks = { heading: null, row: null });
  const check = () => {
    if (marks.heading === null && document.querySelector('main h1')) marks.heading = performance.now();
    if (marks.row === null && document.querySelector('main table tbody tr a')) marks.row = performance.now();
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
  window.__benchResetRow = () => { marks.row = null; check(); };
  // Capture phase on the window: runs before any handler of the page's own (the router's link clicks).
  window.addEventListener('click', () => { window.__benchClick = performance.now(); }, true);
})();`;

type Marks = { heading: number | null; row: number | null };
// Strings, not functions: the bench compiles without the DOM library.
const readMarks = (page: Page) => page.evaluate<Marks | undefined>('window.__benchMarks');
/** A list's first row: a link in the main table's body (the observer script looks for the same). */
const firstRow = 'main table tbody tr a';

async function signIn(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/console/`);
  await page.waitForURL(/\/interaction\//);
  await page.getByLabel('Username or email').fill(admin.username);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/console') && !url.pathname.endsWith('/callback'));
  await page.locator('main h1').first().waitFor();
}

/** A cold reload: no HTTP cache, so every asset is fetched as on a first visit (the session stays). */
async function coldReload(context: BrowserContext, page: Page, path: string, base: string) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const stop = recordAssets(page);
  await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
  await page.locator('main h1').first().waitFor();
  const assets = await stop();
  const fcp = await page.evaluate<number | undefined>(
    "performance.getEntriesByName('first-contentful-paint')[0]?.startTime",
  );
  const marks = await readMarks(page);
  await cdp.detach();
  return { assets, fcp: fcp ?? Number.NaN, heading: marks?.heading ?? Number.NaN };
}

/** Milliseconds from a click on a sidebar item to the first row of its list, on the page's clock. */
async function sidebarToFirstRow(page: Page, itemName: string): Promise<number> {
  await page.evaluate('window.__benchResetRow()');
  await page.getByRole('navigation').getByRole('link', { name: itemName, exact: true }).click();
  await page.locator(firstRow).first().waitFor();
  const elapsed = await page.evaluate<number>('(window.__benchMarks.row ?? NaN) - (window.__benchClick ?? NaN)');
  if (Number.isNaN(elapsed)) {
    const seen = await page.evaluate<string>(
      'JSON.stringify({ marks: window.__benchMarks, click: window.__benchClick })',
    );
    throw new Error(`sidebar → first row: click or row not observed (${seen})`);
  }
  return elapsed;
}

async function withConsole<T>(run: (browser: Browser, base: string) => Promise<T>): Promise<T> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `Chromium is missing at ${chromiumPath}: npm test installs it, or: sudo apt-get install -y chromium`,
    );
  }
  log('console: building the console…');
  await viteBuild();
  const server = await startServer(await dataDir(), { ADMIN_USERNAME: admin.username, ADMIN_PASSWORD: admin.password });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: launchArgs });
  try {
    return await run(browser, server.url);
  } finally {
    await browser.close();
    await server.stop();
  }
}

export const consoleSize: Bench = {
  name: 'console-size',
  figures: ['console-size', 'console-size-raw', 'console-size-transfer', 'console-locale-files', 'sign-in-size'],
  run: () =>
    withConsole(async (browser, base) => {
      // The sign-in page: everything a signed-out visitor downloads from /console until the form shows.
      const visitor = await browser.newContext({ locale: 'en-US' });
      const visitorPage = await visitor.newPage();
      const stopVisitor = recordAssets(visitorPage);
      await visitorPage.goto(`${base}/console/`);
      await visitorPage.waitForURL(/\/interaction\//);
      await visitorPage.getByLabel('Password').waitFor();
      const signInAssets = await stopVisitor();
      await visitor.close();

      const context = await browser.newContext({ locale: 'en-US' });
      const page = await context.newPage();
      await signIn(page, base);
      const { assets } = await coldReload(context, page, '/console/', base);
      await context.close();
      const locales = assets.filter((asset) => localeFile.test(asset.url)).map((asset) => asset.url);
      log(
        `console-size: ${assets.length} JS/CSS/locale files signed in, locale files: ${locales.join(', ') || 'none'}`,
      );
      return [
        {
          name: 'console-size',
          value: kB(sum(assets, 'gzip')),
          unit: 'kB gz',
          // The target: the shell, the landing page and every area registered (their pages load lazily).
          budget: 150,
          samples: [sum(assets, 'gzip')],
          details: { page: 'first signed-in page (/console → landing page), cold cache', assets },
        },
        {
          name: 'console-size-raw',
          value: kB(sum(assets, 'raw')),
          unit: 'kB',
          budget: null,
          samples: [sum(assets, 'raw')],
        },
        {
          name: 'console-size-transfer',
          value: kB(sum(assets, 'transfer')),
          unit: 'kB',
          budget: null,
          samples: [sum(assets, 'transfer')],
        },
        {
          name: 'console-locale-files',
          value: locales.length,
          unit: 'files',
          budget: null,
          samples: [locales.length],
          details: { locales },
        },
        {
          name: 'sign-in-size',
          value: kB(sum(signInAssets, 'gzip')),
          unit: 'kB gz',
          // boot.ts and the sign-in start (about 5 kB) plus the server's sign-in page (about 2.6 kB): the console
          // itself is not downloaded before the form.
          budget: 10,
          samples: [sum(signInAssets, 'gzip')],
          details: {
            page: 'signed out: /console until the sign-in form shows (its JS and CSS, and the sign-in page HTML)',
            assets: signInAssets,
          },
        },
      ] satisfies Figure[];
    }),
};

/**
 * A full reload of the users list (10,000 users, HTTP cache as a user has it) until its first row shows,
 * on the page's clock (its time origin is the navigation's start).
 */
async function usersReload(browser: Browser, base: string): Promise<Figure> {
  const context = await browser.newContext({ locale: 'en-US' });
  await context.addInitScript(observerScript);
  const page = await context.newPage();
  try {
    await signIn(page, base);
    await page.goto(`${base}/console/users`);
    await page.locator(firstRow).first().waitFor();
    const samples: number[] = [];
    for (let i = 1; i <= runs; i++) {
      await page.reload();
      await page.locator(firstRow).first().waitFor();
      const row = (await readMarks(page))?.row;
      if (row === null || row === undefined) throw new Error('users list: the first row was not observed');
      samples.push(round(row, 1));
      log(`console-speed: run ${i}/${runs} users list reload → first row ${samples.at(-1)} ms`);
    }
    return {
      name: 'console-users-reload',
      value: median(samples),
      unit: 'ms',
      budget: 300,
      samples,
      note: `reload of /console/users to its first row, ${listUsers.toLocaleString('en-US')} users`,
    };
  } finally {
    await context.close();
  }
}

/** Users in the default tenant for the users-list figure. */
const listUsers = 10_000;

export const consoleSpeed: Bench = {
  name: 'console-speed',
  figures: ['console-fcp', 'console-first-heading', 'console-sidebar-to-row', 'console-users-reload'],
  run: async () => {
    // Before the server starts: PGlite opens in one process, so the seed tool needs the directory to itself.
    log(`console-speed: seeding ${listUsers.toLocaleString('en-US')} users into the default tenant (once)…`);
    await runCli(['seed', '--users', String(listUsers), '--logs', '0'], { DATA_DIR: await dataDir() });
    return withConsole(async (browser, base) => {
      const context = await browser.newContext({ locale: 'en-US' });
      await context.addInitScript(observerScript);
      const page = await context.newPage();
      await signIn(page, base);
      const fcp: number[] = [];
      const heading: number[] = [];
      const toRow: number[] = [];
      // One warm-up run (JIT, server caches), then the measured ones.
      await coldReload(context, page, '/console/', base);
      for (let i = 1; i <= runs; i++) {
        const result = await coldReload(context, page, '/console/', base);
        fcp.push(round(result.fcp, 1));
        heading.push(round(result.heading, 1));
        log(`console-speed: run ${i}/${runs} first paint ${fcp.at(-1)} ms, heading ${heading.at(-1)} ms`);
      }
      const hasApplications =
        (await page.getByRole('navigation').getByRole('link', { name: 'Applications', exact: true }).count()) > 0;
      if (hasApplications) {
        await sidebarToFirstRow(page, 'Applications');
        for (let i = 1; i <= runs; i++) {
          // Away and back, so each click mounts the list afresh (its data may be cached, as for a user).
          await page.getByRole('navigation').getByRole('link', { name: 'Get started', exact: true }).click();
          await page.locator('main h1').first().waitFor();
          toRow.push(round(await sidebarToFirstRow(page, 'Applications'), 1));
          log(`console-speed: run ${i}/${runs} sidebar → first row ${toRow.at(-1)} ms`);
        }
      } else {
        log('console-speed: no Applications page in this build; skipping the sidebar figure');
      }
      await context.close();
      const figures: Figure[] = [
        {
          name: 'console-fcp',
          value: median(fcp),
          unit: 'ms',
          budget: 150,
          samples: fcp,
          details: { page: 'signed-in /console, cold HTTP cache, median of 5' },
        },
        { name: 'console-first-heading', value: median(heading), unit: 'ms', budget: null, samples: heading },
      ];
      if (toRow.length > 0) {
        figures.push({ name: 'console-sidebar-to-row', value: median(toRow), unit: 'ms', budget: 100, samples: toRow });
      }
      figures.push(await usersReload(browser, base));
      return figures;
    });
  },
};
