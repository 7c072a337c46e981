import { describe, expect, it } from 'vitest';
import { tokenTargetOf } from './client.ts';
import { managementPath, managementTenantOf } from './management-path.ts';

describe('management API paths and their token', () => {
  it('reads the tenant back from a cloud management path only', () => {
    expect(managementTenantOf(managementPath('t1', '/users?page=1'))).toBe('t1');
    expect(managementTenantOf('/m/t1/api')).toBe('t1');
    expect(managementTenantOf('/api/users')).toBeUndefined();
    expect(managementTenantOf('/m/t1/apis')).toBeUndefined();
    expect(managementTenantOf('/api/tenants')).toBeUndefined();
  });

  it("sends a tenant's organization token to its management API, the resource's token elsewhere", () => {
    expect(tokenTargetOf('/m/t1/api/users', undefined, undefined)).toEqual({ kind: 'organization', tenantId: 't1' });
    expect(tokenTargetOf('/api/users', undefined, undefined)).toEqual({ kind: 'resource' });
    expect(tokenTargetOf('/api/me', undefined, 'urn:me')).toEqual({ kind: 'resource', resource: 'urn:me' });
    // An explicit target wins over the path.
    expect(tokenTargetOf('/m/t1/api/users', { kind: 'resource', resource: 'x' }, undefined)).toEqual({
      kind: 'resource',
      resource: 'x',
    });
  });
});
