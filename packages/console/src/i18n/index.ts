import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { detectLanguage, type Language, languages, pseudoLanguage } from './languages.ts';

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

/** A failed request is retried by i18next; a missing file (404) is not. */
class LocaleFileError extends Error {}

async function fetchLocaleFile(language: string, namespace: string): Promise<object> {
  const version = localeVersions[language];
  if (!version) throw new LocaleFileError(`No locale file for ${language}/${namespace}`);
  const response = await fetch(`${import.meta.env.BASE_URL}assets/locales/${language}-${version}/${namespace}.json`);
  if (!response.ok) throw new LocaleFileError(`No locale file for ${language}/${namespace} (HTTP ${response.status})`);
  return response.json();
}

const localeBackend: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init: () => undefined,
  read(language, namespace, callback) {
    // The pseudo-locale is English run through pseudoTranslate; production builds drop this branch.
    const isPseudo = import.meta.env.DEV && language === pseudoLanguage;
    fetchLocaleFile(isPseudo ? 'en' : language, namespace).then(
      async (resources) => {
        if (!isPseudo) return callback(null, resources);
        const { pseudoResources } = await import('./pseudo.ts');
        callback(null, pseudoResources(resources));
      },
      (error: unknown) =>
        callback(error instanceof Error ? error : new Error(String(error)), !(error instanceof LocaleFileError)),
    );
  },
};

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

let ready: Promise<unknown> | undefined;

/** Starts once; later callers share the same promise. */
export function initI18n(): Promise<unknown> {
  ready ??= (() => {
    i18n.on('languageChanged', applyToDocument);
    return i18n
      .use(localeBackend)
      .use(initReactI18next)
      .init({
        lng: initialLanguage(),
        supportedLngs: interfaceLanguages,
        load: 'currentOnly',
        // Unknown browser languages fall back to en in detectLanguage. At runtime nothing is missing (the
        // locales test proves every language complete), so en is not downloaded beside the active language.
        fallbackLng: false,
        // The UI kit's strings are needed on every page, so they load with common instead of per route.
        ns: ['common', 'components'],
        defaultNS: 'common',
        interpolation: { escapeValue: false }, // React escapes what it renders.
      });
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
