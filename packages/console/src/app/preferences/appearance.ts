import { type AppearanceMode, appearanceModes } from '@gatehouse/schemas';

/** Spec §3: the appearance mode's browser storage key; console-specific like the language key. */
export const appearanceStorageKey = 'gatehouse:appearance';

export type Theme = 'light' | 'dark';

export function isAppearanceMode(value: unknown): value is AppearanceMode {
  return appearanceModes.some((mode) => mode === value);
}

/** Spec §4: system follows the OS setting; light and dark are fixed. */
export function resolveTheme(mode: AppearanceMode, systemPrefersDark: boolean): Theme {
  if (mode === 'system') return systemPrefersDark ? 'dark' : 'light';
  return mode;
}

/** The part of MediaQueryList the controller uses. */
type MediaQuery = { readonly matches: boolean; addEventListener(type: 'change', listener: () => void): void };
type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>;

export type AppearanceEnvironment = {
  /** `<html>`: its data-theme attribute selects the token set of theme.css. */
  root: HTMLElement;
  /** `(prefers-color-scheme: dark)` */
  media: MediaQuery;
  storage: Storage | undefined;
};

export type AppearanceController = {
  getMode(): AppearanceMode;
  getTheme(): Theme;
  setMode(mode: AppearanceMode): void;
  /** Called after every change of mode or of the OS setting that changes the theme. */
  subscribe(listener: () => void): () => void;
};

function readStoredMode(storage: Storage | undefined): AppearanceMode {
  try {
    const stored = storage?.getItem(appearanceStorageKey);
    return isAppearanceMode(stored) ? stored : 'system';
  } catch {
    return 'system'; // Storage can be disabled (privacy modes).
  }
}

/**
 * Owns the appearance: applies it to `<html data-theme>` at once, saves it locally, and while the mode is system
 * follows the OS setting live (spec §4) through the media query's change event.
 */
export function createAppearanceController({ root, media, storage }: AppearanceEnvironment): AppearanceController {
  let mode = readStoredMode(storage);
  const listeners = new Set<() => void>();
  const theme = () => resolveTheme(mode, media.matches);

  function apply(): void {
    root.dataset.theme = theme();
    root.dataset.appearance = mode;
    for (const listener of listeners) listener();
  }

  media.addEventListener('change', () => {
    if (mode === 'system') apply();
  });
  apply();

  return {
    getMode: () => mode,
    getTheme: theme,
    setMode(next) {
      mode = next;
      try {
        storage?.setItem(appearanceStorageKey, next);
      } catch {
        // Not persisted: the choice still applies to this visit.
      }
      apply();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

let controller: AppearanceController | undefined;

/** The page's one controller; main.tsx starts it before the first render so the page never flashes light. */
export function appearance(): AppearanceController {
  controller ??= createAppearanceController({
    root: document.documentElement,
    media: window.matchMedia('(prefers-color-scheme: dark)'),
    storage: browserStorage(),
  });
  return controller;
}
