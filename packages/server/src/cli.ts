// `npm run cli -- <command>`: administration from the shell, against the configured database.
import { parseArgs } from 'node:util';
import { CliError, type CommandName, commandSchemas, runCommand } from './cli/commands.ts';
import { sendToServer } from './cli/socket.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { seed } from './db/seed.ts';

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

Run a command with --help for its options. The CLI uses the same environment variables as the
server (DATA_DIR, DATABASE_URL, PUBLIC_URL); while the server runs on the embedded database it
asks the server to run the command.`;

function fail(message: string): never {
  console.error(`Error: ${message}`);
  process.exit(1);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
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
