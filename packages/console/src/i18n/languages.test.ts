import { describe, expect, it } from 'vitest';
import { detectLanguage, matchLanguage } from './languages.ts';

describe('detectLanguage', () => {
  it('prefers a valid stored choice over the browser', () => {
    expect(detectLanguage('ja', ['de-DE'])).toBe('ja');
  });

  it('ignores a stored value that is not one of the 16 languages', () => {
    expect(detectLanguage('xx', ['de-DE'])).toBe('de');
    expect(detectLanguage('DE', [])).toBe('en');
  });

  it('tries the browser languages in order, then falls back to en', () => {
    expect(detectLanguage(null, ['nl-NL', 'fr-CA'])).toBe('fr');
    expect(detectLanguage(null, ['nl-NL'])).toBe('en');
    expect(detectLanguage(null, [])).toBe('en');
  });
});

describe('matchLanguage', () => {
  it.each([
    ['en-GB', 'en'],
    ['ar-EG', 'ar'],
    ['pl', 'pl-PL'],
    ['tr', 'tr-TR'],
    ['pt', 'pt-BR'],
    ['pt-PT', 'pt-PT'],
    ['zh', 'zh-CN'],
    ['zh-SG', 'zh-CN'],
    ['zh-Hant', 'zh-TW'],
    ['zh-HK', 'zh-HK'],
    ['zh-MO', 'zh-HK'],
  ])('%s → %s', (tag, expected) => {
    expect(matchLanguage(tag)).toBe(expected);
  });

  it('finds nothing for unsupported or malformed tags', () => {
    expect(matchLanguage('sv-SE')).toBeUndefined();
    expect(matchLanguage('not a tag!')).toBeUndefined();
  });
});
