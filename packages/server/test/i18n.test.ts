import { errorCodes, languages } from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';
import { errorMessage, errorMessages, negotiateLanguage } from '../src/i18n/messages.ts';
import { sandboxPaymentKeys, sandboxPaymentStrings } from '../src/i18n/sandbox-payments.ts';
import { signInKeys, signInStrings } from '../src/i18n/sign-in.ts';

describe('server error messages', () => {
  it.each(languages)('%s has a message for every error code and nothing else', (language) => {
    const messages = errorMessages[language];
    for (const code of errorCodes) expect(messages[code]?.trim(), `${language}: ${code}`).toBeTruthy();
    expect(Object.keys(messages).sort()).toEqual([...errorCodes].sort());
  });

  it('translations differ from English except where they should not', () => {
    for (const language of languages.filter((l) => l !== 'en')) {
      expect(errorMessage('entity.not_exists_with_id', language), language).not.toBe(
        errorMessage('entity.not_exists_with_id', 'en'),
      );
    }
  });
});

describe('Accept-Language negotiation', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['fr', 'fr'],
    ['de-CH,de;q=0.9', 'de'],
    ['pt', 'pt-BR'],
    ['pt-PT', 'pt-PT'],
    ['zh-Hant-HK', 'zh-HK'],
    ['zh-TW', 'zh-TW'],
    ['zh', 'zh-CN'],
    ['tr', 'tr-TR'],
    ['xx, ja;q=0.5', 'ja'],
    ['ko;q=0.2, ru;q=0.8', 'ru'],
    ['es;q=0', 'en'],
    ['*', 'en'],
  ])('%j → %s', (header, expected) => {
    expect(negotiateLanguage(header)).toBe(expected);
  });
});

describe('sign-in page strings', () => {
  it.each(languages)('%s has every sign-in string and nothing else', (language) => {
    const strings = signInStrings[language];
    for (const key of signInKeys) expect(strings[key]?.trim(), `${language}: ${key}`).toBeTruthy();
    expect(Object.keys(strings).sort()).toEqual([...signInKeys].sort());
    if (language !== 'en') expect(strings.title).not.toBe(signInStrings.en.title);
  });

  it('keeps placeholders in every translation', () => {
    for (const language of languages) expect(signInStrings[language].locked, language).toContain('{minutes}');
  });
});

describe('sandbox payment page strings', () => {
  it.each(languages)('%s has every sandbox payment string and nothing else', (language) => {
    const strings = sandboxPaymentStrings[language];
    for (const key of sandboxPaymentKeys) expect(strings[key]?.trim(), `${language}: ${key}`).toBeTruthy();
    expect(Object.keys(strings).sort()).toEqual([...sandboxPaymentKeys].sort());
    if (language !== 'en') expect(strings.test_mode).not.toBe(sandboxPaymentStrings.en.test_mode);
  });

  it('keeps placeholders in every translation', () => {
    for (const language of languages) {
      expect(sandboxPaymentStrings[language].per_month, language).toContain('{price}');
      expect(sandboxPaymentStrings[language].new_tenant, language).toContain('{name}');
    }
  });
});
