import { type LogKeyEntry, logKeyCatalogue } from '@gatehouse/schemas';

export { type LogKeyEntry, type LogKeyGroup, logKeyCatalogue, logKeyGroups } from '@gatehouse/schemas';

/** Keys containing the typed text, ignoring case and the dots ('role upd' finds Admin.Role.Updated). */
export function matchLogKeys(query: string, catalogue: readonly LogKeyEntry[] = logKeyCatalogue): LogKeyEntry[] {
  const words = query
    .trim()
    .toLowerCase()
    .split(/[\s.]+/)
    .filter(Boolean);
  if (words.length === 0) return [...catalogue];
  return catalogue.filter((entry) => {
    const key = entry.key.toLowerCase();
    return words.every((word) => key.includes(word));
  });
}
