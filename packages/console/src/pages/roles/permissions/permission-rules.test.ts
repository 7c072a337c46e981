import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/client.ts';
import { isManagementApi } from '../../../components/PermissionPicker/built-in-resources.ts';
import { serverErrorIds } from '../../../components/submit/server-errors.ts';

describe('isManagementApi', () => {
  it('knows a tenant’s own management API by its internal indicator', () => {
    expect(isManagementApi('https://default.gatehouse.internal/api')).toBe(true);
    expect(isManagementApi('https://t-abc.gatehouse.internal/api')).toBe(true);
  });

  it('leaves every other API pickable for user roles', () => {
    expect(isManagementApi('https://orders.example.com/api')).toBe(false);
    expect(isManagementApi('https://gatehouse.internal.example.com/api')).toBe(false);
    expect(isManagementApi('https://admin.gatehouse.internal/me')).toBe(false);
    expect(isManagementApi('not a url')).toBe(false);
  });
});

describe('the already assigned ids of a role.scope_exists', () => {
  it('reads the ids of a 422 role.scope_exists', () => {
    const error = new ApiError(422, 'exists', 'role.scope_exists', { ids: ['s1', 's2'] });
    expect(serverErrorIds(error, 'role.scope_exists')).toEqual(['s1', 's2']);
  });

  it('ignores other errors and malformed data', () => {
    expect(
      serverErrorIds(new ApiError(422, 'x', 'role.invalid_type', { ids: ['s1'] }), 'role.scope_exists'),
    ).toBeUndefined();
    expect(
      serverErrorIds(new ApiError(422, 'x', 'role.scope_exists', { ids: 's1' }), 'role.scope_exists'),
    ).toBeUndefined();
    expect(serverErrorIds(new Error('network'), 'role.scope_exists')).toBeUndefined();
  });
});
