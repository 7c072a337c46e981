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

/**
 * The second line under the display name: the identifiers not already shown as the name (the email left out where
 * the row shows it in a column of its own).
 */
export function userSecondaryParts(
  user: UserNames,
  { withEmail = true }: { withEmail?: boolean } = {},
): { username?: string; email?: string } {
  const shown = userDisplayName(user);
  const username = user.username?.trim();
  const email = user.primaryEmail?.trim();
  return {
    ...(username && username !== shown ? { username } : {}),
    ...(withEmail && email && email !== shown ? { email } : {}),
  };
}

/** The second line as text: 'ada · ada@example.com'. */
export function userSecondaryText(user: UserNames): string | undefined {
  const { username, email } = userSecondaryParts(user);
  const rest = [username, email].filter(Boolean);
  return rest.length > 0 ? rest.join(' · ') : undefined;
}
