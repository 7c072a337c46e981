import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { edition, serverBundle } from '../playwright.config.ts';

const root = join(import.meta.dirname, '..', '..', '..');

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

export type FreshServer = {
  url: string;
  port: number;
  dataDir: string;
  /** Stops the server; its data directory goes too, unless `keepData` (for a restart on it). */
  stop: (options?: { keepData?: boolean }) => Promise<void>;
};

/**
 * A server of its own on an empty data directory (no admin yet), for first-run scenarios. `mail`: it sends mail to the
 * local mail sink (without, it can send none). `restartOf`: the address and data directory of a server stopped with
 * `keepData`, so it comes back with its accounts and sessions. `publicHost: 'localhost'`: its PUBLIC_URL (and `url`)
 * name `localhost` instead of the IP address, as WebAuthn needs (an IP address cannot be a relying-party ID); it still
 * listens on 127.0.0.1. `env`: more of its environment, e.g. ADMIN_USERNAME and ADMIN_PASSWORD for a first admin.
 */
export async function startFreshServer(
  options: {
    mail?: boolean;
    restartOf?: Pick<FreshServer, 'port' | 'dataDir'>;
    publicHost?: '127.0.0.1' | 'localhost';
    env?: Record<string, string>;
  } = {},
): Promise<FreshServer> {
  const dataDir = options.restartOf?.dataDir ?? mkdtempSync(join(tmpdir(), 'gatehouse-e2e-fresh-'));
  const port = options.restartOf?.port ?? (await freePort());
  const url = `http://${options.publicHost ?? '127.0.0.1'}:${port}`;
  const mail = options.mail
    ? {
        SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_MAIL_SMTP_PORT}`,
        EMAIL_FROM: 'Gatehouse e2e <no-reply@gatehouse.test>',
      }
    : {};
  const child: ChildProcess = spawn(join(root, 'node_modules', '.bin', 'node'), [serverBundle], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      EDITION: edition,
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: '',
      ADMIN_PASSWORD: '',
      ...mail,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk;
      if (output.includes('Console: ')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
  return {
    url,
    port,
    dataDir,
    stop: async ({ keepData = false } = {}) => {
      // Stopped once already (a restart that failed, then the test's clean-up): nothing to wait for.
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise((resolve) => {
          child.once('exit', resolve);
          child.kill('SIGTERM');
        });
      }
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
