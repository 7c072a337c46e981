import type { FlatNamespace, TFunction } from 'i18next';

export type { TFunction };

/**
 * The console's translation runtime: a key lookup in the active language's namespaces, `{{name}}` interpolation and
 * plural forms through `Intl.PluralRules`. It replaced i18next at run time (about 16 kB gzip of the first page) because
 * the console uses none of the rest (no nesting, formats, contexts, fallback languages or detection plugins:
 * `locale-syntax.test.ts` keeps the string files to what this file understands). i18next's types still check every
 * key at compile time (`i18next.d.ts`); nothing of i18next is bundled.
 */

/** One namespace's strings: nested objects of strings, as in the JSON files. */
type Strings = object;
/** Fetches one namespace of one language; a rejected promise of `MissingStrings` is not retried. */
export type StringsLoader = (language: string, namespace: string) => Promise<Strings>;

export class MissingStrings extends Error {}

type Listener = () => void;

export type TOptions = {
  /** The namespace of a key without a `namespace:` prefix. */
  ns?: string | readonly string[];
  /** Another language than the active one. */
  lng?: string;
  /** What a missing key gives instead of the key itself. */
  defaultValue?: string;
  /** Chooses the plural form (`key_one`, `key_other`…) and fills `{{count}}`. */
  count?: number;
  [name: string]: unknown;
};

type AllNamespaces = ['common', ...Exclude<FlatNamespace, 'common'>[]];

const rightToLeft = new Set(['ar', 'fa', 'he', 'ur', 'ps', 'yi', 'dv', 'ku', 'sd', 'ug']);
const placeholder = /\{\{\s*([^{}\s]+)\s*\}\}/g;
const retries = 3;

