import fc from 'fast-check';
import { describe, it } from 'vitest';
import { z } from 'zod';
import { expectAlike, objectsLike, runs } from '../../api/json-guards-testing.ts';
import { releaseInfoSchema } from './release-check.ts';

describe('releaseInfoSchema (a guard: the top bar checks without zod)', () => {
  it('read the release-info file as its zod schema would', () => {
    const schema = z.object({ latestRelease: z.string().startsWith('v') });
    fc.assert(
      fc.property(objectsLike(['latestRelease']), (value) => expectAlike(releaseInfoSchema, schema, value)),
      runs,
    );
  });
});
