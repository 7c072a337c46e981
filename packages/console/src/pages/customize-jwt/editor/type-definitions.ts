import type { JwtCustomizerTokenType } from '@gatehouse/schemas';

/**
 * What the script's argument holds, as TypeScript declarations the editor shows beside the script. Written from the
 * samples of `@gatehouse/schemas` (entities/jwt-customizer.ts): keep the two in step when the context grows.
 */

const tokenDeclaration = `type Token = {
  jti: string;
  iss: string;
  sub: string;
  aud: string | string[];
  scope?: string;
  client_id: string;
  iat: number;
  exp: number;
  [claim: string]: unknown;
};`;

const applicationDeclaration = `type Application = {
  id: string;
  name: string;
  type: string;
  customData: Record<string, unknown>;
};`;

const userDeclaration = `type Scope = {
  id: string;
  name: string;
  description: string | null;
  resourceId: string;
  resource: string;
};

type Role = {
  id: string;
  name: string;
  description: string;
  scopes: Scope[];
};

type User = {
  id: string;
  username: string | null;
  primaryEmail: string | null;
  primaryPhone: string | null;
  name: string | null;
  avatar: string | null;
  customData: Record<string, unknown>;
  identities: Record<string, { userId: string; details?: Record<string, unknown> }>;
  profile: Record<string, unknown>;
  applicationId: string | null;
  isSuspended: boolean;
  hasPassword: boolean;
  lastSignInAt: number | null;
  createdAt: number;
  updatedAt: number;
  roles: Role[];
  organizations: { id: string; name: string; description: string | null }[];
  organizationRoles: { organizationId: string; roleId: string; roleName: string }[];
};`;

const commonDeclarations = `type EnvironmentVariables = Record<string, string>;

type Api = {
  /** Refuses the token: the client gets an access_denied error with this message. */
  denyAccess(message: string): never;
};

declare function getCustomJwtClaims(input: {
  token: Token;
  context: Context;
  environmentVariables: EnvironmentVariables;
  api: Api;
}): Record<string, unknown> | Promise<Record<string, unknown>>;`;

export const typeDefinitions: Record<JwtCustomizerTokenType, string> = {
  'access-token': [
    tokenDeclaration,
    userDeclaration,
    applicationDeclaration,
    `type Context = {
  user: User;
  application: Application;
  grant: { type: string };
};`,
    commonDeclarations,
  ].join('\n\n'),
  'client-credentials': [
    tokenDeclaration,
    applicationDeclaration,
    `type Context = {
  application: Application;
  grant: { type: 'client_credentials' };
};`,
    commonDeclarations,
  ].join('\n\n'),
};
