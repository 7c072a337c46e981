/** One place the palette can jump to: a page now, an entity found by name as areas add their searches. */
export type PaletteCommand = {
  id: string;
  label: string;
  /**
   * Translated words people type for it besides its label ('mfa', 'totp' for Multi-factor auth): matched, never
   * shown.
   */
  keywords?: readonly string[];
  /** Translated group ('Pages', 'Applications'). */
  group: string;
  /** Router path, already resolved for the tenant. */
  to: string;
};

/** Case- and accent-insensitive, so 'reso' finds 'API resources' and 'eco' finds 'Écoute'. */
export function normalize(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();
}

/** The words of a query, normalized; none for a blank one. */
function queryWords(query: string): string[] {
  const wanted = normalize(query.trim());
  return wanted ? wanted.split(/\s+/) : [];
}

/** Whether every word of the query is in one of the texts (each word may be in another text). */
function matchesEvery(words: readonly string[], texts: readonly string[]): boolean {
  const normalized = texts.map(normalize);
  return words.every((word) => normalized.some((text) => text.includes(word)));
}

/** Lower first: a label starting with the query, a label holding every word, words found through the keywords. */
const ranks = { labelPrefix: 0, label: 1, keyword: 2 } as const;

/**
 * Commands whose label and keywords hold every word of the query: first those whose label starts with the query,
 * then those whose label holds every word, then those found through their keywords.
 */
export function matchCommands(commands: readonly PaletteCommand[], query: string): PaletteCommand[] {
  const words = queryWords(query);
  if (words.length === 0) return [...commands];
  const wanted = words.join(' ');
  const ranked = commands.flatMap((command): { command: PaletteCommand; rank: number }[] => {
    const label = normalize(command.label);
    if (label.startsWith(wanted)) return [{ command, rank: ranks.labelPrefix }];
    if (words.every((word) => label.includes(word))) return [{ command, rank: ranks.label }];
    if (matchesEvery(words, [label, ...(command.keywords ?? [])])) return [{ command, rank: ranks.keyword }];
    return [];
  });
  // Array.prototype.sort is stable, so equal ranks keep the sidebar's order.
  return ranked.sort((a, b) => a.rank - b.rank).map(({ command }) => command);
}
