import { canBeThirdParty, checkRedirectUri } from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';
import { applicationTypeOrder, traitsOf } from '../application-types.ts';
import { ruleWording } from '../form/rules.ts';
import { testMessages } from '../form/test-messages.ts';
import {
  applicationQuotaKey,
  createFormPath,
  createFormSchema,
  emptyCreateForm,
  toNewApplication,
} from './create-form.ts';

const schema = createFormSchema(testMessages);
const wording = ruleWording(testMessages);

/** Field path → message of every problem, as the form shows them. */
function problems(values: Record<string, unknown>) {
  const result = schema.safeParse({ ...emptyCreateForm, ...values }, { reportInput: true });
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), wording(issue) ?? issue.message]));
}

describe('the create form', () => {
  it('offers every application type once', () => {
    expect([...applicationTypeOrder].sort()).toEqual(
      ['MachineToMachine', 'Native', 'Protected', 'SAML', 'SPA', 'Traditional'].sort(),
    );
  });

  it('requires a type and a name of 1 to 256 characters (spec §5)', () => {
    expect(problems({ name: 'ok' })).toEqual({ type: 'required:type' });
    expect(problems({ type: 'SPA', name: '' })).toEqual({ name: 'required:name' });
    expect(problems({ type: 'SPA', name: '   ' })).toEqual({ name: 'required:name' });
    expect(problems({ type: 'SPA', name: 'x'.repeat(257) })).toEqual({ name: 'too_long:name:256' });
    expect(problems({ type: 'SPA', name: 'x'.repeat(256) })).toEqual({});
  });

  it('checks each redirect URI with the rule of the chosen type, even when the name is missing too', () => {
    expect(problems({ type: 'Native', name: '', redirectUris: ['https://app.example.com/cb'] })).toEqual({
      name: 'required:name',
      'redirectUris.0': 'redirect:native:native_scheme',
    });
    expect(problems({ type: 'SPA', name: 'a', redirectUris: ['', 'com.example.app://cb'] })).toEqual({
      'redirectUris.1': 'redirect:web:web_scheme',
    });
    expect(
      problems({ type: 'SPA', name: 'a', redirectUris: ['https://a.example.com/cb', 'https://a.example.com/cb'] }),
    ).toEqual({
      'redirectUris.1': 'duplicate',
    });
    expect(problems({ type: 'Native', name: 'a', redirectUris: ['com.example.app://callback'] })).toEqual({});
    // Machine apps have no redirect URIs: whatever the hidden field holds is not checked, and not sent.
    expect(problems({ type: 'MachineToMachine', name: 'a', redirectUris: ['nonsense'] })).toEqual({});
  });

  it('sends only the fields the type has', () => {
    const parse = (values: Record<string, unknown>) => schema.parse({ ...emptyCreateForm, ...values });
    expect(
      toNewApplication(
        parse({
          type: 'SPA',
          name: ' Shop ',
          description: '',
          redirectUris: [' https://shop.example.com/cb ', ''],
          isThirdParty: true,
        }),
      ),
    ).toEqual({
      type: 'SPA',
      body: {
        name: 'Shop',
        type: 'SPA',
        description: null,
        oidcClientMetadata: { redirectUris: ['https://shop.example.com/cb'] },
        isThirdParty: true,
      },
    });
    expect(
      toNewApplication(parse({ type: 'MachineToMachine', name: 'Cron', redirectUris: ['x'], isThirdParty: true })),
    ).toEqual({
      type: 'MachineToMachine',
      body: { name: 'Cron', type: 'MachineToMachine', description: null },
    });
    expect(toNewApplication(parse({ type: 'SAML', name: 'Wiki', description: 'Team wiki' }))).toEqual({
      type: 'SAML',
      body: { name: 'Wiki', description: 'Team wiki' },
    });
  });

  it('places the API fields of a refused create on the form', () => {
    expect(createFormPath('oidcClientMetadata.redirectUris.2')).toBe('redirectUris.2');
    expect(createFormPath('name')).toBe('name');
    expect(createFormPath('customData')).toBeUndefined();
  });
});

describe('the shared redirect-URI rule (spec §5)', () => {
  it('wants http(s) for web apps and a custom scheme for native apps', () => {
    expect(checkRedirectUri('https://app.example.com/cb', 'web')).toBeUndefined();
    expect(checkRedirectUri('http://localhost:3000/cb', 'web')).toBeUndefined();
    expect(checkRedirectUri('com.example.app://cb', 'web')?.code).toBe('web_scheme');
    expect(checkRedirectUri('com.example.app:/cb', 'native')).toBeUndefined();
    expect(checkRedirectUri('https://app.example.com/cb', 'native')?.code).toBe('native_scheme');
    expect(checkRedirectUri('javascript:alert(1)', 'native')?.code).toBe('forbidden_scheme');
    expect(checkRedirectUri('/callback', 'web')?.code).toBe('not_absolute');
    expect(checkRedirectUri('https://app.example.com/cb#x', 'web')?.code).toBe('fragment');
  });

  it('lets only web apps be third-party', () => {
    expect(applicationTypeOrder.filter(canBeThirdParty)).toEqual(['SPA', 'Traditional']);
    expect(applicationTypeOrder.filter((type) => traitsOf(type).thirdParty)).toEqual(['SPA', 'Traditional']);
  });
});

describe('applicationQuotaKey (the plan gate of the create page, issue 26)', () => {
  it('counts third-party first, then by type, as the server does', () => {
    expect(applicationQuotaKey('SPA', true)).toBe('thirdPartyApplicationsLimit');
    expect(applicationQuotaKey('MachineToMachine', false)).toBe('machineToMachineLimit');
    expect(applicationQuotaKey('SAML', false)).toBe('samlApplicationsLimit');
    expect(applicationQuotaKey('Traditional', false)).toBe('applicationsLimit');
    expect(applicationQuotaKey('Native', false)).toBe('applicationsLimit');
  });
});
