import { consolePreferencesKey } from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';
import { preferencesToApply, readConsolePreferences, withConsolePreferences } from './preferences.ts';

describe('readConsolePreferences (stored data, spec §5)', () => {
  it('reads valid preferences', () => {
    const customData = {
      [consolePreferencesKey]: { language: 'de', appearanceMode: 'dark', mfaUpsellNoticeAcknowledged: true },
    };
    expect(readConsolePreferences(customData)).toEqual({
      language: 'de',
      appearanceMode: 'dark',
      mfaUpsellNoticeAcknowledged: true,
    });
  });

  it.each([
    ['an unsupported language', { language: 'xx' }],
    ['an unknown appearance', { appearanceMode: 'sepia' }],
    ['a flag that is not a boolean', { experienceNoticeConfirmed: 'yes' }],
    ['not an object', 'dark'],
  ])('falls back to no preferences (the defaults) for %s', (_case, stored) => {
    expect(readConsolePreferences({ [consolePreferencesKey]: stored })).toEqual({});
  });

  it('treats missing or malformed custom data as no preferences', () => {
    expect(readConsolePreferences(undefined)).toEqual({});
    expect(readConsolePreferences(null)).toEqual({});
    expect(readConsolePreferences([])).toEqual({});
    expect(readConsolePreferences({ other: 1 })).toEqual({});
  });
});

describe('withConsolePreferences', () => {
  it('keeps the rest of the custom data and the other preferences', () => {
    const customData = { defaultTenantId: 't1', [consolePreferencesKey]: { language: 'fr', futureFlag: 3 } };
    expect(withConsolePreferences(customData, { appearanceMode: 'light' })).toEqual({
      defaultTenantId: 't1',
      [consolePreferencesKey]: { language: 'fr', futureFlag: 3, appearanceMode: 'light' },
    });
  });

  it('replaces preferences that fail validation instead of saving them again', () => {
    const customData = { [consolePreferencesKey]: { language: 'xx' }, other: true };
    expect(withConsolePreferences(customData, { language: 'ja' })).toEqual({
      [consolePreferencesKey]: { language: 'ja' },
      other: true,
    });
  });
});

describe('preferencesToApply', () => {
  const local = { language: 'en', appearanceMode: 'system' } as const;

  it("lets the account's saved choices win over this browser's", () => {
    expect(preferencesToApply({ language: 'ar', appearanceMode: 'dark' }, local)).toEqual({
      language: 'ar',
      appearanceMode: 'dark',
    });
  });

  it('keeps the local values for anything the account has not saved', () => {
    expect(preferencesToApply({}, local)).toEqual({});
    expect(preferencesToApply({ language: 'en' }, local)).toEqual({});
  });
});
