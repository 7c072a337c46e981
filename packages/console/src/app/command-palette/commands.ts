/** One place the palette can jump to: a page now, an entity found by name as areas add their searches. */
export type PaletteCommand = {
  id: string;
  label: string;
  /** Translated group ('Pages', 'Applications'). */
  group: string;
  /** Router path, already resolved for the tenant. */
  to: string;
};

/** Case- and accent-insensitive, so 'reso' finds 'API resources' and 'eco' finds 'Écoute'. */
export function normalize(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();
}

/** Commands whose label holds every word of the query; labels starting with the query come first. */
export function matchCommands(commands: readonly PaletteCommand[], query: string): PaletteCommand[] {
  const wanted = normalize(query.trim());
  if (!wanted) return [...commands];
  const words = wanted.split(/\s+/);
  const matching = commands.filter((command) => {
    const label = normalize(command.label);
    return words.every((word) => label.includes(word));
  });
  const starts = (command: PaletteCommand) => (normalize(command.label).startsWith(wanted) ? 0 : 1);
  // Array.prototype.sort is stable, so equal ranks keep the sidebar's order.
  return matching.sort((a, b) => starts(a) - starts(b));
}
