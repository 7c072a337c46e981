import { describe, expect, it } from 'vitest';
import { pseudoResources, pseudoTranslate } from './pseudo.ts';

describe('pseudo-locale', () => {
  it('accents letters, brackets and pads the text, so untranslated text stands out', () => {
    const result = pseudoTranslate('Sign out');
    expect(result).toMatch(/^\[Šîĝñ õûţ ·+\]$/);
    expect(result.length).toBeGreaterThan('Sign out'.length * 1.3);
  });

  it('keeps placeholders intact so interpolation still works', () => {
    expect(pseudoTranslate('Version {{version}}')).toContain('{{version}}');
  });

  it('transforms nested resources', () => {
    expect(pseudoResources({ a: { b: 'Hi' }, n: 1 })).toEqual({ a: { b: '[Ĥî ·]' }, n: 1 });
  });
});
