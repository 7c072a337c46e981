// `npm run cli -- <command>`: administration from the shell, against the configured database.
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { parseArgs } from 'node:util';
import { planIds } from '@gatehouse/schemas';
import { z } from 'zod';
import { CliError, type CommandName, commandSchemas, runCommand } from './cli/commands.ts';
import { cliSocketPath, sendToServer } from './cli/socket.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { secretBoxFor, useSecretBox } from './db/secret-box.ts';
import { seed } from './db/seed.ts';
import { SeedError, type SeedProgress, seedScale } from './seed/scale.ts';

const usage: Record<CommandName, string> = {
  'admin create': `Usage: npm run cli -- admin create --username <name> --password <password>

Creates the first console admin (only while none exists).`,
  'm2m create': `Usage: npm run cli -- m2m create --name <name> [--tenant default]

Creates a machine-to-machine application with full management API access and prints
{clientId, clientSecret, tokenEndpoint, resource, scope} as JSON. The secret is shown once.`,
};
const overview = `Usage: npm run cli -- <command> [options]

Commands:
  admin create   create the first console admin
  m2m create     create a machine-to-machine app with a management API token
  seed           fill a tenant with scale data (users, roles, audit-log rows) for benchmarks and demos

Run a command with --help for its options. The CLI uses the same environment variables as the
server (DATA_DIR, DATABASE_URL, PUBLIC_URL); while the server runs on the embedded database it
asks the server to run the command.`;

function fail(message: string): never {
  console.error(`Error: ${message}`);
  process.exit(1);
}

const seedUsage = `Usage: npm run cli -- seed --users <count> [--logs <count>] [--tenant default]
                           [--password <password>] [--create-tenant] [--plan <plan>]

Fills the tenant up to <count> users and <count> audit-log rows (what exists counts; nothing is
removed, so running it again adds only what is missing). Users get varied names in several scripts,
usernames, emails and phones; about 1% are suspended, 10% hold one of five seeded roles, 85% have
the password printed at the end (random unless --password is given). Audit-log rows use the sign-in,
registration, password-reset, token, custom-JWT and SAML log keys, spread over the last 30 days.
Rows are made by set-based SQL in batches. A load that at least doubles a table (and adds 100,000+
rows) is one transaction that rebuilds the table's secondary indexes at the end: it locks the table
meanwhile, so stop the server or expect it to wait. Rates measured on two cores are in the README.
--create-tenant creates a missing tenant (reachable at /m/<tenant>/api in the cloud edition).
--plan subscribes the tenant to a plan of the cloud edition (Free, Pro, Development, Admin…), whose quotas
and audit-log retention then apply there: Admin keeps the seeded rows of the last 30 days, Free deletes
all but 3 days of them within the hour.
Progress goes to stderr, the report (JSON) to stdout.`;

const count = (label: string) =>
  z
    .string({ error: 'is required' })
    .regex(/^\d[\d_,]*$/, `must be a whole number of ${label}`)
    .transform((value) => Number(value.replace(/[_,]/g, '')))
    .refine((value) => value <= 100_000_000, 'must be at most 100,000,000');
const seedSchema = z.strictObject({
  users: count('users'),
  logs: count('log rows').default(0),
  tenant: z.string().min(1).max(21).default('default'),
  password: z.string().min(8, 'must be at least 8 characters').optional(),
  'create-tenant': z.boolean().optional(),
  plan: z.enum(planIds).optional(),
});

