import { describe, expect, it } from 'vitest';
import { forEdition } from './edition-scope.ts';
import { settingsRows } from './settings/settings-rows.ts';

describe('the profile by edition', () => {
  it('offers the username only in OSS', () => {
    expect(forEdition(settingsRows, 'oss').map((row) => row.key)).toEqual(['avatar', 'name', 'username']);
    expect(forEdition(settingsRows, 'cloud').map((row) => row.key)).toEqual(['avatar', 'name']);
  });

  it('keeps the order and the unscoped items in both editions', () => {
    const items = [{ key: 'a' }, { key: 'b', editions: ['cloud'] as const }, { key: 'c', editions: ['oss'] as const }];
    expect(forEdition(items, 'cloud').map((item) => item.key)).toEqual(['a', 'b']);
    expect(forEdition(items, 'oss').map((item) => item.key)).toEqual(['a', 'c']);
  });
});
