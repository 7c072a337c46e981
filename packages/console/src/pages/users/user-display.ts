/** The identifying fields every view of a user shows. */
type UserNames = {
  name?: string | null;
  username?: string | null;
  primaryEmail?: string | null;
  primaryPhone?: string | null;
};

/**
 * What a user is called in titles, rows and the palette: the name, else the username, email or phone (a user has at
 * least one identifier, but an imported one may have only a phone). Undefined only for a user with none of them.
 */
export function userDisplayName(user: UserNames): string | undefined {
  return [user.name, user.username, user.primaryEmail, user.primaryPhone].map((value) => value?.trim()).find(Boolean);
}

/** The second line under the display name: the identifiers not already shown as the name. */
export function userSecondaryText(user: UserNames): string | undefined {
  const shown = userDisplayName(user);
  const rest = [user.username, user.primaryEmail]
    .map((value) => value?.trim())
    .filter((value) => value && value !== shown);
  return rest.length > 0 ? rest.join(' · ') : undefined;
}
