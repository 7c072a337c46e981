import { describe, expect, it } from 'vitest';

/**
 * The messages (toasts) style guide of the UI kit's README ("Messages (toasts)", issue 40 item 14), checked on every
 * string the console toasts, in all 16 languages: one sentence ending with the language's full stop, and a name in the
 * language's own quotation marks. The strings are found where they are used: each `toast.success(t('…'))` and
 * `toast.error(t('…'))` of the console's code, in the namespace of the file's `useTranslation`.
 */

const sources = import.meta.glob(['../../**/*.{ts,tsx}', '!../../**/*.test.{ts,tsx}', '!../../**/*.d.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;
const locales = import.meta.glob('../../i18n/locales/*/*.json', { import: 'default', eager: true }) as Record<
  string,
  Record<string, unknown>
>;

const languages = [...new Set(Object.keys(locales).map((path) => /locales\/([^/]+)\//.exec(path)?.[1] ?? ''))].sort();

/** The README's table: the marks around a name, and the end of a sentence. */
function styleOf(language: string): { open: string; close: string; end: string } {
  switch (language) {
    case 'de':
      return { open: '„', close: '“', end: '.' };
    case 'pl-PL':
      return { open: '„', close: '”', end: '.' };
    case 'fr':
      return { open: '«\u00a0', close: '\u00a0»', end: '.' };
    case 'es':
    case 'it':
    case 'pt-PT':
    case 'ru':
    case 'ar':
      return { open: '«', close: '»', end: '.' };
    case 'ja':
    case 'zh-HK':
    case 'zh-TW':
      return { open: '「', close: '」', end: '。' };
    case 'zh-CN':
      return { open: '“', close: '”', end: '。' };
    default:
      return { open: '“', close: '”', end: '.' };
  }
}

function stringAt(language: string, namespace: string, key: string): unknown {
  const strings = locales[`../../i18n/locales/${language}/${namespace}.json`];
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], strings);
}

type ToastString = { file: string; kind: 'success' | 'error'; namespace: string; key: string };

/** Every literal key a file toasts, with the namespace it is read from (the first of its `t`'s that holds it). */
function toastStrings(): ToastString[] {
  const found: ToastString[] = [];
  for (const [file, text] of Object.entries(sources)) {
    const namespaces = [...text.matchAll(/const \{ t\b[^}]*\} = useTranslation\(\s*(\[[^\]]*\]|'[^']+')/g)].map(
      (match) => [...(match[1] ?? '').matchAll(/'([^']+)'/g)].map((name) => name[1] ?? '')[0] ?? '',
    );
    for (const match of text.matchAll(/toast\.(success|error)\(\s*t\(\s*'([^']+)'/g)) {
      const written = match[2] ?? '';
      const [namespace, key] = written.includes(':')
        ? (written.split(':') as [string, string])
        : [namespaces.find((candidate) => typeof stringAt('en', candidate, written) === 'string') ?? '', written];
      found.push({
        file: file.replace('../../', 'src/'),
        kind: match[1] === 'error' ? 'error' : 'success',
        namespace,
        key,
      });
    }
  }
  return found;
}

describe('toast wording (the UI kit README, "Messages (toasts)")', () => {
  const toasts = toastStrings();

  it('finds the toasted strings, each in English', () => {
    // A few dozen success and error messages: an empty list would mean the search no longer sees them.
    expect(toasts.length).toBeGreaterThan(60);
    expect(languages).toHaveLength(16);
    const unknown = toasts.filter(({ namespace, key }) => typeof stringAt('en', namespace, key) !== 'string');
    expect(unknown.map(({ file, key }) => `${file}: ${key}`)).toEqual([]);
  });

  it('is one sentence ending with the language’s full stop, with a name in the language’s quotation marks', () => {
    const problems: string[] = [];
    for (const { namespace, key } of toasts) {
      const english = String(stringAt('en', namespace, key));
      const quoted = [...english.matchAll(/“(\{\{[^}]+\}\})”/g)].map((match) => match[1] ?? '');
      for (const language of languages) {
        const text = stringAt(language, namespace, key);
        if (typeof text !== 'string') continue; // Untranslated: English is shown, and checked above.
        const { open, close, end } = styleOf(language);
        const where = `${language} ${namespace}:${key} ${JSON.stringify(text)}`;
        if (!text.endsWith(end)) problems.push(`${where}: does not end with "${end}"`);
        if (/["']\{\{|\}\}["']/.test(text)) problems.push(`${where}: a name in straight quotes`);
        for (const variable of quoted) {
          if (!text.includes(`${open}${variable}${close}`))
            problems.push(`${where}: ${variable} not in ${open}…${close}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('says in English what was done to what: the kind of thing, its name, the past participle', () => {
    // 'Role “admin” deleted.', not 'The role “admin” has been deleted.'
    const wordy = toasts
      .filter(({ kind }) => kind === 'success')
      .map(({ namespace, key }) => `${namespace}:${key} ${String(stringAt('en', namespace, key))}`)
      .filter((entry) => /\s(The|This) |\bha(s|ve) been\b/.test(entry));
    expect(wordy).toEqual([]);
  });
});
