import { cleanup, type RenderOptions, render } from '@testing-library/react';
import i18next, { type i18n } from 'i18next';
import type { ReactElement, ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach } from 'vitest';
import common from '../../i18n/locales/en/common.json';
import components from '../../i18n/locales/en/components.json';
import componentsExtra from '../../i18n/locales/en/components_extra.json';

// vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(cleanup);

/** A synchronous English i18next: tests then find elements by the texts users read. */
export function createTestI18n(): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: 'en',
    resources: { en: { common, components, components_extra: componentsExtra } },
    ns: ['common', 'components', 'components_extra'],
    defaultNS: 'common',
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  return instance;
}

export function renderWithI18n(ui: ReactElement, options: Omit<RenderOptions, 'wrapper'> = {}) {
  const instance = createTestI18n();
  function Wrapper({ children }: { children: ReactNode }) {
    return <I18nextProvider i18n={instance}>{children}</I18nextProvider>;
  }
  return render(ui, { ...options, wrapper: Wrapper });
}
