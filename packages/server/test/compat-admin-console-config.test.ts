import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';

/**
 * Issue 43: `GET/PATCH /configs/admin-console` as a client written for the reference sends and reads it: the flags
 * `signInExperienceCustomized` and `organizationCreated` (false until set), the migration record and the charge
 * notices, each PATCHed field replacing the stored one (the reference merges the top level only).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const path = '/api/configs/admin-console';
const patch = (body: unknown) => t.call(path, { method: 'PATCH', body });

describe('/configs/admin-console (reference shapes)', () => {
  it('answers the reference’s defaults before anything is set', async () => {
    const response = await t.call(path);
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ signInExperienceCustomized: false, organizationCreated: false });
  });

  it('sets the flags, keeps the fields not given, and replaces an object field whole', async () => {
    expect((await patch({ signInExperienceCustomized: true })).json).toEqual({
      signInExperienceCustomized: true,
      organizationCreated: false,
    });
    const record = { isPaidTenant: false, tag: 'development', readAt: 1_700_000_000_000 };
    const withRecord = await patch({ organizationCreated: true, developmentTenantMigrationNotification: record });
    expect(withRecord.status).toBe(200);
    expect(withRecord.json).toEqual({
      signInExperienceCustomized: true,
      organizationCreated: true,
      developmentTenantMigrationNotification: record,
    });
    // The reference's `value || patch`: the record given replaces the stored one, readAt included.
    const replaced = await patch({
      developmentTenantMigrationNotification: { isPaidTenant: true, tag: 'development' },
    });
    expect(replaced.json.developmentTenantMigrationNotification).toEqual({ isPaidTenant: true, tag: 'development' });
    const charges = await patch({ checkedChargeNotification: { token: true, apiResource: false } });
    expect(charges.json).toEqual({
      signInExperienceCustomized: true,
      organizationCreated: true,
      developmentTenantMigrationNotification: { isPaidTenant: true, tag: 'development' },
      checkedChargeNotification: { token: true, apiResource: false },
    });
    expect((await t.call(path)).json).toEqual(charges.json);
  });

  it('takes back a whole GET answer, and refuses a wrong value of a declared field with 400', async () => {
    const current = (await t.call(path)).json;
    const same = await patch({ ...current, tenantId: 'default' });
    expect(same.status).toBe(200);
    expect(same.json).toEqual(current);
    for (const body of [
      { signInExperienceCustomized: 'true' },
      { organizationCreated: null },
      { developmentTenantMigrationNotification: { readAt: 'soon' } },
      { checkedChargeNotification: { token: 1 } },
    ]) {
      const refused = await patch(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.json.code).toBe('guard.invalid_input');
    }
    expect((await t.call(path)).json).toEqual(current);
  });

  it('audits each change as Admin.AdminConsoleConfig.Updated, with the fields before and after', async () => {
    const before = (await t.call(path)).json;
    await patch({ signInExperienceCustomized: !before.signInExperienceCustomized });
    const logs = await t.call('/api/logs?logKey=Admin.AdminConsoleConfig.Updated&page_size=1');
    expect(logs.json[0].payload).toMatchObject({
      before: { signInExperienceCustomized: before.signInExperienceCustomized },
      after: { signInExperienceCustomized: !before.signInExperienceCustomized },
    });
  });
});
