import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/tables.ts';
import { mfaStepFor, rememberMfaSkipped } from '../src/services/mfa-sign-in.ts';
import { readSignInExperienceSettings } from '../src/services/sign-in-experience.ts';
import { passkeyOfferSkipped } from '../src/services/user-logto-configs.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import {
  auditEntries,
  expectGuarded,
  expectInvalid,
  otherTenant,
  ownTenant,
  queuedEvents,
} from './support/scenarios.ts';

/**
 * `/users/{userId}/logto-configs` (the reference's `logtoConfig` of a user): its answer shape with defaults, partial
 * updates, what each flag maps to (`mfa.skipped` is the "Skip for now" of the MFA prompt), audit and events, and the
 * tenant's own users only.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const path = (userId: string) => `/api/users/${userId}/logto-configs`;
const patch = (userId: string, body: unknown) => t.call(path(userId), { method: 'PATCH', body });
const defaults = { mfa: { skipped: false, skipMfaOnSignIn: false }, passkeySignIn: { skipped: false } };

async function newUser(username: string): Promise<string> {
  const response = await t.call('/api/users', { method: 'POST', body: { username } });
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  return String(response.json.id);
}

describe('GET', () => {
  it('answers the reference shape, every flag false and mfa.enabled absent for a new user', async () => {
    const userId = await newUser('config_new');
    const response = await t.call(path(userId));
    expect(response.status).toBe(200);
    expect(response.json).toEqual(defaults);
  });

  it('shows "Skip for now" chosen at a sign-in prompt as mfa.skipped', async () => {
    const userId = await newUser('config_skipped_at_sign_in');
    await rememberMfaSkipped(ownTenant(t), userId);
    expect((await t.call(path(userId))).json.mfa.skipped).toBe(true);
  });
});

describe('PATCH', () => {
  it("sets the reference's body {mfa: {skipped}} and answers the whole config (200)", async () => {
    const userId = await newUser('config_patch');
    const response = await patch(userId, { mfa: { skipped: true } });
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    expect(response.json).toEqual({ ...defaults, mfa: { skipped: true, skipMfaOnSignIn: false } });
    expect((await t.call(path(userId))).json).toEqual(response.json);
  });

  it('changes only the fields given, and keeps the others', async () => {
    const userId = await newUser('config_partial');
    await patch(userId, { mfa: { enabled: true, skipMfaOnSignIn: true }, passkeySignIn: { skipped: true } });
    const response = await patch(userId, { mfa: { skipped: true } });
    expect(response.json).toEqual({
      mfa: { enabled: true, skipped: true, skipMfaOnSignIn: true },
      passkeySignIn: { skipped: true },
    });
    const cleared = await patch(userId, { mfa: { enabled: false }, passkeySignIn: {} });
    expect(cleared.json).toEqual({
      mfa: { enabled: false, skipped: true, skipMfaOnSignIn: true },
      passkeySignIn: { skipped: true },
    });
    expect((await patch(userId, {})).json, 'an empty body changes nothing').toEqual(cleared.json);
  });

  it('maps mfa.skipped onto the MFA prompt: cleared, the prompting policy asks the user again', async () => {
    const userId = await newUser('config_prompt');
    expect(
      (
        await t.call('/api/sign-in-exp', {
          method: 'PATCH',
          body: { mfa: { policy: 'PromptAtSignInAndSignUp', factors: ['Totp'] } },
        })
      ).status,
    ).toBe(200);
    const step = async () =>
      (await mfaStepFor(ownTenant(t), userId, await readSignInExperienceSettings(ownTenant(t)), 'sign_in')).kind;
    expect(await step()).toBe('enroll');
    await patch(userId, { mfa: { skipped: true } });
    const [row] = await ownTenant(t).findMany(users, { where: eq(users.id, userId) });
    expect(row?.mfaSkippedAt).toBeInstanceOf(Date);
    expect(await step(), 'skipped: not asked').toBe('none');
    // Setting it again keeps the first moment.
    await patch(userId, { mfa: { skipped: true } });
    const [again] = await ownTenant(t).findMany(users, { where: eq(users.id, userId) });
    expect(again?.mfaSkippedAt?.getTime()).toBe(row?.mfaSkippedAt?.getTime());
    await patch(userId, { mfa: { skipped: false } });
    expect(await step(), 'cleared: asked again').toBe('enroll');
    await t.call('/api/sign-in-exp', { method: 'PATCH', body: { mfa: { policy: 'NoPrompt' } } });
  });

  it('keeps passkeySignIn.skipped for the sign-in pages (no passkey offered)', async () => {
    const userId = await newUser('config_passkey');
    expect(await passkeyOfferSkipped(ownTenant(t), userId)).toBe(false);
    await patch(userId, { passkeySignIn: { skipped: true } });
    expect(await passkeyOfferSkipped(ownTenant(t), userId)).toBe(true);
  });

  it('answers 400 {code, message} for a bad body', async () => {
    const userId = await newUser('config_bad');
    const cases: [string, unknown, string | undefined][] = [
      ['skipped not a boolean', { mfa: { skipped: 'yes' } }, 'mfa.skipped'],
      ['mfa not an object', { mfa: true }, 'mfa'],
      ['passkeySignIn.skipped not a boolean', { passkeySignIn: { skipped: 1 } }, 'passkeySignIn.skipped'],
    ];
    for (const [label, body, field] of cases) {
      const response = await patch(userId, body);
      expectInvalid(response, field, label);
      expect(typeof response.json.message, label).toBe('string');
    }
    expect((await t.call(path(userId))).json).toEqual(defaults);
  });
});

describe('audit and events', () => {
  it('audits a change as the user update with the config before and after, and sends User.Data.Updated', async () => {
    const userId = await newUser('config_audited');
    await patch(userId, { mfa: { skipped: true } });
    const [entry] = (await auditEntries(t, userId)).filter((row) => row.key === 'Admin.User.Updated');
    expect(entry?.payload).toMatchObject({
      before: { logtoConfig: { mfa: { skipped: false } } },
      after: { logtoConfig: { mfa: { skipped: true } } },
    });
    const events = (await queuedEvents(t, 'User.Data.Updated')).filter((event) => event.id === userId);
    expect(events.length).toBeGreaterThanOrEqual(1);
  });
});

describe('access', () => {
  it('answers 404 entity.not_found for an unknown user', async () => {
    for (const response of [await t.call(path('nobody')), await patch('nobody', { mfa: { skipped: true } })]) {
      expect(response.status).toBe(404);
      expect(response.json).toEqual({ code: 'entity.not_found', message: expect.any(String) });
    }
  });

  it("answers 404 for another tenant's user and changes nothing there", async () => {
    const foreign = await otherTenant(t).insert(users, { id: 'foreigncfg', username: 'foreign_cfg' });
    expect((await t.call(path(foreign.id))).status).toBe(404);
    expect((await patch(foreign.id, { mfa: { skipped: true } })).status).toBe(404);
    const [row] = await otherTenant(t).findMany(users, { where: eq(users.id, foreign.id) });
    expect(row?.mfaSkippedAt).toBeNull();
  });

  it('needs a token (401) with scope all (403)', async () => {
    const userId = await newUser('config_guarded');
    await expectGuarded(t, [
      { method: 'GET', path: path(userId) },
      { method: 'PATCH', path: path(userId), body: { mfa: { skipped: true } } },
    ]);
    expect((await t.call(path(userId))).json).toEqual(defaults);
  });
});

describe('GET /api/.well-known/management.openapi.json', () => {
  it("answers the same document as /api/swagger.json (the reference's OpenAPI 3.0 one), without a token", async () => {
    const wellKnown = await t.call('/api/.well-known/management.openapi.json', { auth: false });
    expect(wellKnown.status).toBe(200);
    const swagger = await t.call('/api/swagger.json', { auth: false });
    expect(wellKnown.json).toEqual(swagger.json);
    expect(wellKnown.json.openapi).toMatch(/^3\.0\./);
    for (const route of [
      '/api/users/{userId}/logto-configs',
      '/api/one-time-tokens',
      '/api/one-time-tokens/verify',
      '/api/one-time-tokens/{id}/status',
      '/api/sentinel-activities/delete',
    ]) {
      expect(Object.keys(wellKnown.json.paths), route).toContain(route);
    }
  });
});
