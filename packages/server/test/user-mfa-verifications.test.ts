import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { Secret, TOTP, URI } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenants, userMfaVerifications, users } from '../src/db/tables.ts';
import { verifySecondFactor } from '../src/services/mfa-sign-in.ts';
import { hashBackupCode } from '../src/services/user-mfa-verifications.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { auditEntries, expectGuarded, expectInvalid, otherTenant, ownTenant } from './support/scenarios.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type UserJson = { id: string };
type VerificationJson = {
  id: string;
  type: string;
  createdAt: number;
  lastUsedAt: number | null;
  remainCodes?: number;
};

async function newUser(username: string): Promise<UserJson> {
  const response = await t.call('/api/users', { method: 'POST', body: { username } });
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  return response.json as UserJson;
}

/** A sign-in's second step with the user's authenticator code (services/mfa-sign-in.ts). */
const verifyTotp = async (userId: string, code: string) =>
  (await verifySecondFactor(ownTenant(t), userId, 'totp', code, {})).ok;
const path = (userId: string) => `/api/users/${userId}/mfa-verifications`;
const add = (userId: string, body: Record<string, unknown>) => t.call(path(userId), { method: 'POST', body });
const list = async (userId: string) => {
  const response = await t.call(path(userId));
  expect(response.status).toBe(200);
  return { list: response.json as VerificationJson[], text: response.text };
};

describe('TOTP factor', () => {
  it('creates a secret shown once, whose URI and QR code an authenticator app reads, and which verifies codes', async () => {
    const user = await newUser('totp_ada');
    const created = await add(user.id, { type: 'Totp' });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const { type, secret, otpauthUri, secretQrCode } = created.json;
    expect(type).toBe('Totp');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(Secret.fromBase32(secret).bytes, '160 bits').toHaveLength(20);

    const parsed = URI.parse(otpauthUri);
    expect(parsed).toBeInstanceOf(TOTP);
    expect(parsed.secret.base32).toBe(secret);
    expect(parsed.label).toBe('totp_ada');
    const [tenant] = await t.db.select().from(tenants).where(eq(tenants.id, DEFAULT_TENANT_ID));
    expect(parsed.issuer, "the tenant's name").toBe(tenant?.name);

    expect(secretQrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(secretQrCode.split(',')[1], 'base64').toString();
    expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);

    // A code from the shown secret verifies against the stored one.
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
    expect(TOTP.validate({ token: code, secret: Secret.fromBase32(secret), window: 1 })).not.toBeNull();
    const wrong = code === '000000' ? '111111' : '000000';
    expect(await verifyTotp(user.id, wrong)).toBe(false);
    expect(await verifyTotp(user.id, 'abcdef')).toBe(false);
    expect(await verifyTotp(user.id, code)).toBe(true);
    expect(await verifyTotp(user.id, code), 'a code is accepted once').toBe(false);

    const { list: factors, text } = await list(user.id);
    expect(factors).toEqual([
      { id: expect.any(String), type: 'Totp', createdAt: expect.any(Number), lastUsedAt: expect.any(Number) },
    ]);
    expect(text, 'the list never shows the secret').not.toContain(secret);
  });

  it('accepts a given base32 secret (any case) and stores it upper case', async () => {
    const user = await newUser('totp_given');
    const given = 'jbswy3dpehpk3pxpjbswy3dpehpk3pxp';
    const created = await add(user.id, { type: 'Totp', secret: given });
    expect(created.status).toBe(201);
    expect(created.json.secret).toBe(given.toUpperCase());
    const code = new TOTP({ secret: Secret.fromBase32(given.toUpperCase()) }).generate();
    expect(await verifyTotp(user.id, code)).toBe(true);
  });

  it('refuses a second TOTP factor with 422 and keeps the first', async () => {
    const user = await newUser('totp_twice');
    expect((await add(user.id, { type: 'Totp' })).status).toBe(201);
    const again = await add(user.id, { type: 'Totp' });
    expect(again.status).toBe(422);
    expect(again.json.code).toBe('user.totp_already_in_use');
    expect((await list(user.id)).list).toHaveLength(1);
  });

  it('lets only one of two concurrent TOTP creations through', async () => {
    const user = await newUser('totp_race');
    const answers = await Promise.all([add(user.id, { type: 'Totp' }), add(user.id, { type: 'Totp' })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 422]);
    expect(answers.find((answer) => answer.status === 422)?.json.code).toBe('user.totp_already_in_use');
    expect((await list(user.id)).list).toHaveLength(1);
  });

  it('names the user by email or phone when there is no username', async () => {
    const response = await t.call('/api/users', { method: 'POST', body: { primaryEmail: 'grace@example.com' } });
    const created = await add(response.json.id, { type: 'Totp' });
    expect(URI.parse(created.json.otpauthUri).label).toBe('grace@example.com');
  });
});

