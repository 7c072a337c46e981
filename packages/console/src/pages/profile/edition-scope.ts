import type { Edition } from '@gatehouse/schemas';

/** Something the profile shows in some editions only (spec §2.12: username is OSS-only; linked accounts cloud-only). */
export type EditionScoped = { editions?: readonly Edition[] };

export function inEdition(item: EditionScoped, edition: Edition): boolean {
  return item.editions?.includes(edition) ?? true;
}

/** The profile's parts for one edition, in their order. */
export function forEdition<T extends EditionScoped>(items: readonly T[], edition: Edition): T[] {
  return items.filter((item) => inEdition(item, edition));
}
