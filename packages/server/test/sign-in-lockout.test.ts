import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logs } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { FailureThrottle } from '../src/services/failure-throttle.ts';
import { attemptSignIn, LOCKOUT, SIGN_IN_IP_LIMIT, SIGN_IN_LOG_KEY } from '../src/services/sign-in.ts';
import { completeSignIn } from '../src/services/sign-in-completion.ts';
import { createTestApp, type TestApp } from './support/app.ts';

/** The sign-in lockout (spec §5: five failures in fifteen minutes) against guesses in parallel and across identifiers. */
describe('sign-in lockout', () => {
  let t: TestApp;
  let tenant: TenantDb;
  beforeAll(async () => {
    t = await createTestApp();
    tenant = new TenantDb(t.db, DEFAULT_TENANT_ID);
  });
  afterAll(() => t.close());

  async function createUser(username: string, primaryEmail: string, password: string) {
    const created = await t.call('/api/users', { method: 'POST', body: { username, primaryEmail, password } });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    return String(created.json.id);
  }

  const entriesOf = (userId: string) =>
    tenant.findMany(logs, { where: and(eq(logs.key, SIGN_IN_LOG_KEY), eq(logs.userId, userId)) });

  it('checks at most five passwords of 30 guesses sent at once, and the right one among them is refused too', {
    timeout: 120_000,
  }, async () => {
    const userId = await createUser('parallel_target', 'parallel@example.com', 'Right-Password-42');
    const guesses = Array.from({ length: 29 }, (_, i) => `wrong-guess-${i}`);
    // The right password last: in a race without the lock, every guess would be checked and this one would win.
    const results = await Promise.all(
      [...guesses, 'Right-Password-42'].map((password) =>
        attemptSignIn(tenant, { identifier: 'parallel_target', password, ip: '203.0.113.7' }),
      ),
    );
    const checked = results.filter((result) => !result.ok && result.reason === 'invalid');
    const locked = results.filter((result) => !result.ok && result.reason === 'locked');
    expect(checked.length, 'passwords checked').toBeLessThanOrEqual(LOCKOUT.maxFailures);
    expect(checked.length + locked.length + results.filter((r) => r.ok).length).toBe(30);
    // Either the right password was among the first five checked, or it waits out the lock like every other guess.
    const signedIn = results.filter((result) => result.ok);
    expect(signedIn.length).toBeLessThanOrEqual(1);
    if (signedIn.length === 0) expect(locked.length).toBeGreaterThanOrEqual(30 - LOCKOUT.maxFailures);

    const entries = await entriesOf(userId);
    // A right password leaves no entry of its own: the sign-in's entry comes when its interaction completes.
    expect(entries, 'every failed attempt is audited once').toHaveLength(30 - signedIn.length);
    expect(
      entries.filter((entry) => entry.payload.error === 'invalid_credentials').length,
      'audited as checked and wrong',
    ).toBe(checked.length);
    expect(
      entries.filter((entry) => entry.payload.error === 'checking'),
      'no attempt left unfinished',
    ).toEqual([]);
    expect((await attemptSignIn(tenant, { identifier: 'parallel_target', password: 'Right-Password-42' })).ok).toBe(
      signedIn.length === 1,
    );
  });

  it('starts counting again after a completed sign-in', async () => {
    const userId = await createUser('reset_target', 'reset@example.com', 'Right-Password-42');
    const wrong = () => attemptSignIn(tenant, { identifier: 'reset_target', password: 'wrong-password' });
    for (let i = 0; i < LOCKOUT.maxFailures - 1; i++) expect((await wrong()).ok).toBe(false);
    const right = await attemptSignIn(tenant, { identifier: 'reset_target', password: 'Right-Password-42' });
    expect(right.ok).toBe(true);
    await completeSignIn(tenant, { userId, moment: 'sign_in', method: 'Password' }, undefined, {
      interactionId: 'test-interaction',
    });
    // Four more failures: eight in the window, four since the sign-in, under the limit of five.
    for (let i = 0; i < LOCKOUT.maxFailures - 1; i++) {
      const result = await wrong();
      expect(result.ok === false && result.reason, `failure ${i + 1} after the sign-in`).toBe('invalid');
    }
    expect((await attemptSignIn(tenant, { identifier: 'reset_target', password: 'Right-Password-42' })).ok).toBe(true);
  });

  it('counts per account: failures by username and by email share one allowance', async () => {
    await createUser('two_names', 'two.names@example.com', 'Right-Password-43');
    for (let i = 0; i < 3; i++) {
      const result = await attemptSignIn(tenant, { identifier: 'two_names', password: `wrong-${i}` });
      expect(result).toEqual({ ok: false, reason: 'invalid' });
    }
    for (let i = 0; i < 2; i++) {
      const result = await attemptSignIn(tenant, { identifier: 'TWO.NAMES@example.com', password: `wrong-${i}` });
      expect(result).toEqual({ ok: false, reason: 'invalid' });
    }
    const sixth = await attemptSignIn(tenant, { identifier: 'two.names@example.com', password: 'Right-Password-43' });
    expect(sixth, 'the fifth failure locks the account, whichever identifier was typed').toMatchObject({
      ok: false,
      reason: 'locked',
    });
    const byUsername = await attemptSignIn(tenant, { identifier: 'two_names', password: 'Right-Password-43' });
    expect(byUsername).toMatchObject({ ok: false, reason: 'locked' });
  });

  it('an identifier that names no user is limited on its own, and answers like a wrong password until then', async () => {
    for (let i = 0; i < LOCKOUT.maxFailures; i++) {
      expect(await attemptSignIn(tenant, { identifier: 'nobody_at_all', password: 'x' })).toEqual({
        ok: false,
        reason: 'invalid',
      });
    }
    expect(await attemptSignIn(tenant, { identifier: 'nobody_at_all', password: 'x' })).toMatchObject({
      reason: 'locked',
    });
  });

  it("follows the tenant's sentinel policy: its number of attempts and its lockout duration", async () => {
    const patched = await t.call('/api/sign-in-exp', {
      method: 'PATCH',
      body: { sentinelPolicy: { maxAttempts: 2, lockoutDuration: 45 } },
    });
    expect(patched.status, JSON.stringify(patched.json)).toBe(200);
    try {
      await createUser('sentinel_target', 'sentinel@example.com', 'Right-Password-44');
      for (let i = 0; i < 2; i++) {
        expect(await attemptSignIn(tenant, { identifier: 'sentinel_target', password: `wrong-${i}` })).toEqual({
          ok: false,
          reason: 'invalid',
        });
      }
      expect(await attemptSignIn(tenant, { identifier: 'sentinel_target', password: 'Right-Password-44' })).toEqual({
        ok: false,
        reason: 'locked',
        retryAfterMinutes: 45,
      });
    } finally {
      await t.call('/api/sign-in-exp', { method: 'PATCH', body: { sentinelPolicy: {} } });
    }
  });

  it('limits wrong passwords per IP address across accounts, and only that address', { timeout: 120_000 }, async () => {
    await createUser('ip_target', 'ip-target@example.com', 'Right-Password-42');
    const ipThrottle = new FailureThrottle(t.db, SIGN_IN_IP_LIMIT.windowMinutes * 60_000);
    const from = (ip: string, identifier: string, password: string) =>
      attemptSignIn(tenant, { identifier, password, ip, ipThrottle });
    // One guess per account (no account reaches its own lockout), all from one address.
    for (let batch = 0; batch < SIGN_IN_IP_LIMIT.maxFailures / 10; batch++) {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => from('198.51.100.9', `sprayed_${batch}_${i}`, 'Password-1')),
      );
      expect(results.every((result) => !result.ok && result.reason === 'invalid')).toBe(true);
    }
    const refused = await from('198.51.100.9', 'ip_target', 'Right-Password-42');
    expect(refused).toEqual({ ok: false, reason: 'locked', retryAfterMinutes: SIGN_IN_IP_LIMIT.windowMinutes });
    expect(await from('198.51.100.10', 'ip_target', 'Right-Password-42'), 'another address').toMatchObject({
      ok: true,
    });
  });
});
