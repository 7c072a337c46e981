import { describe, expect, it } from 'vitest';
import { changeValueText, logChanges } from './log-changes.ts';

describe('logChanges', () => {
  it('reads the write path’s changes with values as text', () => {
    const payload = {
      result: 'Success' as const,
      changes: [
        { field: 'name', before: null, after: 'Ada' },
        { field: 'customData', before: { plan: 'free' }, after: { plan: 'pro' } },
        { field: 'isSuspended', before: false, after: true },
      ],
    };
    expect(logChanges(payload)).toEqual([
      { field: 'name', before: '', after: 'Ada' },
      { field: 'customData', before: '{"plan":"free"}', after: '{"plan":"pro"}' },
      { field: 'isSuspended', before: 'false', after: 'true' },
    ]);
  });

  it('is empty without changes and skips entries of another shape', () => {
    expect(logChanges({ result: 'Error' })).toEqual([]);
    expect(logChanges({ result: 'Success', changes: 'name' })).toEqual([]);
    expect(logChanges({ result: 'Success', changes: [7, { before: 1 }, { field: 'a', after: 0 }] })).toEqual([
      { field: 'a', before: '', after: '0' },
    ]);
  });
});

describe('changeValueText', () => {
  it('keeps strings, writes other values as JSON and none as empty', () => {
    expect(changeValueText('a "b"')).toBe('a "b"');
    expect(changeValueText(['x'])).toBe('["x"]');
    expect(changeValueText(undefined)).toBe('');
    expect(changeValueText(0)).toBe('0');
  });
});
