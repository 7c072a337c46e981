import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';

/**
 * Issue 24: the sign-in experience and custom phrases as a client written for the reference management API sends
 * and reads them (section 11 of the reference).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const patch = (body: unknown, query = '') => t.call(`/api/sign-in-exp${query}`, { method: 'PATCH', body });

describe('GET /sign-in-exp', () => {
  it('answers the SignInExperience with the reference’s field names and nested shapes', async () => {
    const response = await t.call('/api/sign-in-exp');
    expect(response.status).toBe(200);
    const sie = response.json;
    expect(sie.id).toBe('default');
    for (const field of [
      'color',
      'branding',
      'hideLogtoBranding',
      'languageInfo',
      'termsOfUseUrl',
      'privacyPolicyUrl',
      'agreeToTermsPolicy',
      'signIn',
      'signUp',
      'socialSignIn',
      'socialSignInConnectorTargets',
      'signInMode',
      'customCss',
      'customContent',
      'passwordPolicy',
      'mfa',
      'singleSignOnEnabled',
      'captchaPolicy',
      'sentinelPolicy',
      'emailBlocklistPolicy',
      'forgotPasswordMethods',
    ]) {
      expect(sie, field).toHaveProperty(field);
    }
    expect(Object.keys(sie.color).sort()).toEqual(['darkPrimaryColor', 'isDarkModeEnabled', 'primaryColor']);
    expect(sie.languageInfo).toEqual({ autoDetect: expect.any(Boolean), fallbackLanguage: expect.any(String) });
    expect(Array.isArray(sie.signIn.methods)).toBe(true);
    for (const method of sie.signIn.methods) {
      expect(method).toEqual({
        identifier: expect.any(String),
        password: expect.any(Boolean),
        verificationCode: expect.any(Boolean),
        isPasswordPrimary: expect.any(Boolean),
      });
    }
    expect(sie.signUp).toMatchObject({
      identifiers: expect.any(Array),
      password: expect.any(Boolean),
      verify: expect.any(Boolean),
    });
    expect(['SignInAndRegister', 'SignIn', 'Register']).toContain(sie.signInMode);
    expect(sie.mfa).toMatchObject({ factors: expect.any(Array), policy: expect.any(String) });
  });
});

describe('PATCH /sign-in-exp', () => {
  it('takes any subset, answers the whole SignInExperience and leaves the rest alone', async () => {
    const before = (await t.call('/api/sign-in-exp')).json;
    const response = await patch({
      color: { primaryColor: '#112233', isDarkModeEnabled: true, darkPrimaryColor: '#445566' },
      termsOfUseUrl: 'https://example.com/terms',
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      ...before,
      color: { primaryColor: '#112233', isDarkModeEnabled: true, darkPrimaryColor: '#445566' },
      termsOfUseUrl: 'https://example.com/terms',
    });
    expect((await t.call('/api/sign-in-exp')).json).toEqual(response.json);
  });

  it('accepts the query removeUnusedDemoSocialConnector the reference’s console sends', async () => {
    const response = await patch({ hideLogtoBranding: true }, '?removeUnusedDemoSocialConnector=1');
    expect(response.status).toBe(200);
    expect(response.json.hideLogtoBranding).toBe(true);
  });

  it("clears URLs and the support email with '' or null", async () => {
    const set = await patch({
      termsOfUseUrl: 'https://example.com/terms',
      privacyPolicyUrl: 'https://example.com/privacy',
      supportEmail: 'help@example.com',
      supportWebsiteUrl: 'https://example.com/help',
    });
    expect(set.status).toBe(200);
    const cleared = await patch({ termsOfUseUrl: '', privacyPolicyUrl: null, supportEmail: '', supportWebsiteUrl: '' });
    expect(cleared.status).toBe(200);
    expect(cleared.json).toMatchObject({
      termsOfUseUrl: null,
      privacyPolicyUrl: null,
      supportEmail: null,
      supportWebsiteUrl: null,
    });
  });

  it('refuses an invalid value with 400 guard.invalid_input and changes nothing', async () => {
    const before = (await t.call('/api/sign-in-exp')).json;
    for (const body of [{ signInMode: 'Everything' }, { termsOfUseUrl: 'not a url' }, { id: 'other' }]) {
      const response = await patch(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json.code).toBe('guard.invalid_input');
    }
    expect((await t.call('/api/sign-in-exp')).json).toEqual(before);
  });

  it('refuses inconsistent sign-in and sign-up settings with 400 sign_in_experiences.*', async () => {
    const cases = [
      [
        'a sign-up identifier missing from sign-in',
        {
          signUp: { identifiers: ['username'], password: true, verify: false },
          signIn: {
            methods: [{ identifier: 'email', password: true, verificationCode: false, isPasswordPrimary: true }],
          },
        },
        'sign_in_experiences.miss_sign_up_identifier_in_sign_in',
      ],
      [
        'a username sign-up without a password',
        { signUp: { identifiers: ['username'], password: false, verify: false } },
        'sign_in_experiences.username_requires_password',
      ],
      [
        'a sign-in method listed twice',
        {
          signIn: {
            methods: [
              { identifier: 'username', password: true, verificationCode: false, isPasswordPrimary: true },
              { identifier: 'username', password: true, verificationCode: false, isPasswordPrimary: true },
            ],
          },
        },
        'sign_in_experiences.duplicated_sign_in_method',
      ],
    ] as const;
    for (const [label, body, code] of cases) {
      const response = await patch(body);
      expect(response.status, label).toBe(400);
      expect(response.json.code, label).toBe(code);
    }
  });
});

describe('POST /sign-in-exp/default/check-password', () => {
  it('answers {result: true} or {result: false, issues: [{code, interpolation?}]}', async () => {
    const good = await t.call('/api/sign-in-exp/default/check-password', {
      method: 'POST',
      body: { password: 'Correct-Horse-Battery-9' },
    });
    expect(good.status).toBe(200);
    expect(good.json).toEqual({ result: true });
    const bad = await t.call('/api/sign-in-exp/default/check-password', { method: 'POST', body: { password: '1' } });
    expect(bad.status).toBe(200);
    expect(bad.json.result).toBe(false);
    expect(bad.json.issues.length).toBeGreaterThan(0);
    for (const issue of bad.json.issues) {
      expect(issue.code).toMatch(/^password_rejected\./);
      expect(Object.keys(issue).every((key) => key === 'code' || key === 'interpolation')).toBe(true);
    }
    expect(bad.json.issues.map((issue: { code: string }) => issue.code)).toContain('password_rejected.too_short');
  });

  it('takes the optional userId and checks the password against that user’s details', async () => {
    const user = await t.call('/api/users', { method: 'POST', body: { username: 'compat_sie_user' } });
    expect(user.status).toBe(200);
    const response = await t.call('/api/sign-in-exp/default/check-password', {
      method: 'POST',
      body: { password: 'Unrelated-Words-4-Ever', userId: user.json.id },
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ result: true });
  });
});

describe('/custom-phrases', () => {
  // The keys are those of Gatehouse's own sign-in pages (i18n/sign-in/en.json), not the reference's.
  it('PUT /custom-phrases/{languageTag} creates with 201; GET lists and reads it; DELETE of the fallback is 409', async () => {
    const put = await t.call('/api/custom-phrases/fr', {
      method: 'PUT',
      body: { username: 'Identifiant' },
    });
    expect(put.status, put.text).toBe(201);
    expect(put.json).toMatchObject({ languageTag: 'fr', translation: { username: 'Identifiant' } });
    const one = await t.call('/api/custom-phrases/fr');
    expect(one.status).toBe(200);
    expect(one.json.translation).toEqual({ username: 'Identifiant' });
    const all = await t.call('/api/custom-phrases');
    expect(all.json.map((phrase: { languageTag: string }) => phrase.languageTag)).toContain('fr');

    const fallback = (await t.call('/api/sign-in-exp')).json.languageInfo.fallbackLanguage;
    await t.call(`/api/custom-phrases/${fallback}`, { method: 'PUT', body: { username: 'User' } });
    const refused = await t.call(`/api/custom-phrases/${fallback}`, { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe('localization.cannot_delete_default_language');
    expect((await t.call('/api/custom-phrases/fr', { method: 'DELETE' })).status).toBe(204);
    expect((await t.call('/api/custom-phrases/fr')).status).toBe(404);
  });
});
