import { describe, expect, it } from 'vitest';

const sources = import.meta.glob<string>('./**/*.tsx', { eager: true, query: '?raw', import: 'default' });

/**
 * Visible text written straight into JSX instead of going through t(). Simple on purpose: text between a `>` and
 * the next `<` that holds a letter and no `{…}`, plus the attributes people read. The look-arounds skip `=>`,
 * `->` and type arguments followed by punctuation (`Map<K, V>, x`), the usual false alarms.
 */
function findLiteralText(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const text = [...code.matchAll(/(?<![=-])>(?!\s*[,;:)(|&?=.\]])([^<>{}]*\p{L}[^<>{}]*)</gu)];
  const attributes = [...code.matchAll(/\b(?:aria-label|title|alt|placeholder)="([^"]*\p{L}[^"]*)"/gu)];
  return [...text, ...attributes].map((match) => (match[1] ?? '').trim());
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
