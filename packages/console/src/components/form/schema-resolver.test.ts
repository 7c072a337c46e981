import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { schemaResolver } from './schema-resolver.ts';

const options = { fields: {}, shouldUseNativeValidation: false };

// A shared schema's rule with its own (English, API-facing) message, a trimmed field, and a rule across fields.
const schema = z
  .object({
    name: z.string().trim().min(1, 'must not be empty'),
    rows: z.array(z.object({ key: z.string().max(3) })),
    min: z.number(),
    max: z.number(),
  })
  .superRefine((values, context) => {
    if (values.min > values.max) context.addIssue({ code: 'custom', message: 'order', path: ['min'] });
  });

describe('schemaResolver', () => {
  it('words every issue, also those carrying their own message, and nests them at their fields', async () => {
    const words = (issue: z.core.$ZodIssue) => `${issue.path.join('.')}: ${issue.code}/${issue.message}`;
    const result = await schemaResolver(schema, words)(
      { name: '  ', rows: [{ key: 'ok' }, { key: 'long' }], min: 2, max: 1 },
      undefined,
      options,
    );
    expect(result.values).toEqual({});
    expect(result.errors).toMatchObject({
      name: { type: 'too_small', message: 'name: too_small/must not be empty' },
      rows: [undefined, { key: { type: 'too_big', message: expect.stringMatching(/^rows\.1\.key: too_big\//) } }],
      min: { type: 'custom', message: 'min: custom/order' },
    });
  });

  it("keeps the schema's message where the wording has none, and gives the wording the refused value", async () => {
    const seen: unknown[] = [];
    const result = await schemaResolver(schema, (issue) => {
      seen.push(issue.input);
      return undefined;
    })({ name: '', rows: [], min: 1, max: 1 }, undefined, options);
    expect(result.errors).toMatchObject({ name: { message: 'must not be empty' } });
    expect(seen).toEqual(['']);
  });

  it("submits the schema's output, or with `raw` the values as typed", async () => {
    const values = { name: ' Ada ', rows: [], min: 1, max: 2 };
    expect((await schemaResolver(schema)(values, undefined, options)).values).toEqual({ ...values, name: 'Ada' });
    const raw = schemaResolver<typeof values>(schema, undefined, { raw: true });
    expect((await raw(values, undefined, options)).values).toBe(values);
  });

  it('gives each field the message of its first issue', async () => {
    const twice = z.object({ code: z.string().min(4, 'short').regex(/^\d+$/, 'digits') });
    const result = await schemaResolver(twice)({ code: 'ab' }, undefined, options);
    expect(result.errors).toMatchObject({ code: { message: 'short' } });
  });
});
