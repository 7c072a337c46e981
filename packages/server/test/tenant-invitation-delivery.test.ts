import { ADMIN_TENANT_ID, CLOUD_API_RESOURCE, DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectors, users } from '../src/db/tables.ts';
import { TenantDb, TenantDbs } from '../src/db/tenant-db.ts';
import { createFirstConsoleAdmin } from '../src/services/console-admin.ts';
import { createTestApp, type TestApp } from './support/app.ts';

/**
 * Issue 40, item 11: the console asks whether tenant invitations are emailed before it offers to send them. The answer
 * follows the mail worker's own condition: SMTP_URL, or an email connector of the admin tenant (where they live).
 */

let withoutMail: TestApp;
let withSmtp: TestApp;
beforeAll(async () => {
  withoutMail = await createTestApp({ EDITION: 'cloud' });
  withSmtp = await createTestApp({ EDITION: 'cloud', SMTP_URL: 'smtp://127.0.0.1:2525' });
});
afterAll(async () => {
  await withoutMail?.close();
  await withSmtp?.close();
});

/** The first console admin (an admin of the default tenant) and their cloud token. */
async function consoleAdminOf(app: TestApp): Promise<string> {
  await createFirstConsoleAdmin(new TenantDbs(app.db), { username: 'root', password: 'Root-Pass-424242' });
  const root = await new TenantDb(app.db, ADMIN_TENANT_ID).findOne(users, eq(users.username, 'root'));
  return `Bearer ${await app.token({ audience: CLOUD_API_RESOURCE, subject: root?.id ?? '', scope: 'all' })}`;
}

const deliveryOf = (app: TestApp, authorization: string, tenantId = DEFAULT_TENANT_ID) =>
  app.call(`/api/tenants/${tenantId}/invitation-delivery`, { headers: { Authorization: authorization } });

describe('GET /api/tenants/{id}/invitation-delivery', () => {
  it('says no email goes out without SMTP_URL or an email connector, and yes once the admin tenant has one', async () => {
    const authorization = await consoleAdminOf(withoutMail);
    const before = await deliveryOf(withoutMail, authorization);
    expect(before.status).toBe(200);
    expect(before.json).toEqual({ email: false });

    // An email connector of another tenant sends nothing for the admin tenant's invitations.
    await new TenantDb(withoutMail.db, DEFAULT_TENANT_ID).insert(connectors, {
      id: 'defaultmail1',
      connectorId: 'smtp',
      type: 'Email',
      config: {},
    });
    expect((await deliveryOf(withoutMail, authorization)).json).toEqual({ email: false });

    await new TenantDb(withoutMail.db, ADMIN_TENANT_ID).insert(connectors, {
      id: 'adminmail001',
      connectorId: 'smtp',
      type: 'Email',
      config: {},
    });
    expect((await deliveryOf(withoutMail, authorization)).json).toEqual({ email: true });
  });

  it('says email goes out with SMTP_URL', async () => {
    const authorization = await consoleAdminOf(withSmtp);
    expect((await deliveryOf(withSmtp, authorization)).json).toEqual({ email: true });
  });

  it('answers 404 for a tenant the caller is not a member of, as every route of a tenant does', async () => {
    const authorization = await consoleAdminOf(withSmtp);
    const other = await deliveryOf(withSmtp, authorization, 'nosuchtenant');
    expect(other.status).toBe(404);
    expect(other.json.code).toBe('entity.not_exists_with_id');
  });
});
