import type { Application, SamlApplication } from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { traitsOf } from '../../application-types.ts';
import { ruleWording } from '../../form/rules.ts';
import { testMessages } from '../../form/test-messages.ts';
import { samlFormPath, samlFormSchema, toSamlForm, toSamlPatch } from './saml-form.ts';
import { settingsFormPath, settingsFormSchema, toApplicationPatch, toSettingsForm } from './settings-form.ts';

const wording = ruleWording(testMessages);

function application(overrides: Partial<Application> = {}): Application {
  return {
    tenantId: 'default',
    id: 'app1',
    name: 'Shop',
    description: null,
    type: 'SPA',
    oidcClientMetadata: { redirectUris: ['https://shop.example.com/cb'], postLogoutRedirectUris: [] },
    customClientMetadata: {},
    customData: {},
    isThirdParty: false,
    protectedAppMetadata: null,
    createdAt: 0,
    ...overrides,
  };
}

function problems(schema: z.ZodType, values: unknown) {
  const result = schema.safeParse(values, { reportInput: true });
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), wording(issue) ?? issue.message]));
}

describe('the settings form of an OIDC application', () => {
  it('fills the spec §9 defaults for what the application has not set', () => {
    expect(toSettingsForm(application())).toMatchObject({
      idTokenTtl: 3600,
      refreshTokenTtlInDays: 14,
      rotateRefreshToken: true,
      alwaysIssueRefreshToken: false,
      description: '',
      backchannelLogoutUri: '',
    });
    expect(
      toSettingsForm(application({ customClientMetadata: { refreshTokenTtl: 30 * 86_400 } })).refreshTokenTtlInDays,
    ).toBe(30);
  });

  it('refuses out-of-range lifetimes, bad origins and redirect URIs of the wrong kind, all at once', () => {
    const schema = settingsFormSchema(application(), testMessages);
    const values = {
      ...toSettingsForm(application()),
      name: '',
      idTokenTtl: null,
      refreshTokenTtlInDays: 91,
      redirectUris: ['myapp://cb'],
      postLogoutRedirectUris: ['https://shop.example.com/#bye'],
      corsAllowedOrigins: ['https://shop.example.com/path'],
      backchannelLogoutUri: 'ftp://shop.example.com',
    };
    expect(problems(schema, values)).toEqual({
      name: 'required:name',
      idTokenTtl: 'range:60-86400',
      refreshTokenTtlInDays: 'range:1-90',
      'redirectUris.0': 'redirect:web:web_scheme',
      'postLogoutRedirectUris.0': 'redirect:web:fragment',
      'corsAllowedOrigins.0': 'origin',
      backchannelLogoutUri: 'web_url',
    });
    expect(problems(schema, { ...toSettingsForm(application()), refreshTokenTtlInDays: 90 })).toEqual({});
  });

  it('saves only what the type has; the server merges the metadata', () => {
    const values = settingsFormSchema(application(), testMessages).parse({
      ...toSettingsForm(application()),
      description: ' Storefront ',
      redirectUris: ['https://shop.example.com/cb', ''],
      corsAllowedOrigins: [' https://shop.example.com '],
    });
    expect(toApplicationPatch(values, traitsOf('SPA'))).toEqual({
      name: 'Shop',
      description: 'Storefront',
      oidcClientMetadata: {
        redirectUris: ['https://shop.example.com/cb'],
        postLogoutRedirectUris: [],
        backchannelLogoutUri: null,
      },
      customClientMetadata: {
        corsAllowedOrigins: ['https://shop.example.com'],
        idTokenTtl: 3600,
        refreshTokenTtlInDays: 14,
        alwaysIssueRefreshToken: false,
        rotateRefreshToken: true,
      },
    });
    const machine = application({ type: 'MachineToMachine' });
    const machineValues = settingsFormSchema(machine, testMessages).parse(toSettingsForm(machine));
    expect(toApplicationPatch(machineValues, traitsOf('MachineToMachine'))).toEqual({
      name: 'Shop',
      description: null,
    });
  });

  it('places API field paths on the form', () => {
    expect(settingsFormPath('customClientMetadata.refreshTokenTtlInDays')).toBe('refreshTokenTtlInDays');
    expect(settingsFormPath('oidcClientMetadata.redirectUris.1')).toBe('redirectUris.1');
    expect(settingsFormPath('description')).toBe('description');
    expect(settingsFormPath('customData.x')).toBeUndefined();
  });
});

const pem = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUe2e\n-----END CERTIFICATE-----';

function saml(overrides: Partial<SamlApplication> = {}): SamlApplication {
  return {
    tenantId: 'default',
    id: 'saml1',
    name: 'Wiki',
    description: null,
    type: 'SAML',
    customData: {},
    protectedAppMetadata: null,
    createdAt: 0,
    entityId: null,
    acsUrl: null,
    attributeMapping: {},
    nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
    encryption: null,
    ...overrides,
  };
}

describe('the SAML settings form', () => {
  const schema = samlFormSchema(testMessages);

  it('requires a PEM certificate once assertions are encrypted (spec §5)', () => {
    const values = { ...toSamlForm(saml()), encryptAssertion: true };
    expect(problems(schema, values)).toEqual({ certificate: 'required:certificate' });
    expect(problems(schema, { ...values, certificate: 'not a certificate' })).toEqual({ certificate: 'certificate' });
    expect(problems(schema, { ...values, certificate: pem })).toEqual({});
    // Off, the certificate is not asked for.
    expect(problems(schema, { ...values, encryptAssertion: false })).toEqual({});
  });

  it('checks the ACS URL and the attribute rows', () => {
    const values = {
      ...toSamlForm(saml()),
      acsUrl: 'sp.example.com/acs',
      attributeMapping: [
        { claim: 'email', attribute: 'mail' },
        { claim: 'email', attribute: '' },
        { claim: '', attribute: 'x' },
      ],
    };
    expect(problems(schema, values)).toEqual({
      acsUrl: 'web_url',
      'attributeMapping.1.claim': 'duplicate',
      'attributeMapping.1.attribute': 'required:attributeName',
      'attributeMapping.2.claim': 'required:attributeClaim',
    });
  });

  it('round-trips the API shape, replacing each SAML field whole', () => {
    const stored = saml({
      entityId: 'https://sp.example.com/metadata',
      acsUrl: { binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', url: 'https://sp.example.com/acs' },
      attributeMapping: { email: 'mail' },
      encryption: { encryptAssertion: true, encryptThenSign: true, certificate: pem },
    });
    expect(toSamlPatch(toSamlForm(stored))).toEqual({
      name: 'Wiki',
      description: null,
      entityId: 'https://sp.example.com/metadata',
      acsUrl: { binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', url: 'https://sp.example.com/acs' },
      nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
      attributeMapping: { email: 'mail' },
      encryption: { encryptAssertion: true, encryptThenSign: true, certificate: pem },
    });
    expect(toSamlPatch({ ...toSamlForm(stored), entityId: ' ', acsUrl: '', encryptAssertion: false })).toMatchObject({
      entityId: null,
      acsUrl: null,
      encryption: null,
    });
    // Only HTTP-POST can deliver a response: a Redirect binding stored earlier is saved as HTTP-POST.
    const redirect = saml({
      acsUrl: { binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', url: 'https://sp.example.com/acs' },
    });
    expect(toSamlPatch(toSamlForm(redirect)).acsUrl).toEqual({
      binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
      url: 'https://sp.example.com/acs',
    });
    expect(samlFormPath('encryption.certificate')).toBe('certificate');
    expect(samlFormPath('acsUrl.url')).toBe('acsUrl');
  });
});
