/** The groups the log-key filter shows its keys in. */
export const logKeyGroups = ['interaction', 'token', 'jwt', 'saml', 'account', 'admin'] as const;
export type LogKeyGroup = (typeof logKeyGroups)[number];

export type LogKeyEntry = { key: string; group: LogKeyGroup };

const adminEntities = [
  'Application',
  'ApplicationSecret',
  'Hook',
  'Organization',
  'OrganizationInvitation',
  'OrganizationRole',
  'OrganizationScope',
  'Resource',
  'Role',
  'Scope',
  'User',
] as const;

/** Writes an entity has beyond created, updated and deleted. */
const extraAdminActions: Record<string, readonly string[]> = {
  ApplicationSecret: ['Revealed'],
  Hook: ['SigningKeyRotated'],
  OrganizationInvitation: ['MessageRequested'],
};

/**
 * Spec §3 log key catalogue (sign-in, register and forgot-password interactions; token exchanges; custom JWT
 * claims; SAML request and callback), plus the keys the server writes for account checks and for every admin write
 * (`Admin.<Entity>.<Action>`, services/write-path.ts), so an admin can find any write by its key.
 */
export const logKeyCatalogue: readonly LogKeyEntry[] = [
  { key: 'Interaction.SignIn.Submit', group: 'interaction' },
  { key: 'Interaction.Register.Submit', group: 'interaction' },
  { key: 'Interaction.ForgotPassword.Create', group: 'interaction' },
  { key: 'Interaction.ForgotPassword.Submit', group: 'interaction' },
  { key: 'ExchangeTokenBy.AuthorizationCode', group: 'token' },
  { key: 'ExchangeTokenBy.ClientCredentials', group: 'token' },
  { key: 'ExchangeTokenBy.RefreshToken', group: 'token' },
  { key: 'ExchangeTokenBy.TokenExchange', group: 'token' },
  { key: 'JwtCustomizer.AccessToken', group: 'jwt' },
  { key: 'JwtCustomizer.ClientCredentials', group: 'jwt' },
  { key: 'SamlApplication.AuthnRequest', group: 'saml' },
  { key: 'SamlApplication.Callback', group: 'saml' },
  { key: 'Account.Password.Verify', group: 'account' },
  ...adminEntities.flatMap((entity) =>
    ['Created', 'Updated', 'Deleted', ...(extraAdminActions[entity] ?? [])].map((action) => ({
      key: `Admin.${entity}.${action}`,
      group: 'admin' as const,
    })),
  ),
];

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
