import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { AppEnv } from './context.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built console under /console: hashed files under assets/ are cached for a year,
 * everything else falls back to index.html (never cached) so client-side routes load the SPA.
 */
export function consoleStatic(consoleDir: string) {
  const app = new Hono<AppEnv>();
  const indexFile = join(consoleDir, 'index.html');
  const index = existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : undefined;
  if (existsSync(consoleDir)) {
    app.use(
      '/console/*',
      serveStatic({
        root: consoleDir,
        // The build writes .br and .gz beside each asset (scripts/build.mjs).
        precompressed: true,
        rewriteRequestPath: (path) => path.replace(/^\/console/, ''),
        onFound: (path, c) => {
          c.header('Cache-Control', path.includes('/assets/') ? IMMUTABLE : 'no-cache');
        },
      }),
    );
  }
  app.get('/console/*', (c) => {
    // Missing hashed assets must 404, not return HTML that the browser would try to run.
    if (c.req.path.startsWith('/console/assets/')) return c.text('Not found', 404);
    if (!index) return c.text('The console is not built. Run `npm run build` (or `npm start`).', 503);
    c.header('Cache-Control', 'no-cache');
    return c.html(index);
  });
  app.get('/console', (c) => c.redirect('/console/', 301));
  return app;
}
