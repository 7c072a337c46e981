import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isLogKey, logKeyCatalogue } from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';

// The compiler already refuses a key outside the catalogue where the server writes one (`logs.key` is a
// `LogKey`, `performWrite` takes one). This test also catches keys built where the types cannot see them
// (strings in SQL, seeds, casts) and a console that stops offering the shared catalogue.
const packages = join(import.meta.dirname, '..', '..');
const keyShape =
  /['"`]((?:Admin|Interaction|ExchangeTokenBy|JwtCustomizer|SamlApplication|Account)\.[A-Z]\w*(?:\.[A-Z]\w*)?)['"`]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('the log-key catalogue', () => {
  it('has every key once, in a known group', () => {
    const keys = logKeyCatalogue.map((entry) => entry.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(isLogKey('Admin.Role.Created')).toBe(true);
    expect(isLogKey('Admin.Role.Exploded')).toBe(false);
  });

  it('holds every key the server and the console name in their sources', () => {
    const unknown: string[] = [];
    let seen = 0;
    for (const file of [
      ...sourceFiles(join(packages, 'server', 'src')),
      ...sourceFiles(join(packages, 'console', 'src')),
    ]) {
      for (const match of readFileSync(file, 'utf8').matchAll(keyShape)) {
        const key = match[1] ?? '';
        seen++;
        if (!isLogKey(key)) unknown.push(`${file.slice(packages.length + 1)}: ${key}`);
      }
    }
    expect(seen, 'the scan finds the keys the sources write').toBeGreaterThan(50);
    expect(unknown).toEqual([]);
  });

  it("is the console's filter catalogue", () => {
    const consoleKeys = readFileSync(join(packages, 'console', 'src', 'pages', 'audit-logs', 'log-keys.ts'), 'utf8');
    expect(consoleKeys).toMatch(/logKeyCatalogue[^;]*from '@gatehouse\/schemas'/);
    expect(consoleKeys, 'no key list of its own').not.toMatch(keyShape);
  });
});
