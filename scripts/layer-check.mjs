// The layer check: dependency-cruiser with the rules of .dependency-cruiser.cjs over the source of the schemas, server
// and console packages. Run from the repository root (or from a copy of it: the layer-check test runs it in one):
//   node scripts/layer-check.mjs
// Exits 1, naming each broken rule with the import that breaks it, when any rule is broken; 0 otherwise.
// Needs Node >= 22 (dependency-cruiser's own requirement): `npm test` runs it with the project's runtime.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { cruise } from 'dependency-cruiser';

const root = process.cwd();
const require = createRequire(join(root, 'package.json'));
const config = require(join(root, '.dependency-cruiser.cjs'));
const sourceRoots = ['packages/schemas/src', 'packages/server/src', 'packages/console/src'];

/** Every TypeScript module under `dir` (declaration files declare, they import nothing at run time). */
function sourceFiles(dir) {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

// dependency-cruiser skips .ts files met while walking a folder when no TypeScript compiler API is installed
// (TypeScript 7 has none), so the check names every file itself.
const files = sourceRoots.flatMap(sourceFiles);
const { output } = await cruise(files, {
  ...config.options,
  ruleSet: { forbidden: config.forbidden },
  validate: true,
  outputType: 'json',
});
const result = typeof output === 'string' ? JSON.parse(output) : output;

/**
 * The parser's completeness: acorn-loose reads TypeScript as far as it can, so every import line it should have seen
 * (a static `import … from '…'` or `export … from '…'` at the start of a line, naming a file of this repository) must
 * be among the dependencies it reports; otherwise a rule could miss an import.
 */
const importLine = /^(?:import|export)\s[^;]*?\sfrom\s+'((?:\.{1,2}\/|@gatehouse\/)[^']+)';?$/gm;
const bareImportLine = /^import\s+'((?:\.{1,2}\/|@gatehouse\/)[^']+)';?$/gm;
const unread = [];
for (const module of result.modules) {
  if (!/\.tsx?$/.test(module.source) || module.source.startsWith('node_modules/')) continue;
  const text = readFileSync(join(root, module.source), 'utf8');
  const seen = new Set(module.dependencies.map((dependency) => dependency.module));
  for (const pattern of [importLine, bareImportLine]) {
    for (const [, specifier] of text.matchAll(pattern)) {
      // Only specifiers with an extension or a package name: a template literal's text (`'./App'`) is no import.
      if (!/\.[a-z]+$/.test(specifier) && !specifier.startsWith('@gatehouse/')) continue;
      if (!seen.has(specifier)) unread.push(`${module.source}: '${specifier}'`);
    }
  }
}

const violations = result.summary.violations.filter((violation) => violation.rule.severity === 'error');
const comments = new Map(config.forbidden.map((rule) => [rule.name, rule.comment]));
for (const violation of violations) {
  const cycle = violation.cycle?.map((step) => step.name ?? step).join(' → ');
  console.log(`✗ ${violation.rule.name}: ${violation.from} → ${cycle ?? violation.to}`);
  console.log(`    ${comments.get(violation.rule.name) ?? ''}`);
}
for (const line of unread) console.log(`✗ parser-missed-import: ${line}`);
const cruised = result.summary.totalCruised;
console.log(
  `layer check: ${files.length} files, ${cruised} modules, ${config.forbidden.length} rules: ` +
    `${violations.length} violation(s)${unread.length ? `, ${unread.length} import line(s) the parser missed` : ''}` +
    ` (${relative(process.cwd(), root) || '.'})`,
);
process.exit(violations.length > 0 || unread.length > 0 ? 1 : 0);
