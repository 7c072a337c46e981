/**
 * The one catalogue of audit-log keys (spec §3 "log key catalogue" plus the keys of every admin write).
 * The server can write only these (`logs.key` is typed `LogKey`, and `performWrite` takes a `LogKey`),
 * and the console's log-key filter offers exactly these, so the two cannot drift apart.
 */

/** Writes an admin entity has beyond created, updated and deleted. */
const adminWrites = {
  AdminConsoleConfig: ['Updated'],
  Application: ['Created', 'Updated', 'Deleted'],
  ApplicationSecret: ['Created', 'Updated', 'Deleted', 'Revealed'],
  CheckoutSession: ['Created', 'Updated'],
  Connector: ['Created', 'Updated', 'Deleted'],
  Domain: ['Created', 'Deleted'],
  Hook: ['Created', 'Updated', 'Deleted', 'SigningKeyRotated'],
  Invoice: ['Created', 'Updated'],
  OidcCookieKeys: ['Rotated', 'Deleted'],
  OidcPrivateKeys: ['Rotated', 'Deleted'],
  Organization: ['Created', 'Updated', 'Deleted'],
  OrganizationInvitation: ['Created', 'Updated', 'Deleted', 'MessageRequested'],
  OrganizationRole: ['Created', 'Updated', 'Deleted'],
  OrganizationScope: ['Created', 'Updated', 'Deleted'],
  Resource: ['Created', 'Updated', 'Deleted'],
  Role: ['Created', 'Updated', 'Deleted'],
  Scope: ['Created', 'Updated', 'Deleted'],
  SignInExperience: ['Updated'],
  SsoConnector: ['Created', 'Updated', 'Deleted'],
  CustomPhrase: ['Updated', 'Deleted'],
  Subscription: ['Updated'],
  Tenant: ['Created', 'Updated', 'Deleted'],
  TenantInvitation: ['Created', 'Updated', 'MessageRequested', 'Accepted'],
  TenantMember: ['Updated', 'Deleted'],
  User: ['Created', 'Updated', 'Deleted'],
  UserGrant: ['Deleted'],
  ApplicationSignInExperience: ['Updated'],
  OidcSessionConfig: ['Updated'],
  JwtCustomizer: ['Created', 'Updated', 'Deleted'],
  CaptchaProvider: ['Created', 'Updated', 'Deleted'],
  IdTokenConfig: ['Updated'],
  UserMfaVerification: ['Created', 'Deleted'],
  UserPersonalAccessToken: ['Created', 'Updated', 'Deleted'],
  OneTimeToken: ['Created', 'Updated', 'Deleted'],
  SentinelActivity: ['Deleted'],
  ScimConnection: ['Created', 'Updated', 'Deleted', 'TokenRotated', 'TokenRevoked'],
  ScimGroup: ['Created', 'Updated', 'Deleted'],
} as const;
type AdminWrites = typeof adminWrites;
type AdminLogKey = {
  [Entity in keyof AdminWrites]: `Admin.${Entity}.${AdminWrites[Entity][number]}`;
}[keyof AdminWrites];

/** The keys by the group the console's filter shows them in, in that order. */
const groupedKeys = {
  interaction: [
    'Interaction.SignIn.Submit',
    'Interaction.Register.Submit',
    'Interaction.ForgotPassword.Create',
    'Interaction.ForgotPassword.Submit',
    'Interaction.VerificationCode.Create',
    'Interaction.VerificationCode.Submit',
    'Interaction.Mfa.Verify',
    'Interaction.Mfa.Bind',
  ],
  token: [
    'ExchangeTokenBy.AuthorizationCode',
    'ExchangeTokenBy.ClientCredentials',
    'ExchangeTokenBy.RefreshToken',
    'ExchangeTokenBy.TokenExchange',
  ],
  jwt: ['JwtCustomizer.AccessToken', 'JwtCustomizer.ClientCredentials'],
  saml: ['SamlApplication.AuthnRequest', 'SamlApplication.Callback'],
  account: [
    'Account.Password.Verify',
    'Account.Password.Updated',
    'Account.Profile.Updated',
    'Account.CustomData.Updated',
    'Account.Email.Verified',
    'Account.Email.Updated',
    'Account.Identity.Created',
    'Account.Identity.Deleted',
    'Account.Mfa.Created',
    'Account.Mfa.Deleted',
    'Account.Deleted',
  ],
} as const;

export type LogKeyGroup = keyof typeof groupedKeys | 'admin';
export const logKeyGroups: readonly LogKeyGroup[] = ['interaction', 'token', 'jwt', 'saml', 'account', 'admin'];

export type LogKey = (typeof groupedKeys)[keyof typeof groupedKeys][number] | AdminLogKey;
export type LogKeyEntry = { key: LogKey; group: LogKeyGroup };

/** Every key with its group: the interaction, token, JWT, SAML and account keys, then `Admin.<Entity>.<Action>`. */
export const logKeyCatalogue: readonly LogKeyEntry[] = [
  ...Object.entries(groupedKeys).flatMap(([group, keys]) => keys.map((key) => ({ key, group: group as LogKeyGroup }))),
  ...Object.entries(adminWrites).flatMap(([entity, actions]) =>
    actions.map((action) => ({ key: `Admin.${entity}.${action}` as AdminLogKey, group: 'admin' as const })),
  ),
];

const knownKeys: ReadonlySet<string> = new Set(logKeyCatalogue.map((entry) => entry.key));
export const isLogKey = (value: string): value is LogKey => knownKeys.has(value);
