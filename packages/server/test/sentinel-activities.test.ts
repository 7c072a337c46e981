import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logs, signInLockoutResets } from '../src/db/tables.ts';
import { verifySecondFactor } from '../src/services/mfa-sign-in.ts';
import { attemptSignIn, LOCKOUT, SIGN_IN_LOG_KEY } from '../src/services/sign-in.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { auditEntries, expectGuarded, expectInvalid, otherTenant, ownTenant } from './support/scenarios.ts';

/**
 * `POST /sentinel-activities/delete` (the reference's unlock): an identifier locked by the sign-in lockout signs in at
 * once afterwards, whatever identifier of the user is named; the audit log keeps the attempts; another tenant's
 * lockouts are untouched.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const PASSWORD = 'Right-Password-42';
const unlock = (body: unknown) => t.call('/api/sentinel-activities/delete', { method: 'POST', body });

async function newUser(username: string, primaryEmail: string, primaryPhone?: string): Promise<string> {
  const body = { username, primaryEmail, password: PASSWORD, ...(primaryPhone ? { primaryPhone } : {}) };
  const created = await t.call('/api/users', { method: 'POST', body });
  expect(created.status, JSON.stringify(created.json)).toBe(200);
  return String(created.json.id);
}

const signIn = (identifier: string, password = PASSWORD) => attemptSignIn(ownTenant(t), { identifier, password });

/** Wrong passwords until the lockout holds the account. */
async function lockOut(identifier: string): Promise<void> {
  for (let i = 0; i < LOCKOUT.maxFailures; i++) await signIn(identifier, 'wrong-password');
  const locked = await signIn(identifier);
  expect(locked.ok === false && locked.reason, `${identifier} is locked`).toBe('locked');
}

describe('unlocking users', () => {
  it('unlocks a user named by any identifier (204); the right password works at once; the audit log keeps the attempts', async () => {
    const userId = await newUser('locked_ada', 'ada@example.com', '15550100');
    await lockOut('locked_ada');
    const failures = () => ownTenant(t).count(logs, and(eq(logs.key, SIGN_IN_LOG_KEY), eq(logs.userId, userId)));
    const before = await failures();

    // The email address names the same user the username was locked under.
    const response = await unlock({ targetType: 'User', targets: ['ada@example.com'] });
    expect(response.status, JSON.stringify(response.json)).toBe(204);
    expect(response.text).toBe('');
    expect((await signIn('locked_ada')).ok).toBe(true);
    expect(await failures(), 'no attempt is deleted from the audit log').toBe(before);

    // The count starts again from the unlock: four more failures do not lock, the fifth does.
    for (let i = 0; i < LOCKOUT.maxFailures - 1; i++) await signIn('locked_ada', 'wrong-password');
    expect((await signIn('locked_ada')).ok).toBe(true);
    await signIn('locked_ada', 'wrong-password');
    const again = await signIn('locked_ada');
    expect(again.ok === false && again.reason).toBe('locked');

    // A phone number as typed, or the user id, names the user too.
    expect((await unlock({ targetType: 'User', targets: ['+1 555-0100'] })).status).toBe(204);
    expect((await signIn('locked_ada')).ok).toBe(true);
    await lockOut('ada@example.com');
    expect((await unlock({ targetType: 'User', targets: [userId] })).status).toBe(204);
    expect((await signIn('ADA@example.com')).ok).toBe(true);
  });

  it('unlocks an identifier that names no user, and leaves other users locked', async () => {
    await newUser('still_locked', 'still@example.com');
    await lockOut('still_locked');
    await lockOut('ghost@example.com');
    expect((await unlock({ targetType: 'User', targets: ['Ghost@Example.com', 'nobody-at-all'] })).status).toBe(204);
    const ghost = await signIn('ghost@example.com', 'anything');
    expect(ghost.ok === false && ghost.reason, 'counted afresh: a wrong password, not a lock').toBe('invalid');
    const other = await signIn('still_locked');
    expect(other.ok === false && other.reason, 'not named: still locked').toBe('locked');
  });

  it("unlocks the user's second-factor lockout too", async () => {
    const userId = await newUser('mfa_locked', 'mfa@example.com');
    const added = await t.call(`/api/users/${userId}/mfa-verifications`, { method: 'POST', body: { type: 'Totp' } });
    expect(added.status).toBe(201);
    for (let i = 0; i < LOCKOUT.maxFailures; i++) await verifySecondFactor(ownTenant(t), userId, 'totp', '000000', {});
    const locked = await verifySecondFactor(ownTenant(t), userId, 'totp', '000000', {});
    expect(locked.ok === false && locked.reason).toBe('locked');
    expect((await unlock({ targetType: 'User', targets: ['mfa_locked'] })).status).toBe(204);
    const after = await verifySecondFactor(ownTenant(t), userId, 'totp', '000000', {});
    expect(after.ok === false && after.reason, 'checked again: a wrong code, not a lock').toBe('invalid');
  });

  it('accepts App targets and an empty list (204), unlocking nothing', async () => {
    await newUser('app_target', 'app@example.com');
    await lockOut('app_target');
    expect((await unlock({ targetType: 'App', targets: ['app_target', 'some-client'] })).status).toBe(204);
    expect((await unlock({ targetType: 'User', targets: [] })).status).toBe(204);
    const still = await signIn('app_target');
    expect(still.ok === false && still.reason).toBe('locked');
  });
});

