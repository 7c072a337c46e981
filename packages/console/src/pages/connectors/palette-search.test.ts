import type { Connector } from '@gatehouse/schemas';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import strings from '../../i18n/locales/en/connectors.json';
import { matchConnectors } from './palette-search.ts';
import { connectorsArea } from './routes.ts';

// The search is under test, not the session or the locale files: no token, and the strings are given below.
vi.mock('../../auth/session.ts', () => ({
  tokenFor: async () => undefined,
  SessionExpiredError: class extends Error {},
}));
vi.mock('../../i18n/index.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../i18n/index.ts')>()),
  loadNamespace: async () => undefined,
}));

const connector = (fields: Partial<Connector> & Pick<Connector, 'id' | 'connectorId' | 'type' | 'target'>) => ({
  config: {},
  metadata: {},
  syncProfile: false,
  enableTokenStorage: false,
  createdAt: Date.UTC(2026, 0, 2),
  platform: null,
  name: { en: fields.connectorId },
  logo: `/console/connectors/${fields.target}.svg`,
  logoDark: null,
  formItems: [],
  ...fields,
});

const connectors: Connector[] = [
  connector({ id: 'mail1', connectorId: 'smtp', type: 'Email', target: 'smtp', name: { en: 'SMTP' } }),
  connector({ id: 'sms1', connectorId: 'twilio-sms', type: 'Sms', target: 'twilio', name: { en: 'Twilio' } }),
  connector({
    id: 'google',
    connectorId: 'google-universal',
    type: 'Social',
    target: 'google',
    name: { en: 'Google', de: 'Google' },
    metadata: { name: { en: 'Company Google', fr: 'Google de la société' } },
  }),
  connector({ id: 'oidc', connectorId: 'oidc', type: 'Social', target: 'oidc', name: { en: 'OpenID Connect' } }),
];

const labels = (found: { label: string }[]) => found.map((item) => item.label);

describe('matchConnectors', () => {
  it('matches the display name, the factory name, the target and the factory id', () => {
    expect(labels(matchConnectors(connectors, 'smtp', 'en'))).toEqual(['SMTP']);
    expect(labels(matchConnectors(connectors, 'Company', 'en'))).toEqual(['Company Google']);
    expect(labels(matchConnectors(connectors, 'google', 'en'))).toEqual(['Company Google']);
    expect(labels(matchConnectors(connectors, 'universal', 'en'))).toEqual(['Company Google']);
    expect(labels(matchConnectors(connectors, 'openid conn', 'en'))).toEqual(['OpenID Connect']);
    expect(labels(matchConnectors(connectors, 'twilio', 'en'))).toEqual(['Twilio']);
    expect(matchConnectors(connectors, 'mailgun', 'en')).toEqual([]);
    expect(matchConnectors(connectors, '  ', 'en')).toEqual([]);
  });

  it('shows the name the list shows, in the interface language, and links to the detail page of its tab', () => {
    expect(matchConnectors(connectors, 'société', 'fr')).toEqual([
      { id: 'google', label: 'Google de la société', to: 'connectors/social/google/connection' },
    ]);
    expect(matchConnectors(connectors, 'smtp', 'de')).toEqual([
      { id: 'mail1', label: 'SMTP', to: 'connectors/passwordless/mail1/connection' },
    ]);
  });
});

describe('the connectors area in the command palette', () => {
  beforeAll(async () => {
    i18n.addResourceBundle('en', 'connectors', strings);
    await i18n.changeLanguage('en');
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("lists the tenant's connectors and finds them by provider, as 'Connector'", async () => {
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => Response.json(connectors));
    vi.stubGlobal('fetch', fetchMock);
    const search = connectorsArea.searchEntities;
    if (!search) throw new Error('the connectors area has no palette search');
    const found = await search('smtp', new AbortController().signal, { tenantId: 't-1' });
    expect(found).toEqual([
      { id: 'mail1', label: 'SMTP', kind: 'Connector', to: 'connectors/passwordless/mail1/connection' },
    ]);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/m/t-1/api/connectors');
  });

  it('fails when the list cannot be read, so the palette leaves the area out', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ code: 'oops', message: 'down' }, { status: 500 })),
    );
    const search = connectorsArea.searchEntities;
    await expect(search?.('smtp', new AbortController().signal, { tenantId: undefined })).rejects.toThrow('down');
  });
});
