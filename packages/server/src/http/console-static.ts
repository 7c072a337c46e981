import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { AppEnv } from '../shared/app-env.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** What the console build writes where the response's CSP nonce goes (vite.config.ts `html.cspNonce`). */
export const CSP_NONCE_PLACEHOLDER = 'GATEHOUSE_CSP_NONCE';

/**
 * Paths that would reach index.html as a file, which it never is: each response gets its own nonce.
 * '/console' too, which the `/console/*` pattern matches.
 */
const isIndex = (path: string) => path === '/console' || path === '/console/' || path === '/console/index.html';

/**
 * Serves the built console under /console: hashed files under assets/ are cached for a year,
 * everything else falls back to index.html (never cached) so client-side routes load the SPA.
 */
export function consoleStatic(consoleDir: string) {
  const app = new Hono<AppEnv>();
  const indexFile = join(consoleDir, 'index.html');
  const index = existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : undefined;
  if (existsSync(consoleDir)) {
    const assets = serveStatic<AppEnv>({
      root: consoleDir,
      // The build writes .br and .gz beside each asset (scripts/build.mjs).
      precompressed: true,
      rewriteRequestPath: (path) => path.replace(/^\/console/, ''),
    });
    app.use('/console/*', (c, next) => {
      if (isIndex(c.req.path)) return next();
      // Set before serving: serveStatic's onFound runs after its response exists, too late for headers. A miss
      // falls through to the handler below, which sets its own.
      c.header('Cache-Control', c.req.path.startsWith('/console/assets/') ? IMMUTABLE : 'no-cache');
      return assets(c, next);
    });
  }
  app.get('/console/*', (c) => {
    // Missing hashed assets must 404, not return HTML that the browser would try to run.
    if (c.req.path.startsWith('/console/assets/')) {
      c.header('Cache-Control', 'no-store');
      return c.text('Not found', 404);
    }
    if (!index) return c.text('The console is not built. Run `npm run build` (or `npm start`).', 503);
    c.header('Cache-Control', 'no-cache');
    // The security-headers middleware put this nonce in the CSP before the handler ran; without it (no CSP) the
    // attribute is simply empty.
    const nonce = c.get('secureHeadersNonce') ?? '';
    return c.html(index.replaceAll(CSP_NONCE_PLACEHOLDER, nonce));
  });
  app.get('/console', (c) => c.redirect('/console/', 301));
  return app;
}
