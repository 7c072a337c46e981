import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The layer check (scripts/layer-check.mjs with the rules of .dependency-cruiser.cjs) holds: on a copy of the source
 * it passes, and with one violation of each rule planted in the copy it fails naming every rule at its planted module.
 */
const root = join(import.meta.dirname, '..', '..', '..');
const rules = (
  createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs')) as { forbidden: { name: string }[] }
).forbidden;

/** One planted violation per rule: the module that breaks it, and its text (or a line appended to an existing one). */
const plants: { rule: string; file: string; text: string; append?: true }[] = [
  {
    rule: 'no-circular',
    file: 'packages/server/src/services/layer-probe-cycle.ts',
    text: "import { back } from './layer-probe-cycle-back.ts';\nexport const forth = () => back;\n",
  },
  {
    rule: 'schemas-not-to-server-or-console',
    file: 'packages/schemas/src/layer-probe.ts',
    text: "import '../../server/src/config.ts';\n",
  },
  { rule: 'schemas-no-ui', file: 'packages/schemas/src/layer-probe-ui.ts', text: "import 'react';\n" },
  {
    rule: 'console-not-to-server',
    file: 'packages/console/src/components/layer-probe.ts',
    text: "import '@gatehouse/server';\n",
  },
  {
    rule: 'console-kit-not-to-pages-or-shell',
    file: 'packages/console/src/api/layer-probe.ts',
    text: "import '../pages/users/routes.ts';\n",
  },
  {
    rule: 'console-pages-not-to-shell',
    file: 'packages/console/src/pages/users/layer-probe.ts',
    text: "import '../../app/areas.ts';\n",
  },
  {
    rule: 'console-area-not-to-other-area',
    file: 'packages/console/src/pages/roles/layer-probe.ts',
    text: "import '../users/routes.ts';\n",
  },
  {
    rule: 'domain-not-to-edge',
    file: 'packages/server/src/services/layer-probe-edge.ts',
    text: "import '../http/route-kit.ts';\n",
  },
  { rule: 'services-not-to-hono', file: 'packages/server/src/services/layer-probe-hono.ts', text: "import 'hono';\n" },
  {
    rule: 'db-not-to-upper-layers',
    file: 'packages/server/src/db/layer-probe.ts',
    text: "import '../services/list-query.ts';\n",
  },
  {
    rule: 'db-seed-only-its-four-exceptions',
    file: 'packages/server/src/db/seed.ts',
    text: "import '../services/list-query.ts';\n",
    append: true,
  },
  {
    rule: 'edge-kit-not-to-routes',
    file: 'packages/server/src/http/layer-probe.ts',
    text: "import '../routes/roles.ts';\n",
  },
  { rule: 'route-not-to-route', file: 'packages/server/src/routes/layer-probe.ts', text: "import './roles.ts';\n" },
  {
    rule: 'cloud-route-not-to-route',
    file: 'packages/server/src/routes/cloud/layer-probe.ts',
    text: "import '../roles.ts';\n",
  },
  {
    rule: 'routes-not-to-db',
    file: 'packages/server/src/routes/layer-probe-db.ts',
    text: "import '../db/conditions.ts';\n",
  },
];

/** A copy of what the check reads: its script and rules, the three packages' manifests and sources, node_modules. */
function copyTree(): string {
  const copy = mkdtempSync(join(tmpdir(), 'layer-check-'));
  for (const file of ['package.json', '.dependency-cruiser.cjs', 'scripts/layer-check.mjs']) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(root, file), join(copy, file));
  }
  for (const name of ['schemas', 'server', 'console']) {
    cpSync(join(root, 'packages', name, 'package.json'), join(copy, 'packages', name, 'package.json'));
    cpSync(join(root, 'packages', name, 'src'), join(copy, 'packages', name, 'src'), { recursive: true });
  }
  // The installed packages as they are, but the workspace packages are the copy's own (the real ones point back here).
  mkdirSync(join(copy, 'node_modules', '@gatehouse'), { recursive: true });
  for (const entry of readdirSync(join(root, 'node_modules'))) {
    if (entry === '@gatehouse' || entry === '.bin') continue;
    symlinkSync(join(root, 'node_modules', entry), join(copy, 'node_modules', entry));
  }
  for (const name of ['schemas', 'server', 'console']) {
    symlinkSync(join(copy, 'packages', name), join(copy, 'node_modules', '@gatehouse', name));
  }
  return copy;
}

function runCheck(copy: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, ['scripts/layer-check.mjs'], { cwd: copy, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('the layer check', () => {
  let copy: string;
  beforeAll(() => {
    copy = copyTree();
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('plants a violation for every rule of .dependency-cruiser.cjs', () => {
    expect(plants.map((plant) => plant.rule).sort()).toEqual(rules.map((rule) => rule.name).sort());
  });

  it('passes on the unmodified copy', () => {
    const { status, output } = runCheck(copy);
    expect(output).toMatch(/0 violation\(s\)/);
    expect(status, output).toBe(0);
  }, 60_000);

  it('fails on the planted copy, naming each rule at the module that breaks it', () => {
    for (const plant of plants) {
      if (plant.append) appendFileSync(join(copy, plant.file), plant.text);
      else writeFileSync(join(copy, plant.file), plant.text);
    }
    // The other half of the cycle.
    writeFileSync(
      join(copy, 'packages/server/src/services/layer-probe-cycle-back.ts'),
      "import { forth } from './layer-probe-cycle.ts';\nexport const back = () => forth;\n",
    );
    const { status, output } = runCheck(copy);
    expect(status, output).toBe(1);
    const named = new Set([...output.matchAll(/^✗ ([\w-]+): (\S+) →/gm)].map(([, rule, from]) => `${rule} ${from}`));
    // A cycle is named from one of its modules, either one.
    const cycleBack = 'no-circular packages/server/src/services/layer-probe-cycle-back.ts';
    if (named.delete(cycleBack)) named.add('no-circular packages/server/src/services/layer-probe-cycle.ts');
    // Each plant breaks its own rule, and nothing else broke.
    expect([...named].sort(), output).toEqual(plants.map((plant) => `${plant.rule} ${plant.file}`).sort());
  }, 60_000);
});
