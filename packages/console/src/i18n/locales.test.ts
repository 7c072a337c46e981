import { describe, expect, it } from 'vitest';
import { fallbackLanguage, languages } from './languages.ts';

// Eager here only: the test reads every file, the app loads one language lazily.
const files = import.meta.glob<unknown>('./locales/*/*.json', { eager: true, import: 'default' });

type Strings = Map<string, unknown>;

/** Dotted key → leaf value, so nested namespaces compare key by key. */
function flatten(value: unknown, prefix = '', into: Strings = new Map()): Strings {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) flatten(child, `${prefix}${key}.`, into);
  } else {
    into.set(prefix.slice(0, -1), value);
  }
  return into;
}

const locales = new Map<string, Map<string, Strings>>();
for (const [path, content] of Object.entries(files)) {
  const [, language = '', namespace = ''] = /^\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path) ?? [];
  const namespaces = locales.get(language) ?? new Map<string, Strings>();
  namespaces.set(namespace, flatten(content));
  locales.set(language, namespaces);
}

const source = locales.get(fallbackLanguage) ?? new Map<string, Strings>();

function isFilled(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '';
}

/** The `{{name}}` variables of a string: a translation must keep them, or the value never shows. */
function placeholders(value: unknown): string {
  if (typeof value !== 'string') return '';
  const names = [...value.matchAll(/\{\{\s*(\w+)/g)].map((match) => match[1]);
  return names.sort().join();
}

/** Every difference between one language and en, as readable lines. */
function problems(language: string): string[] {
  const found: string[] = [];
  const namespaces = locales.get(language) ?? new Map<string, Strings>();
  for (const [namespace, sourceStrings] of source) {
    const strings = namespaces.get(namespace);
    if (!strings) {
      found.push(`${namespace}.json is missing`);
      continue;
    }
    for (const [key, sourceValue] of sourceStrings) {
      const value = strings.get(key);
      const where = `${namespace}:${key}`;
      if (!strings.has(key)) found.push(`${where} is missing`);
      else if (!isFilled(value)) found.push(`${where} is empty`);
      else if (placeholders(value) !== placeholders(sourceValue)) found.push(`${where} changes placeholders`);
    }
    for (const key of strings.keys()) {
      if (!sourceStrings.has(key)) found.push(`${namespace}:${key} is not in ${fallbackLanguage}`);
    }
  }
  for (const namespace of namespaces.keys()) {
    if (!source.has(namespace)) found.push(`${namespace}.json is not in ${fallbackLanguage}`);
  }
  return found;
}

describe('locales', () => {
  it('has exactly one folder per interface language', () => {
    expect([...locales.keys()].sort()).toEqual([...languages].sort());
  });

  it(`has only filled strings in ${fallbackLanguage}, the source language`, () => {
    expect(source.size).toBeGreaterThan(0);
    const empty = [...source].flatMap(([namespace, strings]) =>
      [...strings].filter(([, value]) => !isFilled(value)).map(([key]) => `${namespace}:${key}`),
    );
    expect(empty).toEqual([]);
  });

  it.each(languages.filter((language) => language !== fallbackLanguage))('%s has the same keys as en', (language) => {
    expect(problems(language)).toEqual([]);
  });

  // runtime.ts reads dotted keys, `namespace:key` prefixes and `{{name}}` (no nesting, formats or unescaped forms):
  // a string that needs more would show raw in the console, so it fails here instead.
  it('uses only what the translation runtime reads', () => {
    const unsupported = [...locales].flatMap(([language, namespaces]) =>
      [...namespaces].flatMap(([namespace, strings]) =>
        [...strings].flatMap(([key, value]) => {
          const where = `${language}/${namespace}:${key}`;
          const found: string[] = [];
          if (key.includes(':')) found.push(`${where}: a key with ':'`);
          if (typeof value !== 'string') return [...found, `${where}: not a string`];
          if (value.includes('$t(')) found.push(`${where}: nesting`);
          for (const [placeholder] of value.matchAll(/\{\{[^}]*\}\}/g))
            if (!/^\{\{\s*[\w.]+\s*\}\}$/.test(placeholder)) found.push(`${where}: ${placeholder}`);
          return found;
        }),
      ),
    );
    expect(unsupported).toEqual([]);
  });
});
