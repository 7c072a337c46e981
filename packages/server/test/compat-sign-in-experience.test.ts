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
      'passkeySignIn',
      'customUiAssets',
      'usernamePolicy',
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
    for (const body of [{ signInMode: 'Everything' }, { termsOfUseUrl: 'not a url' }]) {
      const response = await patch(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json.code).toBe('guard.invalid_input');
    }
    expect((await t.call('/api/sign-in-exp')).json).toEqual(before);
  });

  it('drops what it does not have, as the reference drops undeclared keys: id', async () => {
    // A reference client PATCHing back a whole GET answer of the reference (issue 43): 200, the rest applied.
    const before = (await t.call('/api/sign-in-exp')).json;
    const response = await patch({ id: 'other', hideLogtoBranding: !before.hideLogtoBranding });
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({ ...before, hideLogtoBranding: !before.hideLogtoBranding });
  });

  it('stores and answers customUiAssets and usernamePolicy, the reference’s shapes (issue 43)', async () => {
    const initial = (await t.call('/api/sign-in-exp')).json;
    expect(initial.customUiAssets, 'none by default, as the reference').toBeNull();
    expect(initial.usernamePolicy, 'the reference’s default, case-insensitive as Gatehouse is').toEqual({
      caseSensitive: false,
      minLength: 1,
      maxLength: 128,
      allowedChars: { lowercase: true, uppercase: true, numbers: true, underscore: true },
    });
    // The reference's UsernamePolicyModal sends the whole policy; its default is case-sensitive.
    const policy = {
      caseSensitive: true,
      minLength: 3,
      maxLength: 24,
      allowedChars: { lowercase: true, uppercase: false, numbers: true, underscore: true },
    };
    const response = await patch({ usernamePolicy: policy, customUiAssets: { id: 'asset-1', createdAt: 1 } });
    expect(response.status, response.text).toBe(200);
    expect(response.json.usernamePolicy, 'usernames stay unique whatever their case (README 3)').toEqual({
      ...policy,
      caseSensitive: false,
    });
    expect(response.json.customUiAssets).toEqual({ id: 'asset-1', createdAt: 1 });
    const read = (await t.call('/api/sign-in-exp')).json;
    expect(read.usernamePolicy).toEqual(response.json.usernamePolicy);
    expect(read.customUiAssets).toEqual({ id: 'asset-1', createdAt: 1 });

    // The reference's guard: bounds 1..128, min ≤ max, a class a username can start with.
    for (const usernamePolicy of [
      { ...policy, minLength: 10, maxLength: 3 },
      { ...policy, minLength: 0 },
      { ...policy, maxLength: 129 },
      { ...policy, allowedChars: { lowercase: false, uppercase: false, numbers: true, underscore: false } },
      { caseSensitive: false },
    ]) {
      const refused = await patch({ usernamePolicy });
      expect(refused.status, JSON.stringify(usernamePolicy)).toBe(400);
      expect(refused.json.code).toBe('guard.invalid_input');
    }
    const cleared = await patch({ customUiAssets: null });
    expect(cleared.json.customUiAssets).toBeNull();
    expect((await t.call('/api/sign-in-exp')).json.usernamePolicy, 'unchanged by the refusals').toEqual(
      response.json.usernamePolicy,
    );
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

describe('PATCH /sign-in-exp forgotPasswordMethods', () => {
  it('refuses a method without a sender with 400 forgot_password_method_requires_connector', async () => {
    for (const [method, missing] of [
      ['EmailVerificationCode', 'email'],
      ['PhoneVerificationCode', 'sms'],
    ] as const) {
      const response = await patch({ forgotPasswordMethods: [method] });
      expect(response.status, method).toBe(400);
      expect(response.json.code, method).toBe('sign_in_experiences.forgot_password_method_requires_connector');
      expect(response.json.data, method).toEqual({ method: missing });
    }
    expect((await t.call('/api/sign-in-exp')).json.forgotPasswordMethods, 'nothing saved').toBeNull();

    // With an email connector, the email method is saved; the phone one still needs an SMS connector.
    const connector = await t.call('/api/connectors', {
      method: 'POST',
      body: {
        connectorId: 'smtp',
        config: { host: 'smtp.example.com', port: 587, username: 'u', password: 'p', fromEmail: 'a@example.com' },
      },
    });
    expect(connector.status, connector.text).toBe(200);
    const saved = await patch({ forgotPasswordMethods: ['EmailVerificationCode'] });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json.forgotPasswordMethods).toEqual(['EmailVerificationCode']);
    const phone = await patch({ forgotPasswordMethods: ['EmailVerificationCode', 'PhoneVerificationCode'] });
    expect(phone.json.code).toBe('sign_in_experiences.forgot_password_method_requires_connector');
    expect((await patch({ forgotPasswordMethods: null })).status).toBe(200);
    expect((await t.call(`/api/connectors/${connector.json.id}`, { method: 'DELETE' })).status).toBe(204);
  });
});

describe('GET /sign-in-exp/username-policy/case-sensitivity-conflicts', () => {
  const path = '/api/sign-in-exp/username-policy/case-sensitivity-conflicts';

  it('answers no conflicts in the reference’s shape: usernames are unique whatever their case (README 3)', async () => {
    for (const name of ['CaseAlice', 'casebob']) {
      expect((await t.call('/api/users', { method: 'POST', body: { username: name } })).status).toBe(200);
    }
    // The look-alike the reference would report is refused at creation.
    expect((await t.call('/api/users', { method: 'POST', body: { username: 'casealice' } })).status).toBe(422);
    for (const query of ['', '?limit=20', '?limit=1', '?limit=100']) {
      const response = await t.call(`${path}${query}`);
      expect(response.status, query).toBe(200);
      expect(response.json, query).toEqual({ totalConflicts: 0, samples: [] });
    }
  });

  it('checks limit as the reference does (1–100) and needs a token', async () => {
    for (const query of ['?limit=0', '?limit=101', '?limit=x', '?limit=1.5']) {
      expect((await t.call(`${path}${query}`)).status, query).toBe(400);
    }
    expect((await t.call(path, { auth: false })).status).toBe(401);
  });

  it('is in the OpenAPI document', async () => {
    const document = (await t.call('/api/openapi.json', { auth: false })).json;
    expect(document.paths).toHaveProperty(['/api/sign-in-exp/username-policy/case-sensitivity-conflicts', 'get']);
  });
});

describe('POST /sign-in-exp/default/check-password', () => {
  it('answers {result: true} or {result: false, issues: [{code, interpolation?}]}', async () => {
    const user = await t.call('/api/users', { method: 'POST', body: { username: 'compat_sie_checker' } });
    const userId = user.json.id;
    const good = await t.call('/api/sign-in-exp/default/check-password', {
      method: 'POST',
      body: { password: 'Correct-Horse-Battery-9', userId },
    });
    expect(good.status).toBe(200);
    expect(good.json).toEqual({ result: true });
    const bad = await t.call('/api/sign-in-exp/default/check-password', {
      method: 'POST',
      body: { password: '1', userId },
    });
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

  it('answers 400 request.invalid_input without userId while the policy rejects user info, as the reference (issue 43)', async () => {
    // The reference's checker throws when the user-info rule is on and no user is given; its route answers that 400.
    const check = () =>
      t.call('/api/sign-in-exp/default/check-password', { method: 'POST', body: { password: 'johnny13' } });
    await patch({ passwordPolicy: { rejects: { userInfo: true } } });
    const refused = await check();
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({
      code: 'request.invalid_input',
      data: { message: 'User information data is required to check user information.' },
    });
    // With the rule off, a password is checked without a user.
    await patch({ passwordPolicy: { rejects: { userInfo: false } } });
    const checked = await check();
    expect(checked.status).toBe(200);
    expect(typeof checked.json.result).toBe('boolean');
    await patch({ passwordPolicy: { rejects: { userInfo: true } } });
    // An unknown userId is the reference's user-finder miss.
    const unknown = await t.call('/api/sign-in-exp/default/check-password', {
      method: 'POST',
      body: { password: 'johnny13', userId: 'unknownuser1' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json.code).toBe('entity.not_found');
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
    const replaced = await t.call('/api/custom-phrases/fr', { method: 'PUT', body: { username: 'Nom' } });
    expect(replaced.status, 'the reference answers 201 when it replaces too (issue 43)').toBe(201);
    expect(replaced.json).toMatchObject({ languageTag: 'fr', translation: { username: 'Nom' } });
    const unknownKey = await t.call('/api/custom-phrases/fr', { method: 'PUT', body: { no_such_phrase: 'x' } });
    expect(unknownKey.status, 'a key the pages do not have: 422, the reference’s status').toBe(422);
    expect(unknownKey.json.code).toBe('localization.invalid_translation_structure');
    for (const malformed of [{ username: 42 }, { username: ['x'] }, { username: null }]) {
      const refused = await t.call('/api/custom-phrases/fr', { method: 'PUT', body: malformed });
      expect(refused.status, `${JSON.stringify(malformed)}: the reference's guard`).toBe(400);
      expect(refused.json.code).toBe('guard.invalid_input');
    }
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

  it('takes any BCP 47 language tag, not only the 16 built-in languages (zh, en-US, vi-VN)', async () => {
    for (const languageTag of ['zh', 'en-US', 'vi-VN']) {
      const put = await t.call(`/api/custom-phrases/${languageTag}`, { method: 'PUT', body: { submit: languageTag } });
      expect(put.status, `${languageTag}: ${put.text}`).toBe(201);
      expect(put.json).toMatchObject({ languageTag, translation: { submit: languageTag } });
      expect((await t.call(`/api/custom-phrases/${languageTag}`)).json.translation).toEqual({ submit: languageTag });
    }
    const tags = (await t.call('/api/custom-phrases')).json.map(
      (phrase: { languageTag: string }) => phrase.languageTag,
    );
    expect(tags).toEqual(expect.arrayContaining(['zh', 'en-US', 'vi-VN']));
    // Stored in canonical form: another case names the same phrases.
    expect((await t.call('/api/custom-phrases/VI-vn')).json.languageTag).toBe('vi-VN');
    const malformed = await t.call('/api/custom-phrases/en_US', { method: 'PUT', body: { submit: 'x' } });
    expect(malformed.status).toBe(400);
    expect(malformed.json.code).toBe('guard.invalid_input');

    // The sign-in pages' phrases: a tag no built-in language serves shows over English, as the reference's do
    // (issue 43), whatever the tenant's fallback language.
    const { languageInfo } = (await t.call('/api/sign-in-exp')).json;
    expect(
      (
        await t.call('/api/sign-in-exp', {
          method: 'PATCH',
          body: { languageInfo: { autoDetect: true, fallbackLanguage: 'de' } },
        })
      ).status,
    ).toBe(200);
    const vietnamese = await t.app.request('/api/.well-known/phrases?lng=vi-VN');
    expect(vietnamese.headers.get('Content-Language')).toBe('vi-VN');
    const phrases = (await vietnamese.json()) as Record<string, string>;
    expect(phrases.submit).toBe('vi-VN');
    expect(phrases.password, 'English’s own strings, not the fallback language’s').toBe('Password');
    await t.call('/api/sign-in-exp', {
      method: 'PATCH',
      body: { languageInfo },
    });
    // `en-US` is served by `en`; `zh` by `zh-CN`.
    expect(
      ((await (await t.app.request('/api/.well-known/phrases?lng=en-us')).json()) as { submit: string }).submit,
    ).toBe('en-US');
    const chinese = await t.app.request('/api/.well-known/phrases?lng=zh');
    expect(chinese.headers.get('Content-Language')).toBe('zh');
    expect(((await chinese.json()) as { submit: string }).submit).toBe('zh');
    for (const languageTag of ['zh', 'en-US', 'vi-VN']) {
      expect((await t.call(`/api/custom-phrases/${languageTag}`, { method: 'DELETE' })).status).toBe(204);
    }
  });
});