function lookup(strings: Strings | undefined, path: string): unknown {
  if (!strings) return undefined;
  if (path in strings) return (strings as Record<string, unknown>)[path];
  let value: unknown = strings;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function interpolate(text: string, values: TOptions | undefined): string {
  if (!values || !text.includes('{{')) return text;
  return text.replace(placeholder, (match, name: string) => {
    const value = lookup(values, name);
    return value === undefined || value === null ? match : String(value);
  });
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Translations {
  language: string;
  readonly defaultNamespace: string;
  private readonly strings = new Map<string, Map<string, Strings>>();
  private readonly loading = new Map<string, Promise<void>>();
  private readonly listeners = new Set<Listener>();
  private readonly languageListeners = new Set<(language: string) => void>();
  private readonly pluralRules = new Map<string, Intl.PluralRules>();
  private readonly load: StringsLoader | undefined;

  constructor(options: {
    language: string;
    defaultNamespace?: string;
    load?: StringsLoader;
    /** Strings known from the start, by language then namespace (tests). */
    resources?: Record<string, Record<string, Strings>>;
  }) {
    this.language = options.language;
    this.defaultNamespace = options.defaultNamespace ?? 'common';
    this.load = options.load;
    for (const [language, namespaces] of Object.entries(options.resources ?? {}))
      for (const [namespace, strings] of Object.entries(namespaces))
        this.addResourceBundle(language, namespace, strings);
  }

  /** The same as `language`: there is no fallback language to resolve to. */
  get resolvedLanguage(): string {
    return this.language;
  }

  /** The active language, for React's external-store subscription. */
  readonly getLanguage = (): string => this.language;

  /** Told after each change of language (strings that arrive tell no one: a waiting component suspends). */
  readonly subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  onLanguageChanged(listener: (language: string) => void): void {
    this.languageListeners.add(listener);
  }

  /** Merges `strings` into a namespace (shallowly, as i18next's `addResourceBundle` without `deep`). */
  addResourceBundle(language: string, namespace: string, strings: Strings): void {
    const namespaces = this.strings.get(language) ?? new Map<string, Strings>();
    this.strings.set(language, namespaces);
    namespaces.set(namespace, { ...namespaces.get(namespace), ...strings });
  }

  /** Without a loader (tests), what is there is all there is: every namespace counts as loaded. */
  hasLoadedNamespace(namespace: string, language = this.language): boolean {
    return !this.load || (this.strings.get(language)?.has(namespace) ?? false);
  }

  private loadOne(language: string, namespace: string): Promise<void> {
    const id = `${language}\u0000${namespace}`;
    const started = this.loading.get(id);
    if (started) return started;
    const load = this.load;
    const attempt = async (): Promise<void> => {
      if (!load) throw new MissingStrings(`No strings for ${language}/${namespace}`);
      for (let tried = 1; ; tried += 1) {
        try {
          this.addResourceBundle(language, namespace, await load(language, namespace));
          return;
        } catch (error) {
          if (error instanceof MissingStrings || tried > retries) throw error;
          await wait(350 * 2 ** (tried - 1));
        }
      }
    };
    const done = attempt().catch((error: unknown) => {
      // Keys show instead of strings, as with i18next, rather than a page that waits for ever.
      console.error(error);
      this.addResourceBundle(language, namespace, {});
    });
    this.loading.set(id, done);
    return done;
  }

  /** Loads namespaces of the active language; resolves when each is there or has failed for good. */
  async loadNamespaces(namespaces: string | readonly string[], language = this.language): Promise<void> {
    const list = typeof namespaces === 'string' ? [namespaces] : namespaces;
    await Promise.all(
      list.filter((ns) => !this.hasLoadedNamespace(ns, language)).map((ns) => this.loadOne(language, ns)),
    );
  }

  /** Loads every namespace the page has in the new language, then switches (no half-translated render). */
  async changeLanguage(language: string): Promise<void> {
    if (language === this.language) return;
    await this.loadNamespaces([...(this.strings.get(this.language)?.keys() ?? [])], language);
    this.language = language;
    for (const listener of this.languageListeners) listener(language);
    for (const listener of this.listeners) listener();
  }

  dir(language = this.language): 'rtl' | 'ltr' {
    return rightToLeft.has(language.split('-')[0]?.toLowerCase() ?? '') ? 'rtl' : 'ltr';
  }

  private plural(language: string, count: number): string {
    const rules = this.pluralRules.get(language) ?? new Intl.PluralRules(language);
    this.pluralRules.set(language, rules);
    return rules.select(count);
  }

  /** One string: `key` or `namespace:key`, in `options.ns` or `namespace` otherwise. */
  translate(key: string | readonly string[], options: TOptions | undefined, namespace: string): string {
    const keys = typeof key === 'string' ? [key] : key;
    const language = options?.lng ?? this.language;
    const optionNamespace = typeof options?.ns === 'string' ? options.ns : options?.ns?.[0];
    let path = '';
    for (const candidate of keys) {
      const colon = candidate.indexOf(':');
      const ns = colon > 0 ? candidate.slice(0, colon) : (optionNamespace ?? namespace);
      path = colon > 0 ? candidate.slice(colon + 1) : candidate;
      const strings = this.strings.get(language)?.get(ns);
      const count = options?.count;
      const forms =
        typeof count === 'number'
          ? [...(count === 0 ? [`${path}_zero`] : []), `${path}_${this.plural(language, count)}`, path]
          : [path];
      for (const form of forms) {
        const value = lookup(strings, form);
        if (typeof value === 'string') return interpolate(value, options);
      }
    }
    return interpolate(options?.defaultValue ?? path, options);
  }

  /** A `t` bound to a language (null: the active one) and a namespace, typed by i18next's key types. */
  getFixedT<Ns extends FlatNamespace | readonly FlatNamespace[]>(
    language: string | null,
    namespace: Ns,
  ): TFunction<Ns> {
    const ns = typeof namespace === 'string' ? namespace : (namespace[0] ?? this.defaultNamespace);
    const fixed = (key: string | readonly string[], options?: TOptions) =>
      this.translate(key, language === null || options?.lng ? options : { ...options, lng: language }, ns);
    // The runtime signature is the subset of TFunction the console calls; the type keeps keys checked.
    return fixed as unknown as TFunction<Ns>;
  }

  /** The instance-wide `t`: keys of the default namespace, or any namespace by prefix or `ns`. */
  readonly t: TFunction<AllNamespaces> = ((key: string | readonly string[], options?: TOptions) =>
    this.translate(key, options, this.defaultNamespace)) as unknown as TFunction<AllNamespaces>;
}
