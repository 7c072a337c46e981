import { describe, expect, it } from 'vitest';
import { tenantEndpoints } from './tenant-endpoints.ts';

const admin = 'https://id.example.com/t/admin/oidc';

describe('tenantEndpoints', () => {
  it('follows the server naming: /oidc for the default tenant, /t/{id}/oidc for the others', () => {
    expect(tenantEndpoints({ issuer: admin }, undefined)).toEqual({
      publicUrl: 'https://id.example.com',
      issuer: 'https://id.example.com/oidc',
      discoveryUrl: 'https://id.example.com/oidc/.well-known/openid-configuration',
      managementApi: 'https://id.example.com/api',
      managementResource: 'https://default.gatehouse.internal/api',
    });
    expect(tenantEndpoints({ issuer: admin }, 'acme')).toMatchObject({
      issuer: 'https://id.example.com/t/acme/oidc',
      managementApi: 'https://id.example.com/m/acme/api',
      managementResource: 'https://acme.gatehouse.internal/api',
    });
  });

  it('keeps a path prefix of the public URL (behind a proxy)', () => {
    const endpoints = tenantEndpoints({ issuer: 'https://example.com/auth/t/admin/oidc' }, undefined);
    expect(endpoints.issuer).toBe('https://example.com/auth/oidc');
    expect(endpoints.managementApi).toBe('https://example.com/auth/api');
  });

  it('falls back to the origin when the admin issuer has an unexpected shape', () => {
    expect(tenantEndpoints({ issuer: 'https://id.example.com/issuer' }, 'acme').issuer).toBe(
      'https://id.example.com/t/acme/oidc',
    );
  });

  it('encodes a tenant id that is not a plain path segment', () => {
    expect(tenantEndpoints({ issuer: admin }, 'a/b').issuer).toBe('https://id.example.com/t/a%2Fb/oidc');
  });
});
