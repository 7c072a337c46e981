/** A language's own name for itself ('Deutsch', 'العربية', '中文（台灣）'), so people find theirs in any interface. */
export function languageName(language: string): string {
  try {
    const name = new Intl.DisplayNames([language], { type: 'language' }).of(language) ?? language;
    return name.charAt(0).toLocaleUpperCase(language) + name.slice(1);
  } catch {
    return language;
  }
}
