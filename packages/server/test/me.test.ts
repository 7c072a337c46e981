import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID, generateId } from '@gatehouse/schemas';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ME_RESOURCE } from '../src/auth/issuers.ts';
import { logs, users } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { PASSWORD_VERIFY_LOG_KEY } from '../src/routes/me.ts';
import { hashPassword } from '../src/services/passwords.ts';
import { createTestApp, type TestApp } from './support/app.ts';

let t: TestApp;
let dataDir: string;
const admin = () => new TenantDb(t.db, ADMIN_TENANT_ID);

async function createConsoleUser(username: string, password: string | null) {
  const user = await admin().insert(users, {
    id: generateId(12),
    username,
    primaryEmail: `${username}@example.com`,
    passwordEncrypted: password ? await hashPassword(password) : null,
    passwordEncryptionMethod: password ? 'Argon2id' : null,
  });
  return user.id;
}

const meToken = (subject: string, extra: Parameters<TestApp['token']>[0] = {}) =>
  t.token({ audience: ME_RESOURCE, subject, scope: 'all', ...extra });

async function asUser(subject: string, path: string, init: Parameters<TestApp['call']>[1] = {}) {
  return t.call(`/api/me${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${await meToken(subject)}`, ...init.headers },
  });
}

async function upload(subject: string, file: Blob | null, name = 'avatar.png') {
  const form = new FormData();
  if (file) form.append('file', file, name);
  else form.append('note', 'no file here');
  const response = await t.app.request('/api/me/user-assets', {
    method: 'POST',
    headers: { Authorization: `Bearer ${await meToken(subject)}` },
    body: form,
  });
  return { status: response.status, json: (await response.json()) as { url?: string; code?: string } };
}

const png = () =>
  new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])], {
    type: 'image/png',
  });

