import { applicationTypes } from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';
import { applicationTypeIcons, applicationTypeOrder } from './application-types.ts';

describe('application type icons (issue 26)', () => {
  it('give every type of the catalogue an icon of its own, and the picker offers every type', () => {
    for (const type of applicationTypes) {
      expect(applicationTypeIcons[type]?.length, type).toBeGreaterThan(0);
    }
    const icons = applicationTypes.map((type) => applicationTypeIcons[type]);
    expect(new Set(icons).size).toBe(applicationTypes.length);
    expect([...applicationTypeOrder].sort()).toEqual([...applicationTypes].sort());
  });
});
