import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Row-level security restricts the role `gatehouse_tenant`, which `TenantDb` switches to; the raw database connects
 * as the owner, which it does not restrict. So the modules holding the raw database are a closed, reviewed list:
 * the table of docs/areas/security.md ("The named paths across tenants"). A module that starts importing
 * `db/client.ts` fails here until it is added there with its reason, and one that stops needing it must leave.
 */
const root = join(import.meta.dirname, '..');
const src = join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function documentedModules(): string[] {
  const doc = readFileSync(join(root, '..', '..', 'docs', 'areas', 'security.md'), 'utf8');
  const table = doc.split('<!-- across-tenants:start -->')[1]?.split('<!-- across-tenants:end -->')[0];
  if (!table) throw new Error('docs/areas/security.md has no across-tenants table');
  return [...table.matchAll(/^\s*\| `([^`]+)` \|/gm)].map((match) => match[1] ?? '');
}

/**
 * Whether the module at `path` (relative to src) imports src/db/client.ts, type-only imports included: only a
 * specifier that resolves there counts (a module of another folder may be called client.ts).
 */
const importsRawDatabase = (path: string, code: string) =>
  [...code.matchAll(/from '((?:\.\.?\/)+(?:db\/)?client\.ts)'/g)].some(
    (match) => join(src, path, '..', match[1] ?? '') === join(src, 'db', 'client.ts'),
  );

describe('the raw database', () => {
  it('is imported outside db/ only by the modules the security doc names, each for its stated reason', () => {
    const importing = sourceFiles(src)
      .map((path) => relative(src, path).split('\\').join('/'))
      .filter((path) => !path.startsWith('db/'))
      .filter((path) => importsRawDatabase(path, readFileSync(join(src, path), 'utf8')))
      .sort();
    const documented = documentedModules().sort();
    expect(documented.length, 'the table lists modules').toBeGreaterThan(5);
    expect(importing).toEqual(documented);
  });

  it('the check sees an import of the raw database for what it is', () => {
    expect(importsRawDatabase('auth/oidc/x.ts', "import type { Database } from '../../db/client.ts';")).toBe(true);
    expect(importsRawDatabase('services/x.ts', "import { TenantDb } from '../db/tenant-db.ts';")).toBe(false);
    expect(importsRawDatabase('auth/oidc/x.ts', "import { ApplicationClientAdapter } from './client.ts';")).toBe(false);
  });
});