describe('input', () => {
  it('answers 400 {code, message} for a bad body', async () => {
    const cases: [string, unknown, string | undefined][] = [
      ['no targetType', { targets: ['a'] }, 'targetType'],
      ['unknown targetType', { targetType: 'Robot', targets: ['a'] }, 'targetType'],
      ['no targets', { targetType: 'User' }, 'targets'],
      ['targets not a list', { targetType: 'User', targets: 'a' }, 'targets'],
      ['empty target', { targetType: 'User', targets: [''] }, 'targets.0'],
      ['too many targets', { targetType: 'User', targets: Array.from({ length: 101 }, (_, i) => `t${i}`) }, 'targets'],
    ];
    for (const [label, body, field] of cases) {
      const response = await unlock(body);
      expectInvalid(response, field, label);
      expect(typeof response.json.message, label).toBe('string');
    }
    // As the reference: a field the API does not declare is dropped, not refused.
    expect((await unlock({ targetType: 'User', targets: [], extra: 1 })).status, 'an undeclared field').toBe(204);
  });
});

describe('audit', () => {
  it('records each unlock with its targets and the users they named', async () => {
    const userId = await newUser('audited_unlock', 'audited@example.com');
    await unlock({ targetType: 'User', targets: ['audited_unlock', 'audited_unlock', 'nobody'] });
    await unlock({ targetType: 'Robot', targets: [] });
    const entries = await auditEntries(t, 'User');
    const mine = entries.filter((entry) =>
      ((entry.payload.after as { targets?: string[] }).targets ?? []).includes('audited_unlock'),
    );
    expect(mine).toHaveLength(1);
    expect(mine[0]?.key).toBe('Admin.SentinelActivity.Deleted');
    expect(mine[0]?.payload).toMatchObject({
      entity: { type: 'SentinelActivity', id: 'User' },
      before: null,
      after: { targetType: 'User', targets: ['audited_unlock', 'nobody'], userIds: [userId] },
    });
  });
});

describe('access', () => {
  it("leaves another tenant's lockouts alone", async () => {
    const foreign = await otherTenant(t).insert(signInLockoutResets, {
      account: 'identifier:shared@example.com',
      resetAt: new Date(0),
    });
    expect((await unlock({ targetType: 'User', targets: ['shared@example.com'] })).status).toBe(204);
    const [theirs] = await otherTenant(t).findMany(signInLockoutResets, {
      where: eq(signInLockoutResets.account, foreign.account),
    });
    expect(theirs?.resetAt.getTime(), "the other tenant's unlock time is untouched").toBe(0);
    const [ours] = await ownTenant(t).findMany(signInLockoutResets, {
      where: eq(signInLockoutResets.account, foreign.account),
    });
    expect(ours?.resetAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('needs a token (401) with scope all (403)', async () => {
    await newUser('guarded_unlock', 'guarded@example.com');
    await lockOut('guarded_unlock');
    await expectGuarded(t, [
      {
        method: 'POST',
        path: '/api/sentinel-activities/delete',
        body: { targetType: 'User', targets: ['guarded_unlock'] },
      },
    ]);
    const still = await signIn('guarded_unlock');
    expect(still.ok === false && still.reason).toBe('locked');
  });
});
