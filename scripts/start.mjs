// `npm start`: installs what is missing, builds what is stale (console and server bundle), then runs
// the server (which migrates the database and prints the console URL).
import { buildConsole, buildServer, serverBundle, serverNodeFlags } from './build.mjs';
import { ensureDependencies, run, runtimeNode } from './runtime.mjs';

ensureDependencies();
try {
  buildConsole();
  await buildServer();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
const result = run(runtimeNode(), [...serverNodeFlags(), serverBundle], { allowFailure: true });
process.exit(result.status ?? 1);
