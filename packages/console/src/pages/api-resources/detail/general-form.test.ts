import type { Resource } from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';
import { generalChanges, toGeneralForm } from './general-form.ts';

const resource: Resource = {
  tenantId: 'default',
  id: 'r1',
  name: 'Orders',
  indicator: 'https://orders.example.com',
  isDefault: false,
  accessTokenTtl: 3600,
  createdAt: 0,
};

describe('generalChanges', () => {
  it('sends nothing for an unchanged form', () => {
    expect(generalChanges(resource, toGeneralForm(resource))).toEqual({ patch: {}, isDefault: undefined });
  });

  it('sends only the changed fields, and the default flag apart', () => {
    expect(generalChanges(resource, { name: 'Orders v2', accessTokenTtl: 3600, isDefault: false })).toEqual({
      patch: { name: 'Orders v2' },
      isDefault: undefined,
    });
    expect(generalChanges(resource, { name: 'Orders', accessTokenTtl: 60, isDefault: true })).toEqual({
      patch: { accessTokenTtl: 60 },
      isDefault: true,
    });
    expect(generalChanges({ ...resource, isDefault: true }, { ...toGeneralForm(resource), isDefault: false })).toEqual({
      patch: {},
      isDefault: false,
    });
  });
});
