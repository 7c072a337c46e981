// `node scripts/run-with-runtime.mjs file.ts [args]`: installs what is missing, then runs a TypeScript
// entry point on the project's Node runtime (native type stripping, no build step).
import { ensureDependencies, run, runtimeNode } from './runtime.mjs';

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run-with-runtime.mjs <file.ts> [args…]');
  process.exit(2);
}
ensureDependencies();
const result = run(runtimeNode(), [entry, ...args], { allowFailure: true });
process.exit(result.status ?? 1);
