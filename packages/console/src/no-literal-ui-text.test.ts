import { describe, expect, it } from 'vitest';

// Tests render fixtures of their own; what users see is in the components.
const sources = import.meta.glob<string>(['./**/*.tsx', '!./**/*.test.tsx'], {
  eager: true,
  query: '?raw',
  import: 'default',
});

/**
 * Visible text written straight into JSX instead of going through t(). Simple on purpose: text between a `>` and
 * the next `<` that holds a letter and no `{…}`, plus the attributes people read. The look-arounds skip `=>`,
 * `->` and type arguments followed by punctuation (`Map<K, V>, x`), the usual false alarms.
 */
function findLiteralText(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const text = [...code.matchAll(/(?<![=-])>(?!\s*[,;:)(|&?=.\]])([^<>{}]*\p{L}[^<>{}]*)</gu)];
  const attributes = [...code.matchAll(/\b(?:aria-label|title|alt|placeholder)="([^"]*\p{L}[^"]*)"/gu)];
  return [...text, ...attributes]
    .map((match) => (match[1] ?? '').trim())
    .filter((found) => !looksLikeCode(found) && !/^https?:\/\/\S*$/.test(found));
}

/** A comparison's right-hand side read as text (`a > 0 ? x : y;`, `n >= size && (`): statements, not words. */
function looksLikeCode(text: string): boolean {
  return /;|&&|\|\|/.test(text);
}

describe('findLiteralText', () => {
  it('catches literal text and readable attributes', () => {
    expect(findLiteralText('<h1>Hello</h1>')).toEqual(['Hello']);
    expect(findLiteralText('<p>\n  Two words\n</p>')).toEqual(['Two words']);
    expect(findLiteralText('<button aria-label="Close" />')).toEqual(['Close']);
  });

  it('accepts translated text, expressions and TypeScript', () => {
    expect(findLiteralText("<h1>{t('title')}</h1>")).toEqual([]);
    expect(findLiteralText('items.map((item) => <li key={item}>{item}</li>)')).toEqual([]);
    expect(findLiteralText('const a: Map<string, number>, b: Set<string> = x;')).toEqual([]);
    expect(findLiteralText('<span>·</span> {/* a comment <b>here</b> */}')).toEqual([]);
    expect(findLiteralText("const d = n > 0 ? 'up' : 'down';\n  return (<b />)")).toEqual([]);
    expect(findLiteralText('{total >= pageSize && (<Pagination />)}')).toEqual([]);
    expect(findLiteralText('<input placeholder="https://app.example.com/accept" />')).toEqual([]);
  });
});

describe('console sources', () => {
  it('were found', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(0);
  });

  it.each(Object.entries(sources))('%s shows no literal UI text', (_path, source) => {
    expect(findLiteralText(source)).toEqual([]);
  });
});
