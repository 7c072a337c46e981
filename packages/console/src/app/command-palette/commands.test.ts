import { describe, expect, it } from 'vitest';
import { matchCommands, type PaletteCommand } from './commands.ts';

const page = (label: string): PaletteCommand => ({ id: label, label, group: 'Pages', to: `/${label}` });
const pages = ['Applications', 'API resources', 'Audit logs', 'Sign-in experience', 'Rôles'].map(page);
const labels = (commands: PaletteCommand[]) => commands.map((command) => command.label);

describe('matchCommands', () => {
  it('returns everything for an empty query', () => {
    expect(labels(matchCommands(pages, '  '))).toEqual(labels(pages));
  });

  it('matches every word, ignoring case and accents, with prefix matches first', () => {
    expect(labels(matchCommands(pages, 'res'))).toEqual(['API resources']);
    expect(labels(matchCommands(pages, 'roles'))).toEqual(['Rôles']);
    expect(labels(matchCommands(pages, 'a'))).toEqual(['Applications', 'API resources', 'Audit logs']);
    expect(labels(matchCommands([page('Audit logs'), page('Logs')], 'lo'))).toEqual(['Logs', 'Audit logs']);
    expect(labels(matchCommands(pages, 'sign exp'))).toEqual(['Sign-in experience']);
    expect(matchCommands(pages, 'zzz')).toEqual([]);
  });
});

describe('matchCommands with keywords', () => {
  const withKeywords = (label: string, keywords: string): PaletteCommand => ({
    ...page(label),
    keywords: keywords.split(','),
  });
  const sidebar = [
    withKeywords('Multi-factor auth', 'mfa, 2fa, totp, authenticator, passkey'),
    withKeywords('Connectors', 'email, sms, smtp, social, google'),
    withKeywords('Audit logs', 'logs, events, history'),
    withKeywords('Webhooks', 'hooks, events'),
    withKeywords('Sign-in experience', 'branding, logo, password policy'),
  ];

  it('finds a page by the words people type for it, showing its label only', () => {
    expect(labels(matchCommands(sidebar, 'mfa'))).toEqual(['Multi-factor auth']);
    expect(labels(matchCommands(sidebar, 'SMTP'))).toEqual(['Connectors']);
    expect(labels(matchCommands(sidebar, 'events'))).toEqual(['Audit logs', 'Webhooks']);
    expect(labels(matchCommands(sidebar, 'password pol'))).toEqual(['Sign-in experience']);
    expect(matchCommands(sidebar, 'saml')).toEqual([]);
  });

  it('needs every word in the label or a keyword', () => {
    expect(labels(matchCommands(sidebar, 'multi totp'))).toEqual(['Multi-factor auth']);
    expect(matchCommands(sidebar, 'mfa smtp')).toEqual([]);
  });

  it('ranks label prefixes, then labels, then keywords', () => {
    // 'log' starts a label (Logs), is in another (Audit logs) and in the keyword 'logo' of both sign-in pages.
    const commands = [withKeywords('Sign-in', 'logo'), ...sidebar, page('Logs')];
    expect(labels(matchCommands(commands, 'log'))).toEqual(['Logs', 'Audit logs', 'Sign-in', 'Sign-in experience']);
    expect(labels(matchCommands(commands, 'hooks'))).toEqual(['Webhooks']);
  });
});

// Eager here only: the test reads every locale's keywords, the app loads one language's.
const commons = import.meta.glob<{ sidebar: { items: object }; palette: { keywords: Record<string, string> } }>(
  '../../i18n/locales/*/common.json',
  { eager: true, import: 'default' },
);

describe('the keywords of the locale files', () => {
  it('give every sidebar item keywords, listed with plain commas (the palette splits them on ",")', () => {
    for (const [path, strings] of Object.entries(commons)) {
      expect(Object.keys(strings.palette.keywords), path).toEqual(Object.keys(strings.sidebar.items));
      for (const keywords of Object.values(strings.palette.keywords)) expect(keywords, path).not.toMatch(/[،、，;]/);
    }
  });

  it("find the pages a new user looked for in vain ('mfa', 'smtp')", () => {
    const en = commons['../../i18n/locales/en/common.json'];
    if (!en) throw new Error('no en strings');
    const sidebar = Object.entries(en.sidebar.items).map(([key, label]) => ({
      id: key,
      label: String(label),
      keywords: en.palette.keywords[key]?.split(','),
      group: 'Pages',
      to: `/${key}`,
    }));
    expect(labels(matchCommands(sidebar, 'mfa'))).toEqual(['Multi-factor auth']);
    expect(labels(matchCommands(sidebar, 'smtp'))).toEqual(['Connectors']);
    expect(labels(matchCommands(sidebar, 'saml'))).toEqual(['Applications', 'Enterprise SSO']);
    expect(labels(matchCommands(sidebar, 'webhooks'))[0]).toBe('Webhooks');
  });
});
