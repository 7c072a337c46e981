import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { serverErrorIds } from '../../components/submit/server-errors.ts';
import { createPermissionFormSchema, createRoleFormSchema, editPermissionFormSchema } from './template-form.ts';

describe('organization permission form', () => {
  it('takes one word of printable characters up to 128', () => {
    expect(createPermissionFormSchema.safeParse({ name: 'read:members', description: '' }).success).toBe(true);
    expect(createPermissionFormSchema.safeParse({ name: 'x'.repeat(128), description: '' }).success).toBe(true);
  });

  it('refuses an empty, a spaced, a quoted and a too long name', () => {
    for (const name of ['', 'read members', 'read"members', 'read\\members', 'x'.repeat(129)]) {
      expect(createPermissionFormSchema.safeParse({ name, description: '' }).success, name).toBe(false);
    }
  });

  it('keeps descriptions to 256 characters', () => {
    expect(editPermissionFormSchema.safeParse({ description: 'x'.repeat(256) }).success).toBe(true);
    expect(editPermissionFormSchema.safeParse({ description: 'x'.repeat(257) }).success).toBe(false);
  });
});

describe('organization role form', () => {
  it('trims the name and refuses one of spaces alone', () => {
    const parsed = createRoleFormSchema.safeParse({ name: '  admin ', description: '', type: 'User' });
    expect(parsed.success && parsed.data.name).toBe('admin');
    expect(createRoleFormSchema.safeParse({ name: '   ', description: '', type: 'User' }).success).toBe(false);
  });

  it('knows only the two role types', () => {
    expect(createRoleFormSchema.safeParse({ name: 'a', description: '', type: 'MachineToMachine' }).success).toBe(true);
    expect(createRoleFormSchema.safeParse({ name: 'a', description: '', type: 'Admin' }).success).toBe(false);
  });
});

describe('the already assigned ids of a 422', () => {
  it('reads the ids of the 422 it is asked about', () => {
    const error = new ApiError(422, 'exists', 'organization_role.scope_exists', { ids: ['s1'] });
    expect(serverErrorIds(error, 'organization_role.scope_exists')).toEqual(['s1']);
  });

  it('ignores other codes and malformed data', () => {
    const error = new ApiError(422, 'exists', 'organization_role.scope_exists', { ids: ['s1'] });
    expect(serverErrorIds(error, 'organization_role.resource_scope_exists')).toBeUndefined();
    const malformed = new ApiError(422, 'x', 'organization_role.scope_exists', { ids: 's1' });
    expect(serverErrorIds(malformed, 'organization_role.scope_exists')).toBeUndefined();
    expect(serverErrorIds(new Error('network'), 'organization_role.scope_exists')).toBeUndefined();
  });
});