describe('backup codes', () => {
  it('need another factor first (422), then come as 10 codes shown once and stored hashed', async () => {
    const user = await newUser('backup_ada');
    const early = await add(user.id, { type: 'BackupCode' });
    expect(early.status).toBe(422);
    expect(early.json.code).toBe('user.mfa_requires_other_factor');
    expect((await list(user.id)).list).toEqual([]);

    expect((await add(user.id, { type: 'Totp' })).status).toBe(201);
    const created = await add(user.id, { type: 'BackupCode' });
    expect(created.status).toBe(201);
    const codes = created.json.codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-z]{10}$/);

    const { list: factors, text } = await list(user.id);
    expect(factors.map((factor) => factor.type)).toEqual(['BackupCode', 'Totp']);
    expect(factors[0]).toMatchObject({ remainCodes: 10, lastUsedAt: null });
    expect(factors[1]?.remainCodes).toBeUndefined();
    for (const code of codes) expect(text).not.toContain(code);

    const [row] = await t.db
      .select()
      .from(userMfaVerifications)
      .where(eq(userMfaVerifications.id, factors[0]?.id ?? ''));
    const stored = JSON.stringify(row?.data);
    for (const code of codes) expect(stored, 'no code stored in clear').not.toContain(code);
    expect(row?.data).toEqual({ codes: codes.map((code) => ({ hash: hashBackupCode(code), used: false })) });

    const again = await add(user.id, { type: 'BackupCode' });
    expect(again.status).toBe(422);
    expect(again.json.code).toBe('user.backup_code_already_in_use');
  });

  it('accepts 10 given codes', async () => {
    const user = await newUser('backup_given');
    await add(user.id, { type: 'Totp' });
    const codes = Array.from({ length: 10 }, (_, index) => `code${index}abcde`);
    const created = await add(user.id, { type: 'BackupCode', codes });
    expect(created.status).toBe(201);
    expect(created.json.codes).toEqual(codes);
  });
});

describe('invalid input', () => {
  it('answers 400 for unknown or admin-uncreatable types, bad secrets and bad codes, and saves nothing', async () => {
    const user = await newUser('bad_input');
    await add(user.id, { type: 'Totp' });
    const ten = Array.from({ length: 10 }, (_, index) => `code${index}abcde`);
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'Sms' }, 'type'],
      [{}, 'type'],
      [{ type: 'WebAuthn' }, 'type'],
      [{ type: 'Totp', secret: 'short2345' }, 'secret'],
      [{ type: 'Totp', secret: 'JBSWY3DPEHPK3PX1' }, 'secret'],
      [{ type: 'Totp', secret: 'A'.repeat(65) }, 'secret'],
      [{ type: 'BackupCode', codes: ten.slice(0, 9) }, 'codes'],
      [{ type: 'BackupCode', codes: [...ten.slice(0, 9), ten[0]] }, 'codes'],
      [{ type: 'BackupCode', codes: [...ten.slice(0, 9), 'UPPERCASE1'] }, 'codes.9'],
    ];
    for (const [body, field] of cases) {
      const response = await add(user.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expectInvalid(response, undefined, JSON.stringify(body));
      const paths = (response.json.data as { path: string }[]).map((entry) => entry.path);
      expect(
        paths.some((entry) => entry.startsWith(field)),
        `${JSON.stringify(body)} names ${field}`,
      ).toBe(true);
    }
    expect((await list(user.id)).list.map((factor) => factor.type)).toEqual(['Totp']);
  });
});

