import { z } from 'zod';

/**
 * Custom JWT (spec §2.2 customize-jwt, reference `/configs/jwt-customizer`): per tenant, one script for the access
 * tokens issued to users and one for machine-to-machine (client credentials) tokens. The script defines
 * `getCustomJwtClaims({ token, context, environmentVariables, api })`, which returns the extra claims (or a promise of
 * them); `api.denyAccess(message)` refuses the token with that message. It runs in a WebAssembly sandbox on the server
 * (docs/custom-jwt.md).
 */
export const jwtCustomizerTokenTypes = ['access-token', 'client-credentials'] as const;
export type JwtCustomizerTokenType = (typeof jwtCustomizerTokenTypes)[number];

/** The `key` of each script in `GET /configs/jwt-customizer` (the reference's config keys). */
export const jwtCustomizerConfigKeys = {
  'access-token': 'jwt.accessToken',
  'client-credentials': 'jwt.clientCredentials',
} as const satisfies Record<JwtCustomizerTokenType, string>;
export type JwtCustomizerConfigKey = (typeof jwtCustomizerConfigKeys)[JwtCustomizerTokenType];

export const JWT_CUSTOMIZER_SCRIPT_MAX_LENGTH = 64_000;
export const JWT_CUSTOMIZER_MAX_VARIABLES = 50;
export const JWT_CUSTOMIZER_VARIABLE_MAX_LENGTH = 4096;

/** Environment variable names as in a shell: the script reads them as `environmentVariables.NAME`. */
export const environmentVariableNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/);

export const environmentVariablesSchema = z
  .record(environmentVariableNameSchema, z.string().max(JWT_CUSTOMIZER_VARIABLE_MAX_LENGTH))
  .refine((value) => Object.keys(value).length <= JWT_CUSTOMIZER_MAX_VARIABLES, {
    message: `at most ${JWT_CUSTOMIZER_MAX_VARIABLES} variables`,
  });

const jsonObject = z.record(z.string(), z.unknown());

/** One token type's script and its samples. Environment variables are answered masked (`********`). */
export const jwtCustomizerSchema = z.object({
  script: z.string().trim().min(1).max(JWT_CUSTOMIZER_SCRIPT_MAX_LENGTH),
  environmentVariables: environmentVariablesSchema.optional(),
  /** The context the console's Test runs the script against (access tokens only). */
  contextSample: jsonObject.optional(),
  /** The token payload the console's Test runs the script against. */
  tokenSample: jsonObject.optional(),
  /** A script that throws (other than `api.denyAccess`) refuses the token when true; else the token has no extras. */
  blockIssuanceOnError: z.boolean().optional(),
});
export type JwtCustomizer = z.infer<typeof jwtCustomizerSchema>;

/**
 * The script as the API takes, stores and answers it: any text up to the limit, kept as sent. An empty (or blank)
 * script is stored, as the reference does (issue 43), and adds no claims; the console's editor still asks for one
 * (`jwtCustomizerSchema`).
 */
const storedScriptSchema = z.string().max(JWT_CUSTOMIZER_SCRIPT_MAX_LENGTH);

/** PUT creates or replaces (201 on create); PATCH changes the fields it names. */
export const jwtCustomizerPutSchema = jwtCustomizerSchema.extend({ script: storedScriptSchema }).strict();
export const jwtCustomizerPatchSchema = jwtCustomizerSchema.extend({ script: storedScriptSchema }).partial().strict();
export type JwtCustomizerPatch = z.infer<typeof jwtCustomizerPatchSchema>;

/** A stored script as answered: variables masked, `blockIssuanceOnError` resolved. */
export const jwtCustomizerResponseSchema = jwtCustomizerSchema.extend({
  script: storedScriptSchema,
  blockIssuanceOnError: z.boolean(),
});
export type JwtCustomizerResponse = z.infer<typeof jwtCustomizerResponseSchema>;

export const jwtCustomizerListSchema = z.array(
  z.object({ key: z.enum(['jwt.accessToken', 'jwt.clientCredentials']), value: jwtCustomizerResponseSchema }),
);

/** `POST /configs/jwt-customizer/test`: runs a script (saved or not) against a sample, in the same sandbox. */
export const jwtCustomizerTestSchema = z.discriminatedUnion('tokenType', [
  z
    .object({
      tokenType: z.literal('access-token'),
      script: z.string().min(1).max(JWT_CUSTOMIZER_SCRIPT_MAX_LENGTH),
      environmentVariables: environmentVariablesSchema.optional(),
      context: jsonObject.optional(),
      token: jsonObject,
    })
    .strict(),
  z
    .object({
      tokenType: z.literal('client-credentials'),
      script: z.string().min(1).max(JWT_CUSTOMIZER_SCRIPT_MAX_LENGTH),
      environmentVariables: environmentVariablesSchema.optional(),
      context: jsonObject.optional(),
      token: jsonObject,
    })
    .strict(),
]);
export type JwtCustomizerTest = z.infer<typeof jwtCustomizerTestSchema>;

