import { describe, expect, it } from 'vitest';
import {
  createPermissionFormSchema,
  createResourceFormSchema,
  type FieldProblem,
  fieldProblem,
  generalFormSchema,
  resolverWithMessages,
} from './form-rules.ts';

const describeProblem = (problem: FieldProblem, field: string) => `${field}:${JSON.stringify(problem)}`;
const resolverOptions = { fields: {}, shouldUseNativeValidation: false } as const;

describe('fieldProblem', () => {
  it('calls an empty or blank value required, whatever the rule that failed', () => {
    expect(fieldProblem('name', 'too_small', '')).toEqual({ key: 'required' });
    expect(fieldProblem('name', 'too_small', '   ')).toEqual({ key: 'required' });
    expect(fieldProblem('indicator', 'custom', '')).toEqual({ key: 'required' });
    expect(fieldProblem('accessTokenTtl', 'invalid_type', null)).toEqual({ key: 'required' });
  });

  it('names the length limit of the shared schema', () => {
    expect(fieldProblem('name', 'too_big', 'x'.repeat(257))).toEqual({ key: 'too_long', max: 256 });
    expect(fieldProblem('indicator', 'too_big', 'https://x')).toEqual({ key: 'too_long', max: 2048 });
    expect(fieldProblem('description', 'too_big', 'x')).toEqual({ key: 'too_long', max: 1024 });
  });

  it('explains the identifier, permission-name and lifetime rules', () => {
    expect(fieldProblem('indicator', 'custom', 'api.example.com')).toEqual({ key: 'indicator_invalid' });
    expect(fieldProblem('permissionName', 'invalid_format', 'read orders')).toEqual({
      key: 'permission_name_invalid',
    });
    expect(fieldProblem('accessTokenTtl', 'too_small', 0)).toEqual({ key: 'ttl_range', min: 1, max: 31_536_000 });
    expect(fieldProblem('accessTokenTtl', 'invalid_type', 1.5)).toEqual({ key: 'ttl_range', min: 1, max: 31_536_000 });
  });
});

describe('resolverWithMessages', () => {
  it('replaces the schema’s English messages with the console’s, field by field', async () => {
    const resolve = resolverWithMessages(
      createResourceFormSchema,
      { name: 'name', indicator: 'indicator' },
      describeProblem,
    );
    const result = await resolve({ name: ' ', indicator: '/relative/path' }, undefined, resolverOptions);
    expect(result.errors.name?.message).toBe('name:{"key":"required"}');
    expect(result.errors.indicator?.message).toBe('indicator:{"key":"indicator_invalid"}');
  });

  it('passes the parsed values through when the input is valid (names trimmed by the shared rule)', async () => {
    const resolve = resolverWithMessages(createResourceFormSchema, { name: 'name', indicator: 'indicator' }, () => '');
    const result = await resolve(
      { name: '  Orders API ', indicator: 'https://orders.example.com' },
      undefined,
      resolverOptions,
    );
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({ name: 'Orders API', indicator: 'https://orders.example.com' });
  });

  it('refuses permission names with spaces and lifetimes out of range', async () => {
    const permission = resolverWithMessages(
      createPermissionFormSchema,
      { name: 'permissionName', description: 'description' },
      describeProblem,
    );
    const refused = await permission({ name: 'read orders', description: '' }, undefined, resolverOptions);
    expect(refused.errors.name?.message).toBe('permissionName:{"key":"permission_name_invalid"}');
    expect(refused.errors.description).toBeUndefined();

    const general = resolverWithMessages(generalFormSchema, { accessTokenTtl: 'accessTokenTtl' }, describeProblem);
    for (const ttl of [0, 31_536_001, 2.5]) {
      const result = await general({ name: 'API', accessTokenTtl: ttl, isDefault: false }, undefined, resolverOptions);
      expect(result.errors.accessTokenTtl?.message, String(ttl)).toBe(
        'accessTokenTtl:{"key":"ttl_range","min":1,"max":31536000}',
      );
    }
    const accepted = await general({ name: 'API', accessTokenTtl: 60, isDefault: true }, undefined, resolverOptions);
    expect(accepted.errors).toEqual({});
  });
});
