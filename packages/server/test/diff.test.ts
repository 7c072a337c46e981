import { describe, expect, it } from 'vitest';
import { diffFields } from '../src/services/diff.ts';

describe('audit diff', () => {
  it('lists changed, added and removed fields in order', () => {
    expect(diffFields({ a: 1, b: 'x', c: { d: [1] } }, { a: 1, b: 'y', c: { d: [1, 2] }, e: true })).toEqual([
      { field: 'b', before: 'x', after: 'y' },
      { field: 'c', before: { d: [1] }, after: { d: [1, 2] } },
      { field: 'e', before: null, after: true },
    ]);
  });

  it('handles creation and deletion', () => {
    expect(diffFields(null, { a: 1 })).toEqual([{ field: 'a', before: null, after: 1 }]);
    expect(diffFields({ a: 1 }, null)).toEqual([{ field: 'a', before: 1, after: null }]);
    expect(diffFields({ a: { b: 1 } }, { a: { b: 1 } })).toEqual([]);
  });
});
