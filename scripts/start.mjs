// `npm start`: installs what is missing, builds what is stale, then runs the server
// (which migrates the database and prints the console URL).
import { join } from 'node:path';
import { buildConsole } from './build.mjs';
import { ensureDependencies, root, run, runtimeNode } from './runtime.mjs';

ensureDependencies();
try {
  buildConsole();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
const result = run(runtimeNode(), [join(root, 'packages', 'server', 'src', 'main.ts')], { allowFailure: true });
process.exit(result.status ?? 1);