/** Whether a server answers on the data directory's CLI socket (a stale socket file does not count). */
function serverListens(dataDir: string): Promise<boolean> {
  const path = cliSocketPath(dataDir);
  if (!existsSync(path)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const socket = createConnection(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const formatCount = (value: number) => value.toLocaleString('en-US');

/** A progress bar on a terminal; otherwise a line every few seconds (logs of the bench). */
function progressPrinter(): (progress: SeedProgress) => void {
  const tty = process.stderr.isTTY;
  let lastLine = 0;
  return ({ table, phase, done, total, seconds }) => {
    if (phase === 'indexes') {
      process.stderr.write(`${table}: every row is in; rebuilding the indexes dropped for the bulk load…\n`);
      return;
    }
    const finished = done >= total;
    if (!tty && !finished && performance.now() - lastLine < 5000) return;
    lastLine = performance.now();
    const width = 30;
    const filled = Math.round((done / total) * width);
    const rate = seconds > 0 ? Math.round(done / seconds) : 0;
    const line = `${table.padEnd(5)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${formatCount(done)}/${formatCount(total)} (${formatCount(rate)}/s, ${seconds.toFixed(0)} s)`;
    process.stderr.write(tty ? `\r${line}${finished ? '\n' : ''}` : `${line}\n`);
  };
}

async function runSeed(argv: string[]): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv,
      options: {
        help: { type: 'boolean', short: 'h' },
        users: { type: 'string' },
        logs: { type: 'string' },
        tenant: { type: 'string' },
        password: { type: 'string' },
        'create-tenant': { type: 'boolean' },
        plan: { type: 'string' },
      },
      strict: true,
    }).values;
  } catch (error) {
    fail(`${(error as Error).message}\n\n${seedUsage}`);
  }
  if (values.help) {
    console.log(seedUsage);
    return;
  }
  const { help: _help, ...args } = values;
  const checked = seedSchema.safeParse(args);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    fail(`--${String(issue?.path[0] ?? 'arguments')} ${issue?.message ?? 'is invalid'}\n\n${seedUsage}`);
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  // PGlite opens in one process: seeding through a running server would block it for minutes.
  if (!config.databaseUrl && (await serverListens(config.dataDir)))
    fail('the server is running on this data directory; stop it first (the embedded database opens in one process)');
  useSecretBox(secretBoxFor(config));
  const database = await openDatabase(config);
  try {
    await database.migrate();
    await seed(database.db);
    const options = checked.data;
    process.stderr.write(
      `Seeding tenant "${options.tenant}" up to ${formatCount(options.users)} users and ${formatCount(options.logs)} audit-log rows (${database.kind})…\n`,
    );
    const result = await seedScale(database.db, database.kind, {
      tenantId: options.tenant,
      users: options.users,
      logs: options.logs,
      password: options.password,
      createTenant: options['create-tenant'],
      plan: options.plan,
      onProgress: progressPrinter(),
    });
    for (const [table, figures] of [
      ['users', result.users],
      ['audit-log rows', result.logs],
    ] as const) {
      process.stderr.write(
        figures.added > 0
          ? `${formatCount(figures.added)} ${table} added in ${figures.seconds} s (${formatCount(figures.perSecond ?? 0)}/s), ${formatCount(figures.after)} now\n`
          : `${formatCount(figures.before)} ${table} already there, none added\n`,
      );
    }
    if (result.password) process.stderr.write(`Seeded users with a password have: ${result.password}\n`);
    console.log(JSON.stringify(result, null, 2));
  } catch (error) {
    if (error instanceof SeedError) fail(error.message);
    throw error;
  } finally {
    await database.close();
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'seed') return runSeed(argv.slice(1));
  const name = argv.slice(0, 2).join(' ');
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h') {
    console.log(overview);
    return;
  }
  if (!(name in usage)) fail(`unknown command "${name}". Run with --help to list the commands.`);
  const command = name as CommandName;
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv.slice(2),
      options: {
        help: { type: 'boolean', short: 'h' },
        username: { type: 'string' },
        password: { type: 'string' },
        tenant: { type: 'string' },
        name: { type: 'string' },
      },
      strict: true,
    }).values;
  } catch (error) {
    fail(`${(error as Error).message}\n\n${usage[command]}`);
  }
  if (values.help) {
    console.log(usage[command]);
    return;
  }
  const { help: _help, ...args } = values;
  // Checked before any database is opened, so mistakes are reported at once.
  const checked = commandSchemas[command].safeParse(args);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    fail(`--${String(issue?.path[0] ?? 'arguments')} ${issue?.message ?? 'is invalid'}\n\n${usage[command]}`);
  }

  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  if (!config.databaseUrl) {
    const response = await sendToServer(config.dataDir, { command, args });
    if (response) {
      if (!response.ok) fail(response.error);
      console.log(JSON.stringify(response.result, null, 2));
      return;
    }
  }
  useSecretBox(secretBoxFor(config));
  const database = await openDatabase(config);
  try {
    await database.migrate();
    await seed(database.db);
    console.log(JSON.stringify(await runCommand(database.db, config.publicUrl, command, args), null, 2));
  } catch (error) {
    if (error instanceof CliError) fail(error.message);
    throw error;
  } finally {
    await database.close();
  }
}

await main();
