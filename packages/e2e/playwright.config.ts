import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

/** Debian's Chromium; Playwright never downloads a browser here. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// The config is evaluated by the runner and every worker: the first evaluation picks the
// server's data directory and port and passes them on through the environment.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'gatehouse-e2e-'));
process.env.E2E_PORT ??= String(3100 + Math.floor(Math.random() * 800));
const port = Number(process.env.E2E_PORT);
// The local mail sink (support/mail-sink.ts): SMTP for the server, HTTP for the tests.
process.env.E2E_MAIL_SMTP_PORT ??= String(4000 + Math.floor(Math.random() * 800));
process.env.E2E_MAIL_HTTP_PORT ??= String(Number(process.env.E2E_MAIL_SMTP_PORT) + 800);
export const mailSinkUrl = `http://127.0.0.1:${process.env.E2E_MAIL_HTTP_PORT}`;
export const edition = process.env.EDITION === 'cloud' ? 'cloud' : 'oss';
/** The first console admin, created at start-up through ADMIN_USERNAME/ADMIN_PASSWORD. */
export const adminCredentials = { username: 'e2e_admin', password: 'e2e-correct-horse-1' } as const;
const root = join(import.meta.dirname, '..', '..');
/** The server as `npm start` runs it; `npm run build` (or `npm test`) makes it. */
export const serverBundle = join(root, 'packages', 'server', 'dist', 'start.js');

export default defineConfig({
  testDir: 'tests',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  forbidOnly: Boolean(process.env.CI),
  outputDir: join(root, '.tmp', `e2e-results-${edition}`),
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS },
  },
  webServer: [
    {
      command: `${join(root, 'node_modules', '.bin', 'node')} ${join(import.meta.dirname, 'support', 'mail-sink.ts')}`,
      url: `${mailSinkUrl}/status`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        MAIL_SINK_SMTP_PORT: String(process.env.E2E_MAIL_SMTP_PORT),
        MAIL_SINK_HTTP_PORT: String(process.env.E2E_MAIL_HTTP_PORT),
      },
    },
    {
      command: `${join(root, 'node_modules', '.bin', 'node')} ${serverBundle}`,
      url: `http://127.0.0.1:${port}/api/status`,
      reuseExistingServer: false,
      // A fresh data directory (migrations, seeding) on a loaded 2-core machine can take over a minute.
      timeout: 180_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: process.env.E2E_DATA_DIR,
        EDITION: edition,
        LOG_LEVEL: 'warn',
        ADMIN_USERNAME: adminCredentials.username,
        ADMIN_PASSWORD: adminCredentials.password,
        SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_MAIL_SMTP_PORT}`,
        EMAIL_FROM: 'Gatehouse e2e <no-reply@gatehouse.test>',
      },
    },
  ],
});
