// Helpers of the tests that hold each guard of json-guards.ts against the zod schema it mirrors (tests only).
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Guard } from './json-guards.ts';

export type Schema = { safeParse(value: unknown): { success: boolean; data?: unknown } };

/** The guard accepts what the schema accepts, and gives the same value (unknown keys left out alike). */
export function expectAlike(guard: Guard<unknown>, schema: Schema, value: unknown): void {
  const expected = schema.safeParse(value);
  const actual = guard.safeParse(value);
  expect(actual.success, JSON.stringify(value)).toBe(expected.success);
  if (actual.success && expected.success) expect(actual.data).toStrictEqual(expected.data);
}

/** Values of every JSON kind, and the edge cases the schemas draw lines at. */
const leaf = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 53, '', 'v1.2.0', '1.2.0', 'de', 'dark', 'xx', 'system'),
  fc.string(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
export const json = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string(), tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** Objects with the schema's keys (each maybe missing, maybe of a wrong kind) and some unknown keys. */
export function objectsLike(keys: readonly string[], values: fc.Arbitrary<unknown> = json) {
  return fc
    .tuple(
      fc.record(Object.fromEntries(keys.map((key) => [key, values])), { requiredKeys: [] }),
      fc.dictionary(fc.string(), json, { maxKeys: 2 }),
    )
    .map(([known, unknown]) => ({ ...unknown, ...known }));
}

export const runs = { numRuns: 300 };
