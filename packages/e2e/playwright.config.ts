import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
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

/**
 * Playwright workers (`E2E_WORKERS`), each with a server (and data directory) of its own, so no test shares an account,
 * a tenant or a preference with a test running beside it. One by default: on two cores a second worker saved a tenth
 * of the time (docs/testing.md), less than it costs in contention.
 */
const workers = Math.max(1, Number(process.env.E2E_WORKERS ?? 1));
// The config is evaluated by the runner and every worker: the first evaluation picks the servers' data directory and
// ports and passes them on through the environment; worker n (TEST_PARALLEL_INDEX) talks to server n.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'gatehouse-e2e-'));
/**
 * Ports the operating system says are free (listening on port 0, then closed), `count` of them at once so they
 * differ. Random numbers in a range collided with services that machines run (a message broker on 4222 stopped a
 * whole CI run's cloud suite before its first test).
 */
function freePorts(count: number): number[] {
  const script = `const net = require('node:net');
const servers = Array.from({ length: ${count} }, () => net.createServer());
Promise.all(servers.map((s) => new Promise((r) => s.listen(0, '127.0.0.1', r)))).then(() => {
  console.log(servers.map((s) => s.address().port).join(','));
  for (const s of servers) s.close();
});`;
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim().split(',').map(Number);
}
if (!process.env.E2E_PORTS) {
  const [smtp, http, ...servers] = freePorts(2 + workers);
  process.env.E2E_PORTS = servers.join(',');
  process.env.E2E_MAIL_SMTP_PORT = String(smtp);
  process.env.E2E_MAIL_HTTP_PORT = String(http);
}
/** Server n (one per worker) listens on the nth of these. */
const serverPorts = (process.env.E2E_PORTS ?? '').split(',').map(Number);
const port = serverPorts[Number(process.env.TEST_PARALLEL_INDEX ?? 0)] ?? serverPorts[0] ?? 3100;
// The local mail sink (support/mail-sink.ts): SMTP for the server, HTTP for the tests.
export const mailSinkUrl = `http://127.0.0.1:${process.env.E2E_MAIL_HTTP_PORT}`;
export const edition = process.env.EDITION === 'cloud' ? 'cloud' : 'oss';
/** The first console admin, created at start-up through ADMIN_USERNAME/ADMIN_PASSWORD. */
export const adminCredentials = { username: 'e2e_admin', password: 'e2e-correct-horse-1' } as const;
const root = join(import.meta.dirname, '..', '..');
/** The server as `npm start` runs it; `npm run build` (or `npm test`) makes it. */
export const serverBundle = join(root, 'packages', 'server', 'dist', 'start.js');

/**
 * Which edition's run holds each spec (docs/testing.md). An area's behaviour is the same in both editions, so its spec
 * runs once, in OSS; the cloud run holds the cloud-only areas and the specs that prove what differs (tenant-prefixed
 * paths and organization tokens on every page, the switcher, the profile). `both`: the edition is the subject.
 */
export const specEditions: Record<string, 'oss' | 'cloud' | 'both'> = {
  'api-resources.spec.ts': 'oss',
  'applications.spec.ts': 'oss',
  'audit-logs.spec.ts': 'oss',
  'connectors.spec.ts': 'oss',
  'connectors-sms.spec.ts': 'oss',
  'customize-jwt.spec.ts': 'oss',
  'dashboard.spec.ts': 'oss',
  'enterprise-sso.spec.ts': 'oss',
  'forgot-password.spec.ts': 'oss',
  'mfa.spec.ts': 'oss',
  'passkeys.spec.ts': 'oss',
  'get-started.spec.ts': 'oss',
  'organization-invitations.spec.ts': 'oss',
  'organization-template.spec.ts': 'oss',
  'organizations.spec.ts': 'oss',
  'roles.spec.ts': 'oss',
  'scim-provisioning.spec.ts': 'oss',
  'security.spec.ts': 'oss',
  'sign-in.spec.ts': 'oss',
  'sign-in-experience.spec.ts': 'oss',
  'signing-keys.spec.ts': 'oss',
  'sign-in-pages.spec.ts': 'oss',
  'third-party-sign-in.spec.ts': 'oss',
  'user-import.spec.ts': 'oss',
  'user-mfa.spec.ts': 'oss',
  'users.spec.ts': 'oss',
  'webhooks.spec.ts': 'oss',
  'account-deletion.spec.ts': 'cloud',
  'cloud-checkout.spec.ts': 'cloud',
  'cloud-collaboration.spec.ts': 'cloud',
  'cloud-quota.spec.ts': 'cloud',
  'cloud-tenants.spec.ts': 'cloud',
  'domains.spec.ts': 'cloud',
  'linked-accounts.spec.ts': 'cloud',
  'subscription.spec.ts': 'cloud',
  'tenant-settings.spec.ts': 'cloud',
  'foundation.spec.ts': 'both',
  'profile.spec.ts': 'both',
  'shell.spec.ts': 'both',
  'visual.spec.ts': 'oss',
  'sweep.spec.ts': 'both',
};
// A spec missing from the table would run nowhere: refuse to start instead.
const unlisted = readdirSync(join(import.meta.dirname, 'tests')).filter(
  (file) => file.endsWith('.spec.ts') && !(file in specEditions),
);
if (unlisted.length > 0) throw new Error(`Say which edition runs ${unlisted.join(', ')} (specEditions).`);
const specsOfThisEdition = Object.entries(specEditions)
  .filter(([, runIn]) => runIn === 'both' || runIn === edition)
  .map(([file]) => file);

export default defineConfig({
  testDir: 'tests',
  // `E2E_ALL_SPECS=1` runs every spec in this edition (all of them work in both), for a check by hand.
  ...(process.env.E2E_ALL_SPECS ? {} : { testMatch: specsOfThisEdition }),
  fullyParallel: false,
  workers,
  // One retry in CI: a test that passes only on it is counted as flaky in npm test's summary (there should be none).
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  forbidOnly: Boolean(process.env.CI),
  outputDir: join(root, '.tmp', `e2e-results-${edition}`),
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    headless: true,
    // Traced on the retry of a failed test only: recording every test cost about a tenth of the run (docs/testing.md).
    trace: 'on-first-retry',
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
    ...Array.from({ length: workers }, (_, index) => serverOfWorker(serverPorts[index] ?? port, index)),
  ],
});

/** The server of worker `index`, as `npm start` runs it, on a data directory of its own. */
function serverOfWorker(serverPort: number, index: number) {
  const dataDir = join(String(process.env.E2E_DATA_DIR), `worker-${index}`);
  mkdirSync(dataDir, { recursive: true });
  return {
    command: `${join(root, 'node_modules', '.bin', 'node')} ${serverBundle}`,
    url: `http://127.0.0.1:${serverPort}/api/status`,
    reuseExistingServer: false,
    // A fresh data directory (migrations, seeding) on a loaded 2-core machine can take over a minute.
    timeout: 180_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(serverPort),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${serverPort}`,
      DATA_DIR: dataDir,
      EDITION: edition,
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: adminCredentials.username,
      ADMIN_PASSWORD: adminCredentials.password,
      SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_MAIL_SMTP_PORT}`,
      EMAIL_FROM: 'Gatehouse e2e <no-reply@gatehouse.test>',
      // No internet here: the pwned check is covered by the server tests against a local range service.
      PWNED_PASSWORDS_URL: 'off',
    },
  };
}