describe('delete', () => {
  it('removes one verification (204), then 404', async () => {
    const user = await newUser('delete_factor');
    await add(user.id, { type: 'Totp' });
    await add(user.id, { type: 'BackupCode' });
    const [codes, totp] = (await list(user.id)).list;
    const removed = await t.call(`${path(user.id)}/${totp?.id}`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect((await list(user.id)).list).toEqual([codes]);
    const again = await t.call(`${path(user.id)}/${totp?.id}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(again.json.code, 'the reference’s answer to a factor the user does not have').toBe('entity.not_found');
    // A removed TOTP factor can be added again (a new phone).
    expect((await add(user.id, { type: 'Totp' })).status).toBe(201);
  });

  it("answers 404 for another user's verification", async () => {
    const owner = await newUser('owner_factor');
    const stranger = await newUser('stranger_factor');
    await add(owner.id, { type: 'Totp' });
    const [factor] = (await list(owner.id)).list;
    expect((await t.call(`${path(stranger.id)}/${factor?.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await list(owner.id)).list).toHaveLength(1);
  });

  it('goes with the user when the user is deleted', async () => {
    const user = await newUser('deleted_owner');
    await add(user.id, { type: 'Totp' });
    await add(user.id, { type: 'BackupCode' });
    expect((await t.call(`/api/users/${user.id}`, { method: 'DELETE' })).status).toBe(204);
    const rows = await ownTenant(t).findMany(userMfaVerifications, { where: eq(userMfaVerifications.userId, user.id) });
    expect(rows).toEqual([]);
  });
});

describe('audit', () => {
  it('records exactly one entry per write, with the id and type and never a secret or code', async () => {
    const user = await newUser('audited_factor');
    const totp = await add(user.id, { type: 'Totp' });
    const backup = await add(user.id, { type: 'BackupCode' });
    const [codes, factor] = (await list(user.id)).list;
    await t.call(`${path(user.id)}/${factor?.id}`, { method: 'DELETE' });
    // A refused write leaves no entry.
    await add(user.id, { type: 'BackupCode' });

    const entries = (await auditEntries(t, user.id)).filter((entry) =>
      entry.key.startsWith('Admin.UserMfaVerification'),
    );
    expect(entries.map((entry) => entry.key)).toEqual([
      'Admin.UserMfaVerification.Deleted',
      'Admin.UserMfaVerification.Created',
      'Admin.UserMfaVerification.Created',
    ]);
    expect(entries[0]?.payload).toMatchObject({ before: { id: factor?.id, type: 'Totp' }, after: null });
    expect(entries[1]?.payload).toMatchObject({ before: null, after: { id: codes?.id, type: 'BackupCode' } });
    expect(entries[2]?.payload.after).toEqual({ id: factor?.id, type: 'Totp' });
    const text = JSON.stringify(entries);
    expect(text).not.toContain(totp.json.secret);
    for (const code of backup.json.codes as string[]) {
      expect(text).not.toContain(code);
      expect(text).not.toContain(hashBackupCode(code));
    }
  });
});

describe('access', () => {
  it('answers 404 for an unknown user', async () => {
    expect((await t.call(path('nobody'))).status).toBe(404);
    expect((await add('nobody', { type: 'Totp' })).status).toBe(404);
    expect((await t.call(`${path('nobody')}/x`, { method: 'DELETE' })).status).toBe(404);
  });

  it("keeps another tenant's users and verifications invisible", async () => {
    const foreign = await otherTenant(t).insert(users, { id: 'foreignmfa', username: 'foreign_mfa' });
    const foreignFactor = await otherTenant(t).insert(userMfaVerifications, {
      id: 'foreignfactor',
      userId: foreign.id,
      type: 'Totp',
      data: { secret: 'JBSWY3DPEHPK3PXP' },
    });
    expect((await t.call(path(foreign.id))).status).toBe(404);
    expect((await add(foreign.id, { type: 'Totp' })).status).toBe(404);
    expect((await t.call(`${path(foreign.id)}/${foreignFactor.id}`, { method: 'DELETE' })).status).toBe(404);
    const own = await newUser('own_mfa');
    expect((await t.call(`${path(own.id)}/${foreignFactor.id}`, { method: 'DELETE' })).status).toBe(404);
    expect(
      await otherTenant(t).findMany(userMfaVerifications, { where: eq(userMfaVerifications.id, 'foreignfactor') }),
    ).toHaveLength(1);
    expect(await verifyTotp(foreign.id, '123456')).toBe(false);
  });

  it('needs a token with scope all', async () => {
    const user = await newUser('guarded_mfa');
    await expectGuarded(t, [
      { method: 'GET', path: path(user.id) },
      { method: 'POST', path: path(user.id), body: { type: 'Totp' } },
      { method: 'DELETE', path: `${path(user.id)}/someid` },
    ]);
  });
});
