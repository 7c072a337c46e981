import type { Server } from 'node:http';
import pino, { type Logger } from 'pino';
import { SigningKeyStore } from './auth/signing-keys.ts';
import { listenForCli } from './cli/socket.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { CHANGES_CHANNEL, ChangeNotices } from './db/change-notices.ts';
import { type DatabaseHandle, openDatabase } from './db/client.ts';
import { sealSecretsAtRest } from './db/seal-at-rest.ts';
import { secretBoxFor, useSecretBox } from './db/secret-box.ts';
import { seed } from './db/seed.ts';
import { TenantDbs } from './db/tenant-db.ts';
import { createHttpServer } from './http-server.ts';
import { createFirstConsoleAdmin } from './services/console-admin.ts';
import { EmailService } from './services/email.ts';
import { LogRetentionWorker } from './services/log-retention-worker.ts';
import { MailWorker } from './services/mail-worker.ts';
import { MessageDelivery } from './services/message-delivery.ts';
import { UserImportWorker } from './services/user-import-worker.ts';
import { WebhookWorker } from './services/webhooks-worker.ts';

/** Requests handled at once on the embedded database (docs/areas/performance.md "Load"). */
const PGLITE_ADMISSION_LIMIT = 16;

export type RunningServer = { url: string; server: Server; database: DatabaseHandle; close: () => Promise<void> };

/** Opens and migrates the database, seeds it, and listens. Used by `main` and by tests. */
export async function startServer(config: Config, log: Logger): Promise<RunningServer> {
  useSecretBox(secretBoxFor(config));
  const database = await openDatabase(config);
  await database.migrate();
  await seed(database.db);
  // Secrets written before encryption at rest, or sealed with a previous key, are sealed with the current one.
  const sealed = await sealSecretsAtRest(database.db);
  const tenants = new TenantDbs(database.db);
  if (Object.keys(sealed).length > 0) log.info({ sealed }, 'sealed secrets at rest with the current key');
  if (config.admin && (await createFirstConsoleAdmin(tenants, config.admin))) {
    log.info({ username: config.admin.username }, 'created the first console admin from ADMIN_USERNAME');
  }
  // What other processes change reaches this one's caches at once (db/change-notices.ts).
  const notices = new ChangeNotices();
  const stopListening = await database.listen(CHANGES_CHANNEL, notices);
  const server = createHttpServer({
    config,
    db: database.db,
    tenants,
    keys: new SigningKeyStore(tenants),
    log,
    notices,
    // PGlite runs one statement at a time: requests are admitted in order rather than interleaved (http/admission.ts).
    admissionLimit: database.kind === 'pglite' ? PGLITE_ADMISSION_LIMIT : undefined,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  // PGlite allows one process: the CLI reaches this one's database through a local socket.
  const cliServer =
    database.kind === 'pglite' ? await listenForCli(config.dataDir, database.db, config.publicUrl) : undefined;
  // Delivers webhook events from the outbox; safe in every process (claims with SKIP LOCKED).
  const webhooks = new WebhookWorker({ db: database.db, log, outbound: config.outbound });
  webhooks.start();
  // Sends email events from the outbox over SMTP (or logs them as not sent without SMTP_URL).
  const email = new EmailService(config.smtp);
  const mail = new MailWorker({ db: database.db, delivery: new MessageDelivery(email, config.outbound), log });
  mail.start();
  // Runs user import jobs; safe in every process (claims with SKIP LOCKED and a lease).
  const userImports = new UserImportWorker({ db: database.db, log });
  userImports.start();
  // Deletes audit-log entries past their tenant's retention, hourly; safe in every process (idempotent deletes).
  const logRetention = new LogRetentionWorker({ db: database.db, log, ...config });
  logRetention.start();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return {
    url: `http://localhost:${port}`,
    server,
    database,
    close: async () => {
      cliServer?.close();
      await stopListening();
      await webhooks.stop();
      await userImports.stop();
      await logRetention.stop();
      await mail.stop();
      email.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await database.close();
    },
  };
}

export async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const log = pino({ level: config.logLevel });
  const running = await startServer(config, log).catch((error: unknown) => {
    log.fatal({ err: error }, 'start-up failed');
    console.error(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
  const consoleUrl = `${config.publicUrl === `http://localhost:${config.port}` ? running.url : config.publicUrl}/console`;
  log.info({ edition: config.edition, database: running.database.kind }, 'ready');
  console.log(`Console: ${consoleUrl}`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await running.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (import.meta.main) await main();
