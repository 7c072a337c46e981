import { consolePreferencesSchema } from '@gatehouse/schemas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectAlike, json, objectsLike, runs } from '../../api/json-guards-testing.ts';
import { consolePreferencesGuard } from './preferences.ts';

describe('consolePreferencesGuard (the first page reads preferences without zod)', () => {
  it('read console preferences as consolePreferencesSchema does', () => {
    const keys = Object.keys(consolePreferencesSchema.shape);
    const values = fc.oneof(json, fc.constantFrom('en', 'zh-TW', 'light', 'dark', 'system', true, false, undefined));
    fc.assert(
      fc.property(objectsLike(keys, values), (value) =>
        expectAlike(consolePreferencesGuard, consolePreferencesSchema, value),
      ),
      runs,
    );
    // Every key of the schema is one the guard keeps.
    const allSet = Object.fromEntries(
      keys.map((key) => [key, key === 'language' ? 'fr' : key === 'appearanceMode' ? 'light' : true]),
    );
    expectAlike(consolePreferencesGuard, consolePreferencesSchema, allSet);
    expect(consolePreferencesGuard.parse(allSet)).toStrictEqual(allSet);
  });
});
