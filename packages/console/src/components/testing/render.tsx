import { cleanup, type RenderOptions, render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { afterEach } from 'vitest';
import common from '../../i18n/locales/en/common.json';
import components from '../../i18n/locales/en/components.json';
import componentsExtra from '../../i18n/locales/en/components_extra.json';
import { I18nProvider, setDefaultTranslations } from '../../i18n/react.tsx';
import { Translations } from '../../i18n/runtime.ts';

// vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(cleanup);

/** Synchronous English strings: tests then find elements by the texts users read. */
export function createTestI18n(): Translations {
  const instance = new Translations({
    language: 'en',
    resources: { en: { common, components, components_extra: componentsExtra } },
  });
  setDefaultTranslations(instance);
  return instance;
}

export function renderWithI18n(ui: ReactElement, options: Omit<RenderOptions, 'wrapper'> = {}) {
  const instance = createTestI18n();
  function Wrapper({ children }: { children: ReactNode }) {
    return <I18nProvider i18n={instance}>{children}</I18nProvider>;
  }
  return render(ui, { ...options, wrapper: Wrapper });
}
