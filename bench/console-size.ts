// `console-size`: JS + CSS a cold browser downloads for the console's first page, raw and gzip -9.
// `storageState` (a Playwright storage-state file) is the hook for measuring a signed-in first page later.
import { gzipSync } from 'node:zlib';
import { chromium, type Response } from 'playwright-core';
import { viteBuild } from './build.ts';
import { type Bench, dataDir, log, round, startServer } from './lib.ts';

export type ConsoleSizeOptions = { storageState?: string | undefined; path?: string };

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
const localeChunk = /\/assets\/locale-[^/]+\.js$/;

type Asset = { url: string; raw: number; gzip: number; transfer: number };

async function measure(response: Response): Promise<Asset | undefined> {
  const type = response.headers()['content-type'] ?? '';
  const url = new URL(response.url()).pathname;
  if (!/javascript|css/.test(type) && !/\.(m?js|css)$/.test(url)) return undefined;
  const body = await response.body();
  const sizes = await response.request().sizes();
  return { url, raw: body.length, gzip: gzipSync(body, { level: 9 }).length, transfer: sizes.responseBodySize };
}

export function consoleSize(options: ConsoleSizeOptions = {}): Bench {
  return {
    name: 'console-size',
    figures: ['console-size', 'console-size-raw', 'console-size-transfer', 'console-locale-chunks'],
    async run() {
      log('console-size: building the console…');
      await viteBuild();
      const server = await startServer(await dataDir());
      const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: launchArgs });
      try {
        const context = await browser.newContext({ locale: 'en-US', storageState: options.storageState });
        const page = await context.newPage();
        const pending: Promise<Asset | undefined>[] = [];
        page.on('response', (response) => pending.push(measure(response)));
        await page.goto(`${server.url}${options.path ?? '/console/'}`, { waitUntil: 'networkidle' });
        const assets = (await Promise.all(pending)).filter((asset) => asset !== undefined);
        const sum = (key: 'raw' | 'gzip' | 'transfer') => assets.reduce((total, asset) => total + asset[key], 0);
        const locales = assets.filter((asset) => localeChunk.test(asset.url)).map((asset) => asset.url);
        log(`console-size: ${assets.length} JS/CSS files, locale chunks: ${locales.join(', ') || 'none'}`);
        const kB = (bytes: number) => round(bytes / 1000, 1);
        return [
          {
            name: 'console-size',
            value: kB(sum('gzip')),
            unit: 'kB gz',
            budget: 200,
            samples: [sum('gzip')],
            details: { assets },
          },
          { name: 'console-size-raw', value: kB(sum('raw')), unit: 'kB', budget: null, samples: [sum('raw')] },
          {
            name: 'console-size-transfer',
            value: kB(sum('transfer')),
            unit: 'kB',
            budget: null,
            samples: [sum('transfer')],
          },
          {
            name: 'console-locale-chunks',
            value: locales.length,
            unit: 'files',
            budget: null,
            samples: [locales.length],
            details: { locales },
          },
        ];
      } finally {
        await browser.close();
        await server.stop();
      }
    },
  };
}
