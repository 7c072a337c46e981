import type { FlatNamespace, TFunction } from 'i18next';
import { createContext, type ReactNode, useContext, useMemo, useSyncExternalStore } from 'react';
import { i18n as consoleTranslations } from './index.ts';
import type { Translations } from './runtime.ts';

/** What `useTranslation` gives: destructured by name or position, as react-i18next's hook was. */
export type UseTranslation<Ns extends FlatNamespace | readonly FlatNamespace[]> = [
  t: TFunction<Ns>,
  i18n: Translations,
  ready: boolean,
] & { t: TFunction<Ns>; i18n: Translations; ready: boolean };

type Requested = FlatNamespace | readonly [FlatNamespace?, ...FlatNamespace[]] | undefined;
type Resolved<Ns> = Ns extends FlatNamespace | readonly FlatNamespace[] ? Ns : 'common';

const TranslationsContext = createContext<Translations | undefined>(undefined);
let byDefault: Translations | undefined;

/** The instance a component outside any I18nProvider reads (the console's own unless a test sets another). */
export function setDefaultTranslations(i18n: Translations): void {
  byDefault = i18n;
}

/** Another instance than the console's for what it wraps (tests, with synchronous English strings). */
export function I18nProvider({ i18n, children }: { i18n: Translations; children: ReactNode }) {
  return <TranslationsContext.Provider value={i18n}>{children}</TranslationsContext.Provider>;
}

/**
 * The strings of `namespaces` (the first one for keys without a prefix) in the active language. Suspends until they
 * are loaded (route loaders load them first, so pages rarely wait) and renders again when the language changes.
 */
export function useTranslation<const Ns extends Requested = undefined>(namespaces?: Ns): UseTranslation<Resolved<Ns>> {
  const i18n = useContext(TranslationsContext) ?? byDefault ?? consoleTranslations;
  const list: readonly string[] =
    namespaces === undefined
      ? [i18n.defaultNamespace]
      : typeof namespaces === 'string'
        ? [namespaces]
        : namespaces.filter((namespace) => namespace !== undefined);
  const id = list.join(',');
  const language = useSyncExternalStore(i18n.subscribe, i18n.getLanguage);
  const ready = list.every((namespace) => i18n.hasLoadedNamespace(namespace));
  if (!ready) throw i18n.loadNamespaces(list);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new t when the language changes, as react-i18next's.
  const t = useMemo(
    () => i18n.getFixedT(null, (id.split(',')[0] ?? i18n.defaultNamespace) as Resolved<Ns>),
    [i18n, id, language],
  );
  return Object.assign([t, i18n, ready] as [TFunction<Resolved<Ns>>, Translations, boolean], { t, i18n, ready });
}