/**
 * Claims a script cannot set: what the token's issuer, subject, audience, lifetime, identity and authorization
 * rest on. A script's value for any of them is dropped (and named in the Test result).
 */
export const reservedJwtClaims = [
  'iss',
  'sub',
  'aud',
  'exp',
  'nbf',
  'iat',
  'jti',
  'scope',
  'client_id',
  'azp',
  'sid',
  'auth_time',
  'acr',
  'amr',
  'nonce',
  'at_hash',
  'cnf',
  'gty',
  'kind',
  'organization_id',
  'authorization_details',
] as const;

/** The Test's answer: the token payload with the script's claims merged, and the reserved claims it tried to set. */
export const jwtCustomizerTestResultSchema = z.object({
  payload: jsonObject,
  claims: jsonObject,
  droppedClaims: z.array(z.string()),
});
export type JwtCustomizerTestResult = z.infer<typeof jwtCustomizerTestResultSchema>;

/**
 * ID token extended claims (reference `/configs/id-token`): user claims that go into the ID token (not only the
 * userinfo answer) when the application asks for the scope of the same name and the tenant has them enabled.
 */
export const extendedIdTokenClaims = [
  'custom_data',
  'identities',
  'roles',
  'organizations',
  'organization_roles',
] as const;
export type ExtendedIdTokenClaim = (typeof extendedIdTokenClaims)[number];

export const idTokenConfigSchema = z
  .object({ enabledExtendedClaims: z.array(z.enum(extendedIdTokenClaims)).max(extendedIdTokenClaims.length) })
  .strict();
export type IdTokenConfig = z.infer<typeof idTokenConfigSchema>;
export const defaultIdTokenConfig: IdTokenConfig = { enabledExtendedClaims: [...extendedIdTokenClaims] };

/** A sample user-token context for the editor's Test (the shape `context` has when tokens are issued). */
export const accessTokenContextSample = {
  user: {
    id: 'u1a2b3c4d5e6',
    username: 'jdoe',
    primaryEmail: 'jane@example.com',
    primaryPhone: null,
    name: 'Jane Doe',
    avatar: null,
    customData: { plan: 'pro' },
    identities: {},
    profile: { givenName: 'Jane', familyName: 'Doe' },
    applicationId: null,
    isSuspended: false,
    hasPassword: true,
    lastSignInAt: 1_700_000_000_000,
    createdAt: 1_690_000_000_000,
    updatedAt: 1_700_000_000_000,
    roles: [
      {
        id: 'r1',
        name: 'editor',
        description: 'Edits articles',
        scopes: [
          {
            id: 's1',
            name: 'write:articles',
            description: null,
            resourceId: 'res1',
            resource: 'https://api.example.com',
          },
        ],
      },
    ],
    organizations: [{ id: 'o1', name: 'Acme', description: null }],
    organizationRoles: [{ organizationId: 'o1', roleId: 'or1', roleName: 'admin' }],
  },
  application: { id: 'app1', name: 'My web app', type: 'Traditional', customData: {} },
  grant: { type: 'authorization_code' },
} as const;

export const accessTokenSample = {
  jti: 'sample-token-id',
  iss: 'https://auth.example.com/oidc',
  sub: 'u1a2b3c4d5e6',
  aud: 'https://api.example.com',
  scope: 'read:articles write:articles',
  client_id: 'app1',
  iat: 1_700_000_000,
  exp: 1_700_003_600,
} as const;

export const clientCredentialsContextSample = {
  application: { id: 'm2m1', name: 'Nightly job', type: 'MachineToMachine', customData: {} },
  grant: { type: 'client_credentials' },
} as const;

export const clientCredentialsTokenSample = {
  jti: 'sample-token-id',
  iss: 'https://auth.example.com/oidc',
  sub: 'm2m1',
  aud: 'https://api.example.com',
  scope: 'read:reports',
  client_id: 'm2m1',
  iat: 1_700_000_000,
  exp: 1_700_003_600,
} as const;

/** The script a new customizer starts from. */
export const defaultJwtCustomizerScript = `/**
 * Returns the claims to add to the token. \`api.denyAccess(message)\` refuses the token.
 * Reserved claims (iss, sub, aud, exp, iat, jti, scope, client_id…) cannot be changed.
 */
const getCustomJwtClaims = async ({ token, context, environmentVariables, api }) => {
  return {};
};
`;
