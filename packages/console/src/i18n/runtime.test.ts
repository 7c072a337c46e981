import { describe, expect, it, vi } from 'vitest';
import { MissingStrings, Translations } from './runtime.ts';

const strings = {
  en: {
    common: { greeting: 'Hello {{name}}', nested: { deep: 'Deep {{ user.name }}' }, 'dotted.key': 'Flat' },
    users: { title: 'Users', codes_one: '{{count}} code left', codes_other: '{{count}} codes left' },
  },
  de: { common: { greeting: 'Hallo {{name}}' } },
};

describe('Translations', () => {
  it('reads keys of the default namespace, other namespaces by prefix or option, and nested paths', () => {
    const i18n = new Translations({ language: 'en', resources: strings });
    const t = i18n.t as unknown as (key: string, options?: object) => string;
    expect(t('greeting', { name: 'Ada' })).toBe('Hello Ada');
    expect(t('users:title')).toBe('Users');
    expect(t('title', { ns: 'users' })).toBe('Users');
    expect(t('nested.deep', { user: { name: 'Grace' } })).toBe('Deep Grace');
    expect(t('dotted.key')).toBe('Flat');
  });

  it('keeps a placeholder without a value, and answers the key or the default for a missing string', () => {
    const i18n = new Translations({ language: 'en', resources: strings });
    const t = i18n.t as unknown as (key: string, options?: object) => string;
    expect(t('greeting')).toBe('Hello {{name}}');
    expect(t('users:nope')).toBe('nope');
    expect(t('nope', { defaultValue: 'Fallback {{n}}', n: 2 })).toBe('Fallback 2');
  });

  it("chooses plural forms by the language's rules", () => {
    const i18n = new Translations({ language: 'en', resources: strings });
    const t = i18n.getFixedT(null, 'users') as unknown as (key: string, options?: object) => string;
    expect(t('codes', { count: 1 })).toBe('1 code left');
    expect(t('codes', { count: 5 })).toBe('5 codes left');
  });

  it('loads a language before switching to it, then tells its listeners', async () => {
    const load = vi.fn(async (language: string, namespace: string) => ({ greeting: `${language}/${namespace}` }));
    const i18n = new Translations({ language: 'en', load });
    await i18n.loadNamespaces(['common', 'users']);
    const changed = vi.fn();
    i18n.subscribe(changed);
    const switching = i18n.changeLanguage('ar');
    expect(i18n.language).toBe('en');
    await switching;
    expect(i18n.language).toBe('ar');
    expect(changed).toHaveBeenCalledOnce();
    expect(load.mock.calls.map((call) => call.join('/')).sort()).toEqual([
      'ar/common',
      'ar/users',
      'en/common',
      'en/users',
    ]);
    expect((i18n.t as unknown as (key: string) => string)('greeting')).toBe('ar/common');
    expect(i18n.dir()).toBe('rtl');
    expect(i18n.dir('de')).toBe('ltr');
  });

  it('tries a failed request again, but not a missing file, and then shows keys rather than waiting', async () => {
    vi.useFakeTimers();
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      let calls = 0;
      const flaky = new Translations({
        language: 'en',
        load: async () => {
          calls += 1;
          if (calls < 3) throw new TypeError('network');
          return { ok: 'Loaded' };
        },
      });
      const loading = flaky.loadNamespaces('common');
      await vi.runAllTimersAsync();
      await loading;
      expect(calls).toBe(3);
      expect((flaky.t as unknown as (key: string) => string)('ok')).toBe('Loaded');

      let missingCalls = 0;
      const missing = new Translations({
        language: 'en',
        load: async () => {
          missingCalls += 1;
          throw new MissingStrings('404');
        },
      });
      expect(missing.hasLoadedNamespace('common')).toBe(false);
      await missing.loadNamespaces('common');
      expect(missingCalls).toBe(1);
      expect(missing.hasLoadedNamespace('common')).toBe(true);
      expect((missing.t as unknown as (key: string) => string)('ok')).toBe('ok');
    } finally {
      error.mockRestore();
      vi.useRealTimers();
    }
  });
});
