import { type ErrorCode, fallbackLanguage, type Language, languages } from '@gatehouse/schemas';
import ar from './locales/ar.json' with { type: 'json' };
import de from './locales/de.json' with { type: 'json' };
import en from './locales/en.json' with { type: 'json' };
import es from './locales/es.json' with { type: 'json' };
import fr from './locales/fr.json' with { type: 'json' };
import it from './locales/it.json' with { type: 'json' };
import ja from './locales/ja.json' with { type: 'json' };
import ko from './locales/ko.json' with { type: 'json' };
import plPL from './locales/pl-PL.json' with { type: 'json' };
import ptBR from './locales/pt-BR.json' with { type: 'json' };
import ptPT from './locales/pt-PT.json' with { type: 'json' };
import ru from './locales/ru.json' with { type: 'json' };
import trTR from './locales/tr-TR.json' with { type: 'json' };
import zhCN from './locales/zh-CN.json' with { type: 'json' };
import zhHK from './locales/zh-HK.json' with { type: 'json' };
import zhTW from './locales/zh-TW.json' with { type: 'json' };

/** Server error messages per language; a unit test checks every code is in every language. */
export const errorMessages: Record<Language, Partial<Record<ErrorCode, string>>> = {
  ar,
  de,
  en,
  es,
  fr,
  it,
  ja,
  ko,
  'pl-PL': plPL,
  'pt-BR': ptBR,
  'pt-PT': ptPT,
  ru,
  'tr-TR': trTR,
  'zh-CN': zhCN,
  'zh-HK': zhHK,
  'zh-TW': zhTW,
};

const byLowercase = new Map(languages.map((language) => [language.toLowerCase(), language]));
/** A bare language tag maps to the variant most of its speakers use. */
const byPrimary: Record<string, Language> = { pt: 'pt-BR', zh: 'zh-CN', pl: 'pl-PL', tr: 'tr-TR' };

/** The built-in language that serves a BCP 47 tag (`en-US` → `en`, `zh-Hant-TW` → `zh-TW`), if any. */
export function matchTag(tag: string): Language | undefined {
  const lower = tag.toLowerCase();
  const exact = byLowercase.get(lower);
  if (exact) return exact;
  if (lower === 'zh-hant' || lower.startsWith('zh-hant-')) return lower.endsWith('-hk') ? 'zh-HK' : 'zh-TW';
  if (lower === 'zh-hans' || lower.startsWith('zh-hans-')) return 'zh-CN';
  const primary = lower.split('-')[0] ?? '';
  return byLowercase.get(primary) ?? byPrimary[primary];
}

/**
 * The first supported language of an OIDC `ui_locales` value (space-separated BCP 47 tags, most preferred first),
 * or undefined when it names none (the caller then falls back to Accept-Language).
 */
export function uiLocalesLanguage(uiLocales: unknown): Language | undefined {
  if (typeof uiLocales !== 'string') return undefined;
  for (const tag of uiLocales.split(' ')) {
    const language = tag && matchTag(tag);
    if (language) return language;
  }
  return undefined;
}

/** The tags of an Accept-Language header, most preferred first (RFC 9110 weights; `q=0` left out). */
export function acceptLanguageTags(header: string | undefined | null): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.tag && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}

/** Picks the best supported language of an Accept-Language header (RFC 9110 weights), else the fallback (en). */
export function negotiateLanguage(header: string | undefined | null, fallback: Language = fallbackLanguage): Language {
  for (const tag of acceptLanguageTags(header)) {
    const language = matchTag(tag);
    if (language) return language;
  }
  return fallback;
}

export function errorMessage(code: ErrorCode, language: Language): string {
  return errorMessages[language][code] ?? errorMessages.en[code] ?? code;
}
