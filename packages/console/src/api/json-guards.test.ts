import { customDataSchema, MAX_CUSTOM_DATA_BYTES, meSchema } from '@gatehouse/schemas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectAlike, json, objectsLike, runs } from './json-guards-testing.ts';
import { customDataGuard, meGuard } from './me.ts';

describe('json guards (the first page checks server JSON without zod)', () => {
  it('read "me" as meSchema does', () => {
    const me = {
      id: 'u1',
      username: 'ada',
      primaryEmail: null,
      primaryEmailVerified: false,
      primaryPhone: '123',
      name: null,
      avatar: null,
      customData: { a: 1 },
      identities: {},
      hasPassword: true,
      lastSignInAt: null,
      createdAt: 1,
      updatedAt: 2,
    };
    expectAlike(meGuard, meSchema, me);
    expectAlike(meGuard, meSchema, { ...me, extra: 'left out' });
    expectAlike(meGuard, meSchema, { ...me, customData: [] });
    expectAlike(meGuard, meSchema, { ...me, lastSignInAt: Number.NaN });
    const { id: _id, ...withoutId } = me;
    expectAlike(meGuard, meSchema, withoutId);
    const keys = Object.keys(meSchema.shape);
    fc.assert(
      fc.property(objectsLike(keys), (value) => expectAlike(meGuard, meSchema, value)),
      runs,
    );
    // Valid values of every field, so the accepting side is exercised as much as the refusing one.
    const valid = fc.record({
      id: fc.string(),
      username: fc.option(fc.string()),
      primaryEmail: fc.option(fc.string()),
      primaryEmailVerified: fc.boolean(),
      primaryPhone: fc.option(fc.string()),
      name: fc.option(fc.string()),
      avatar: fc.option(fc.string()),
      customData: fc.dictionary(fc.string(), json),
      identities: fc.dictionary(fc.string(), json),
      hasPassword: fc.boolean(),
      lastSignInAt: fc.option(fc.integer()),
      createdAt: fc.integer(),
      updatedAt: fc.double({ noNaN: true, noDefaultInfinity: true }),
    });
    fc.assert(
      fc.property(valid, json, (value, extra) => expectAlike(meGuard, meSchema, { ...value, extra })),
      runs,
    );
  });

  it('read custom data as customDataSchema does, up to its size limit', () => {
    fc.assert(
      fc.property(json, (value) => expectAlike(customDataGuard, customDataSchema, value)),
      runs,
    );
    const fits = { text: 'x'.repeat(MAX_CUSTOM_DATA_BYTES - 20) };
    const tooBig = { text: 'x'.repeat(MAX_CUSTOM_DATA_BYTES) };
    expectAlike(customDataGuard, customDataSchema, fits);
    expectAlike(customDataGuard, customDataSchema, tooBig);
    expect(customDataGuard.safeParse(tooBig).success).toBe(false);
    expectAlike(customDataGuard, customDataSchema, JSON.parse('{"__proto__": {"a": 1}, "b": 2}'));
    expectAlike(customDataGuard, customDataSchema, new Date(0));
  });
});
