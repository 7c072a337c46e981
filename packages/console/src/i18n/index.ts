import { detectLanguage, type Language, languages, pseudoLanguage } from './languages.ts';
import { MissingStrings, Translations } from './runtime.ts';

/** Console-specific key, so other apps on the same origin keep their own choice (spec §1). */
export const languageStorageKey = 'gatehouse:language';

export type Namespace =
  | 'api_resources'
  | 'applications'
  | 'audit_logs'
  | 'auth'
  | 'common'
  | 'components'
  | 'components_extra'
  | 'connectors'
  | 'customize_jwt'
  | 'dashboard'
  | 'domains'
  | 'enterprise_sso'
  | 'get_started'
  | 'mfa'
  | 'organization_template'
  | 'organizations'
  | 'plans'
  | 'profile'
  | 'quota'
  | 'roles'
  | 'security'
  | 'sign_in_experience'
  | 'signing_keys'
  | 'subscription'
  | 'tenant_settings'
  | 'tenants'
  | 'users'
  | 'webhooks';

/** Language → version of its strings; each namespace is its own file, so only the active language's are fetched. */
const localeVersions = import.meta.env.GATEHOUSE_LOCALE_VERSIONS;

async function fetchLocaleFile(language: string, namespace: string): Promise<object> {
  const version = localeVersions[language];
  if (!version) throw new MissingStrings(`No locale file for ${language}/${namespace}`);
  const response = await fetch(`${import.meta.env.BASE_URL}assets/locales/${language}-${version}/${namespace}.json`);
  // A missing file (404) is not asked for again; a failed request is (Translations retries it).
  if (response.status === 404) throw new MissingStrings(`No locale file for ${language}/${namespace} (HTTP 404)`);
  if (!response.ok) throw new Error(`Locale file ${language}/${namespace}: HTTP ${response.status}`);
  return response.json();
}

async function loadStrings(language: string, namespace: string): Promise<object> {
  // The pseudo-locale is English run through pseudoTranslate; production builds drop this branch.
  if (import.meta.env.DEV && language === pseudoLanguage) {
    const { pseudoResources } = await import('./pseudo.ts');
    return pseudoResources(await fetchLocaleFile('en', namespace));
  }
  return fetchLocaleFile(language, namespace);
}

function readStoredLanguage(): string | null {
  try {
    return localStorage.getItem(languageStorageKey);
  } catch {
    return null; // Storage can be disabled (privacy modes); detection then uses the browser.
  }
}

/** Development builds offer the pseudo-locale beside the real languages. */
export type InterfaceLanguage = Language | typeof pseudoLanguage;
export const interfaceLanguages: readonly InterfaceLanguage[] = import.meta.env.DEV
  ? [...languages, pseudoLanguage]
  : languages;

function initialLanguage(): InterfaceLanguage {
  const stored = readStoredLanguage();
  if (import.meta.env.DEV && stored === pseudoLanguage) return pseudoLanguage;
  return detectLanguage(stored, navigator.languages);
}

function applyToDocument(language: string): void {
  document.documentElement.lang = language;
  document.documentElement.dir = i18n.dir(language);
}

/**
 * The console's strings. Unknown browser languages fall back to en in detectLanguage; at runtime nothing is missing
 * (the locales test proves every language complete), so en is not downloaded beside the active language.
 */
const i18n = new Translations({ language: initialLanguage(), defaultNamespace: 'common', load: loadStrings });

let ready: Promise<unknown> | undefined;

/** Starts once; later callers share the same promise. The UI kit's strings are needed on every page. */
export function initI18n(): Promise<unknown> {
  ready ??= (() => {
    applyToDocument(i18n.language);
    i18n.onLanguageChanged(applyToDocument);
    return i18n.loadNamespaces(['common', 'components']);
  })();
  return ready;
}

/** Route loaders call this beside the page import, so a page never suspends waiting for its strings. */
export async function loadNamespace(namespace: Namespace): Promise<void> {
  await initI18n();
  await i18n.loadNamespaces(namespace);
}

export async function changeLanguage(language: InterfaceLanguage): Promise<void> {
  try {
    localStorage.setItem(languageStorageKey, language);
  } catch {
    // Not persisted: the choice still applies to this visit.
  }
  await i18n.changeLanguage(language);
}

export { i18n };