let alice: string;
let bob: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-me-'));
  t = await createTestApp({ DATA_DIR: dataDir });
  alice = await createConsoleUser('alice', 'correct-horse-battery');
  bob = await createConsoleUser('bob', null);
});
afterAll(async () => {
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("the 'me' API reads the signed-in user", () => {
  it('returns the profile without the password hash', async () => {
    const response = await asUser(alice, '');
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({
      id: alice,
      username: 'alice',
      primaryEmail: 'alice@example.com',
      hasPassword: true,
      customData: {},
    });
    expect(response.text).not.toContain('argon2');
    expect((await asUser(bob, '')).json.hasPassword).toBe(false);
  });

  it('refuses calls without a valid token for the me API', async () => {
    expect((await t.call('/api/me', { auth: false })).status).toBe(401);
    const management = await t.call('/api/me', {
      headers: { Authorization: `Bearer ${await t.token({ subject: alice })}` },
    });
    expect(management.status, 'a management API token is for another audience').toBe(401);
    expect(management.json.data).toEqual({ reason: 'claim:aud' });
    const expired = await t.call('/api/me', {
      headers: { Authorization: `Bearer ${await meToken(alice, { expiresIn: Math.floor(Date.now() / 1000) - 60 })}` },
    });
    expect(expired.json).toMatchObject({ code: 'auth.unauthorized', data: { reason: 'expired' } });
    const otherIssuer = await t.call('/api/me', {
      headers: { Authorization: `Bearer ${await meToken(alice, { issuerTenantId: DEFAULT_TENANT_ID })}` },
    });
    expect(otherIssuer.json.data).toEqual({ reason: 'issuer' });
    const machine = await t.call('/api/me', {
      headers: { Authorization: `Bearer ${await t.token({ audience: ME_RESOURCE, clientId: 'some-m2m-app' })}` },
    });
    expect(machine.json.data, 'a client-credentials token has no user').toEqual({ reason: 'subject' });
    const ghost = await asUser('nobody123456', '');
    expect(ghost.status, 'a token of a deleted account opens nothing').toBe(401);
  });
});

describe('profile changes', () => {
  it('changes the name and audits before and after', async () => {
    const response = await asUser(alice, '', { method: 'PATCH', body: { name: 'Alice Liddell' } });
    expect(response.status).toBe(200);
    expect(response.json.name).toBe('Alice Liddell');
    const [entry] = await admin().findMany(logs, {
      where: and(eq(logs.key, 'Account.Profile.Updated'), eq(logs.userId, alice)),
    });
    expect(entry?.payload).toMatchObject({
      actor: { type: 'user', id: alice },
      before: { name: null },
      after: { name: 'Alice Liddell' },
    });
    const changes = (entry?.payload as { changes?: { field: string }[] } | undefined)?.changes ?? [];
    expect(changes.map((change) => change.field)).toEqual(['name', 'updatedAt']);
    expect((await asUser(alice, '', { method: 'PATCH', body: { name: null } })).json.name).toBeNull();
  });

  it('applies the username rule and keeps usernames unique', async () => {
    for (const username of ['', '1alice', 'al ice', 'a-b']) {
      const response = await asUser(alice, '', { method: 'PATCH', body: { username } });
      expect(response.status, JSON.stringify(username)).toBe(400);
      expect(response.json.code).toBe('guard.invalid_input');
    }
    const taken = await asUser(alice, '', { method: 'PATCH', body: { username: 'BOB' } });
    expect(taken.status).toBe(422);
    expect(taken.json.code).toBe('user.username_already_in_use');
    expect((await asUser(alice, '')).json.username, 'nothing changed').toBe('alice');
    expect((await asUser(alice, '', { method: 'PATCH', body: { username: '_alice_2' } })).json.username).toBe(
      '_alice_2',
    );
    await asUser(alice, '', { method: 'PATCH', body: { username: 'alice' } });
  });

  it('rejects unknown fields, empty patches and avatars that are not web URLs', async () => {
    expect((await asUser(alice, '', { method: 'PATCH', body: {} })).status).toBe(400);
    expect((await asUser(alice, '', { method: 'PATCH', body: { isSuspended: true } })).status).toBe(400);
    expect((await asUser(alice, '', { method: 'PATCH', body: { avatar: 'javascript:alert(1)' } })).status).toBe(400);
    const avatar = 'https://cdn.example.com/a.png';
    expect((await asUser(alice, '', { method: 'PATCH', body: { avatar } })).json.avatar).toBe(avatar);
  });
});

describe('custom data holds the console preferences', () => {
  it('replaces the whole object and reads it back', async () => {
    const data = { adminConsolePreferences: { language: 'ar', appearanceMode: 'dark' }, other: [1, 2] };
    const response = await asUser(alice, '/custom-data', { method: 'PATCH', body: data });
    expect(response.status).toBe(200);
    expect(response.json).toEqual(data);
    expect((await asUser(alice, '/custom-data')).json).toEqual(data);
    const replaced = await asUser(alice, '/custom-data', { method: 'PATCH', body: { only: true } });
    expect(replaced.json, 'PATCH replaces the whole object').toEqual({ only: true });
    expect((await asUser(bob, '/custom-data')).json, "bob's data is his own").toEqual({});
  });

  it('refuses anything but a JSON object of at most 64 KiB', async () => {
    for (const body of [[1, 2], 'text', 42, null]) {
      expect((await asUser(alice, '/custom-data', { method: 'PATCH', body })).status, JSON.stringify(body)).toBe(400);
    }
    const big = { blob: 'x'.repeat(70 * 1024) };
    expect((await asUser(alice, '/custom-data', { method: 'PATCH', body: big })).status).toBe(400);
    expect((await asUser(alice, '/custom-data', { method: 'PATCH', rawBody: '{"a":' })).json.code).toBe(
      'request.invalid_json',
    );
    expect((await asUser(alice, '/custom-data')).json).toEqual({ only: true });
  });
});

describe('password change', () => {
  it('needs proof of the current password, applies the policy, and the proof works once', async () => {
    const wrong = await asUser(alice, '/password/verify', { method: 'POST', body: { password: 'nope' } });
    expect(wrong.status).toBe(422);
    expect(wrong.json.code).toBe('session.invalid_credentials');

    const noProof = await asUser(alice, '/password', { method: 'POST', body: { password: 'new-Password-42' } });
    expect(noProof.status).toBe(422);
    expect(noProof.json.code).toBe('verification_record.invalid');

    const verified = await asUser(alice, '/password/verify', {
      method: 'POST',
      body: { password: 'correct-horse-battery' },
    });
    expect(verified.status).toBe(201);
    const { verificationRecordId } = verified.json as { verificationRecordId: string };
    expect(verified.json.expiresAt).toBeGreaterThan(Date.now());

    const forBob = await asUser(bob, '/password', {
      method: 'POST',
      body: { password: 'bob-new-Password-1', verificationRecordId },
    });
    expect(forBob.status, "bob has no password yet, so he may set one; alice's proof is irrelevant").toBe(204);

    const weak = await asUser(alice, '/password', {
      method: 'POST',
      body: { password: 'alice', verificationRecordId },
    });
    expect(weak.status).toBe(422);
    expect(weak.json).toMatchObject({ code: 'password.rejected' });
    expect(weak.json.data.rejections).toEqual(
      expect.arrayContaining(['password_rejected.too_short', 'password_rejected.restricted.user_info']),
    );

    const changed = await asUser(alice, '/password', {
      method: 'POST',
      body: { password: 'Tea-party-at-4', verificationRecordId },
    });
    expect(changed.status).toBe(204);
    const replay = await asUser(alice, '/password', {
      method: 'POST',
      body: { password: 'Another-one-77', verificationRecordId },
    });
    expect(replay.status, 'a proof made with the old password is stale').toBe(422);
    const newOne = await asUser(alice, '/password/verify', { method: 'POST', body: { password: 'Tea-party-at-4' } });
    expect(newOne.status).toBe(201);

    const [entry] = await admin().findMany(logs, {
      where: and(eq(logs.key, 'Account.Password.Updated'), eq(logs.userId, alice)),
    });
    expect(JSON.stringify(entry?.payload)).not.toContain('argon2');
  });

  it("refuses a forged or another user's verification record", async () => {
    const carol = await createConsoleUser('carol', 'carol-Password-1');
    const forBob = await asUser(bob, '/password/verify', { method: 'POST', body: { password: 'bob-new-Password-1' } });
    const stolen = await asUser(carol, '/password', {
      method: 'POST',
      body: { password: 'carol-New-Password-2', verificationRecordId: forBob.json.verificationRecordId },
    });
    expect(stolen.status).toBe(422);
    const forged = await asUser(carol, '/password', {
      method: 'POST',
      body: { password: 'carol-New-Password-2', verificationRecordId: 'eyJhbGciOiJub25lIn0.e30.' },
    });
    expect(forged.status).toBe(422);
  });

  it('locks password verification after repeated failures', async () => {
    const dave = await createConsoleUser('dave', 'dave-Password-1');
    for (let i = 0; i < 5; i++) {
      expect(
        (await asUser(dave, '/password/verify', { method: 'POST', body: { password: `wrong-${i}` } })).status,
      ).toBe(422);
    }
    const locked = await asUser(dave, '/password/verify', { method: 'POST', body: { password: 'dave-Password-1' } });
    expect(locked.status, 'even the right password waits out the lock').toBe(429);
    const attempts = await admin().count(logs, and(eq(logs.key, PASSWORD_VERIFY_LOG_KEY), eq(logs.userId, dave)));
    expect(attempts).toBe(6);
  });
});

describe('profile image uploads', () => {
  it('reports the upload limits', async () => {
    const status = await asUser(alice, '/user-assets/service-status');
    expect(status.json).toMatchObject({ status: 'ready', maxUploadFileSize: 500 * 1024 });
    expect(status.json.allowUploadMimeTypes).toContain('image/png');
  });

  it('stores an image under an unguessable name and serves it with safe headers', async () => {
    const response = await upload(alice, png());
    expect(response.status).toBe(201);
    const url = new URL(response.json.url ?? '');
    expect(url.origin).toBe(t.config.publicUrl);
    expect(url.pathname).toMatch(/^\/user-assets\/admin\/[\da-f]{24}\.png$/);
    const served = await t.app.request(url.pathname);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    expect(new Uint8Array(await served.arrayBuffer()).slice(0, 4)).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    expect((await t.app.request('/user-assets/admin/000000000000000000000000.png')).status).toBe(404);
    expect((await t.app.request('/user-assets/admin/..%2f..%2fsecret.png')).status).toBe(404);
  });

  it('trusts the bytes, not the declared type, and sandboxes SVG', async () => {
    const html = new Blob(['<html><script>alert(1)</script></html>'], { type: 'image/png' });
    const disguised = await upload(alice, html);
    expect(disguised.status).toBe(415);
    expect(disguised.json.code).toBe('user_assets.unsupported_type');
    const gif = await upload(alice, new Blob(['GIF89a\x01\x00\x01\x00'], { type: 'image/gif' }), 'a.gif');
    expect(gif.status, 'GIF is not a profile image type').toBe(415);
    const svg = await upload(
      alice,
      new Blob(['<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], {
        type: 'image/svg+xml',
      }),
      'a.svg',
    );
    expect(svg.status).toBe(201);
    const served = await t.app.request(new URL(svg.json.url ?? '').pathname);
    expect(served.headers.get('content-type')).toBe('image/svg+xml');
    expect(served.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
  });

  it('refuses a missing file and one over 500 KB', async () => {
    const missing = await upload(alice, null);
    expect(missing.status, JSON.stringify(missing.json)).toBe(400);
    expect(missing.json.code, JSON.stringify(missing.json)).toBe('user_assets.file_missing');
    const big = new Uint8Array(500 * 1024 + 1);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const tooLarge = await upload(alice, new Blob([big], { type: 'image/png' }));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.json.code).toBe('user_assets.file_too_large');
    const unauthenticated = await t.app.request('/api/me/user-assets', { method: 'POST', body: new FormData() });
    expect(unauthenticated.status).toBe(401);
  });
});
