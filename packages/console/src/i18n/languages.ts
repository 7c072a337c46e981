import { fallbackLanguage, type Language, languages } from '@gatehouse/schemas';

// The list of spec §1 lives in the schemas package, shared with the server's error messages.
export { fallbackLanguage, type Language, languages };

/** The development pseudo-locale (i18n/pseudo.ts): never offered in production builds. */
export const pseudoLanguage = 'en-XA';

export function isLanguage(value: unknown): value is Language {
  return languages.some((language) => language === value);
}

type Parts = { language: string; script: string | undefined; region: string | undefined };

/** Adds the likely script and region, so 'zh-Hant' finds zh-TW and 'pt' finds pt-BR. */
function parts(tag: string): Parts | undefined {
  try {
    const locale = new Intl.Locale(tag).maximize();
    return { language: locale.language, script: locale.script, region: locale.region };
  } catch {
    return undefined; // Not a well-formed tag: nothing to match.
  }
}

/** The supported language for one browser tag: same region first, then same script (en-GB → en). */
export function matchLanguage(tag: string): Language | undefined {
  const wanted = parts(tag);
  if (!wanted) return undefined;
  const sameLanguage = languages.filter((language) => parts(language)?.language === wanted.language);
  const sameScript = sameLanguage.filter((language) => parts(language)?.script === wanted.script);
  return sameScript.find((language) => parts(language)?.region === wanted.region) ?? sameScript[0];
}

/** A stored choice wins, then the browser's preferences in order, then the fallback. */
export function detectLanguage(stored: string | null, preferred: readonly string[]): Language {
  if (isLanguage(stored)) return stored;
  for (const tag of preferred) {
    const match = matchLanguage(tag);
    if (match) return match;
  }
  return fallbackLanguage;
}
