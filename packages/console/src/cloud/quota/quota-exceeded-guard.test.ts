import { quotaExceededDataSchema } from '@gatehouse/schemas';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { expectAlike, json, objectsLike, runs } from '../../api/json-guards-testing.ts';
import { quotaExceededDataGuard } from './quota-exceeded.ts';

describe('quotaExceededDataGuard (the query client checks errors without zod)', () => {
  it('read quota refusals as quotaExceededDataSchema does', () => {
    const quota = fc.dictionary(
      fc.oneof(fc.constantFrom('applicationsLimit', 'mfaEnabled'), fc.string()),
      fc.oneof(objectsLike(['limit', 'usage']), json),
      { maxKeys: 3 },
    );
    fc.assert(
      fc.property(objectsLike(['quota']), (value) =>
        expectAlike(quotaExceededDataGuard, quotaExceededDataSchema, value),
      ),
      runs,
    );
    fc.assert(
      fc.property(quota, (value) => expectAlike(quotaExceededDataGuard, quotaExceededDataSchema, { quota: value })),
      runs,
    );
    const limits = [3, 0, null, true, false, -1, 1.5, 2 ** 53, '3'];
    for (const limit of limits) {
      const value = { quota: { applicationsLimit: { limit, usage: 3 } } };
      expectAlike(quotaExceededDataGuard, quotaExceededDataSchema, value);
    }
  });
});
