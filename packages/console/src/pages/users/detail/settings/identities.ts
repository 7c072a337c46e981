/** One linked identity: the connector target it is keyed by and the user's id at that provider, when recorded. */
export type IdentityRow = { target: string; providerUserId: string | undefined };

/** The user's `identities` object as rows, sorted by target; entries of another shape still list their target. */
export function identityRows(identities: Record<string, unknown>): IdentityRow[] {
  return Object.entries(identities)
    .map(([target, identity]) => {
      const id =
        typeof identity === 'object' && identity !== null && 'userId' in identity ? identity.userId : undefined;
      return { target, providerUserId: typeof id === 'string' && id ? id : undefined };
    })
    .sort((a, b) => a.target.localeCompare(b.target));
}
