import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSP_NONCE_PLACEHOLDER } from '../src/http/console-static.ts';
import { createTestApp, type TestApp } from './support/app.ts';

// A console build in miniature: index.html as vite writes it with html.cspNonce, and one hashed asset.
const consoleDir = mkdtempSync(join(tmpdir(), 'gatehouse-console-'));
const indexHtml = `<!doctype html><html><head><meta property="csp-nonce" nonce="${CSP_NONCE_PLACEHOLDER}"><script type="module" nonce="${CSP_NONCE_PLACEHOLDER}" src="/console/assets/index-abc.js"></script></head><body></body></html>`;

let t: TestApp;
beforeAll(async () => {
  mkdirSync(join(consoleDir, 'assets'));
  writeFileSync(join(consoleDir, 'index.html'), indexHtml);
  writeFileSync(join(consoleDir, 'assets', 'index-abc.js'), 'export {};');
  t = await createTestApp({ CONSOLE_DIR: consoleDir });
});
afterAll(async () => {
  await t.close();
  rmSync(consoleDir, { recursive: true, force: true });
});

function nonceOf(csp: string): string | undefined {
  return /style-src [^;]*'nonce-([^']+)'/.exec(csp)?.[1];
}

describe('console static files', () => {
  it.each(['/console', '/console/', '/console/index.html', '/console/applications/abc/settings'])(
    '%s gets index.html with a fresh nonce that matches its CSP',
    async (path) => {
      const first = await t.app.request(path);
      const second = await t.app.request(path);
      expect(first.status).toBe(200);
      expect(first.headers.get('Cache-Control')).toBe('no-cache');
      const csp = first.headers.get('Content-Security-Policy') ?? '';
      expect(csp, 'inline script stays forbidden').toMatch(/script-src 'self'(;|$)/);
      const nonce = nonceOf(csp);
      expect(nonce).toMatch(/^[\w+/=]{16,}$/);
      const html = await first.text();
      expect(html).not.toContain(CSP_NONCE_PLACEHOLDER);
      expect(html).toContain(`<meta property="csp-nonce" nonce="${nonce}">`);
      expect(nonceOf(second.headers.get('Content-Security-Policy') ?? ''), 'one nonce per response').not.toBe(nonce);
    },
  );

  it('serves hashed assets as immutable files, and a missing asset is a 404, not HTML', async () => {
    const asset = await t.app.request('/console/assets/index-abc.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('Cache-Control')).toContain('immutable');
    const missing = await t.app.request('/console/assets/missing-123.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('Cache-Control'), 'a miss is never cached').toBe('no-store');
  });
});
