import { SCIM_MAX_PAGE_SIZE } from '@gatehouse/schemas';
import { badRequest, type ScimType } from './errors.ts';

/**
 * The SCIM schemas Gatehouse serves (RFC 7643 §4, §8.7): the attributes of a User (with the enterprise extension) and
 * of a Group, as data. The same definitions answer `/Schemas`, resolve attribute paths in filters, PATCH paths and
 * `attributes` (names in any case, RFC 7643 §2.1), and check the values a directory sends.
 */

export const CORE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const CORE_GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

export type ResourceType = 'User' | 'Group';

export type AttributeType = 'string' | 'boolean' | 'complex' | 'dateTime' | 'reference' | 'binary';

export type Attribute = {
  name: string;
  type: AttributeType;
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  returned: 'always' | 'never' | 'default' | 'request';
  uniqueness: 'none' | 'server' | 'global';
  subAttributes?: Attribute[];
  canonicalValues?: string[];
  referenceTypes?: string[];
};

type Options = Partial<Omit<Attribute, 'name' | 'type' | 'description' | 'subAttributes'>>;

const attribute = (name: string, type: AttributeType, description: string, options: Options = {}): Attribute => ({
  name,
  type,
  multiValued: false,
  description,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...options,
});
const text = (name: string, description: string, options?: Options) => attribute(name, 'string', description, options);
const complex = (name: string, description: string, subAttributes: Attribute[], options?: Options): Attribute => ({
  ...attribute(name, 'complex', description, options),
  subAttributes,
});

/** The sub-attributes of RFC 7643's plural attributes (emails, phoneNumbers, …). */
const plural = (name: string, description: string, types: string[], valueType: AttributeType = 'string') =>
  complex(
    name,
    description,
    [
      attribute('value', valueType, `The ${name} value.`),
      text('display', 'A human-readable name, primarily used for display purposes.'),
      text('type', 'A label indicating the function of the value.', { canonicalValues: types }),
      attribute('primary', 'boolean', 'Whether this is the primary value.'),
    ],
    { multiValued: true },
  );

export const userAttributes: Attribute[] = [
  text('userName', 'Unique identifier for the user within this connection (an email address, typically).', {
    required: true,
    uniqueness: 'server',
  }),
  complex('name', "The components of the user's name.", [
    text('formatted', 'The full name, formatted for display.'),
    text('familyName', 'The family name.'),
    text('givenName', 'The given name.'),
    text('middleName', 'The middle name.'),
    text('honorificPrefix', 'The honorific prefix.'),
    text('honorificSuffix', 'The honorific suffix.'),
  ]),
  text('displayName', 'The name of the user, suitable for display.'),
  text('nickName', 'The casual way to address the user.'),
  attribute('profileUrl', 'reference', "A URI of the user's online profile.", { referenceTypes: ['external'] }),
  text('title', "The user's title."),
  text('userType', 'The relationship between the organization and the user.'),
  text('preferredLanguage', "The user's preferred written or spoken language."),
  text('locale', "The user's default location for localization."),
  text('timezone', "The user's time zone (IANA name)."),
  attribute('active', 'boolean', "The user's administrative status: false suspends the account."),
  plural('emails', 'Email addresses for the user.', ['work', 'home', 'other']),
  plural('phoneNumbers', 'Phone numbers for the user.', ['work', 'home', 'mobile', 'fax', 'pager', 'other']),
  plural('ims', 'Instant messaging addresses for the user.', ['aim', 'gtalk', 'icq', 'xmpp', 'msn', 'skype', 'qq']),
  plural('photos', 'URLs of photos of the user.', ['photo', 'thumbnail'], 'reference'),
  complex(
    'addresses',
    'Physical mailing addresses for the user.',
    [
      text('formatted', 'The full mailing address.'),
      text('streetAddress', 'The street address.'),
      text('locality', 'The city or locality.'),
      text('region', 'The state or region.'),
      text('postalCode', 'The zip code or postal code.'),
      text('country', 'The country name (ISO 3166-1 alpha-2).'),
      text('type', 'A label indicating the function of the address.', { canonicalValues: ['work', 'home', 'other'] }),
      attribute('primary', 'boolean', 'Whether this is the primary address.'),
    ],
    { multiValued: true },
  ),
  complex(
    'groups',
    "The groups of this connection the user belongs to (read-only: change a group's members instead).",
    [
      text('value', 'The id of the group.', { mutability: 'readOnly' }),
      attribute('$ref', 'reference', 'The URI of the group.', { mutability: 'readOnly', referenceTypes: ['Group'] }),
      text('display', 'The display name of the group.', { mutability: 'readOnly' }),
      text('type', 'Direct membership.', { mutability: 'readOnly', canonicalValues: ['direct'] }),
    ],
    { multiValued: true, mutability: 'readOnly' },
  ),
  plural('entitlements', 'Entitlements of the user.', []),
  plural('roles', 'Roles of the user (kept as given; roles are granted through groups).', []),
  plural('x509Certificates', 'X.509 certificates of the user.', [], 'binary'),
];

export const enterpriseUserAttributes: Attribute[] = [
  text('employeeNumber', 'Kept in the account\'s custom data as "employeeNumber".'),
  text('costCenter', 'Kept in the account\'s custom data as "costCenter".'),
  text('organization', 'Kept in the account\'s custom data as "organization".'),
  text('division', 'Kept in the account\'s custom data as "division".'),
  text('department', 'Kept in the account\'s custom data as "department".'),
  complex('manager', 'The user\'s manager; its id is kept in the account\'s custom data as "manager".', [
    text('value', 'The id of the manager.'),
    attribute('$ref', 'reference', 'The URI of the manager.', { referenceTypes: ['User'] }),
    text('displayName', 'The display name of the manager.', { mutability: 'readOnly' }),
  ]),
];

export const groupAttributes: Attribute[] = [
  text('displayName', 'A human-readable name for the group.', { required: true }),
  complex(
    'members',
    'The users of this connection in the group.',
    [
      text('value', 'The id of the member.', { mutability: 'immutable', caseExact: true }),
      attribute('$ref', 'reference', 'The URI of the member.', { mutability: 'immutable', referenceTypes: ['User'] }),
      text('display', 'The display name of the member.', { mutability: 'immutable' }),
      text('type', 'The type of the member (User only).', { mutability: 'immutable', canonicalValues: ['User'] }),
    ],
    { multiValued: true },
  ),
];

/** Attributes every resource has (RFC 7643 §3.1). */
export const commonAttributes: Attribute[] = [
  text('id', 'The identifier the service provider assigned.', {
    mutability: 'readOnly',
    returned: 'always',
    caseExact: true,
    uniqueness: 'server',
  }),
  text('externalId', "The directory's identifier of the resource.", { caseExact: true }),
  complex(
    'meta',
    'Resource metadata.',
    [
      text('resourceType', 'The type of the resource.', { mutability: 'readOnly', caseExact: true }),
      attribute('created', 'dateTime', 'When the resource was added.', { mutability: 'readOnly' }),
      attribute('lastModified', 'dateTime', 'When the resource was last changed.', { mutability: 'readOnly' }),
      attribute('location', 'reference', 'The URI of the resource.', { mutability: 'readOnly', caseExact: true }),
    ],
    { mutability: 'readOnly' },
  ),
];

export const coreSchemaOf = (type: ResourceType) => (type === 'User' ? CORE_USER_SCHEMA : CORE_GROUP_SCHEMA);
const coreAttributesOf = (type: ResourceType) => (type === 'User' ? userAttributes : groupAttributes);

export function findAttribute(list: readonly Attribute[] | undefined, name: string): Attribute | undefined {
  const lower = name.toLowerCase();
  return list?.find((candidate) => candidate.name.toLowerCase() === lower);
}

/** An attribute path resolved to its definitions: `extension` is the extension's URN for its attributes. */
export type ResolvedPath = { extension?: string; attribute: Attribute; sub?: Attribute };

/** The extension URN (canonical) a path starts with, and the rest; the core URN is dropped. */
export function splitSchemaUrn(type: ResourceType, path: string): { urn?: string; rest: string } | undefined {
  const lower = path.toLowerCase();
  if (!lower.startsWith('urn:')) return { rest: path };
  const urns = type === 'User' ? [CORE_USER_SCHEMA, ENTERPRISE_USER_SCHEMA] : [CORE_GROUP_SCHEMA];
  for (const urn of urns) {
    if (lower === urn.toLowerCase()) return { urn, rest: '' };
    if (lower.startsWith(`${urn.toLowerCase()}:`)) {
      const rest = path.slice(urn.length + 1);
      return urn === ENTERPRISE_USER_SCHEMA ? { urn, rest } : { rest };
    }
  }
  return undefined;
}

/**
 * `attr`, `attr.sub`, `urn:…:attr` or `urn:…:attr.sub` (any case) to the definitions; `failure` is the scimType of the
 * error an unknown attribute gets (`invalidFilter` in a filter, `invalidPath` in a PATCH path).
 */
export function resolvePath(type: ResourceType, path: string, failure: ScimType): ResolvedPath {
  const split = splitSchemaUrn(type, path);
  if (!split?.rest) throw badRequest(failure, `Unknown attribute "${path.slice(0, 200)}".`);
  const [name = '', subName, ...more] = split.rest.split('.');
  const list = split.urn ? enterpriseUserAttributes : [...coreAttributesOf(type), ...commonAttributes];
  const found = findAttribute(list, name);
  if (!found || more.length) throw badRequest(failure, `Unknown attribute "${path.slice(0, 200)}".`);
  const resolved: ResolvedPath = split.urn ? { extension: split.urn, attribute: found } : { attribute: found };
  if (subName === undefined) return resolved;
  const sub = findAttribute(found.subAttributes, subName);
  if (!sub) throw badRequest(failure, `Unknown attribute "${path.slice(0, 200)}".`);
  return { ...resolved, sub };
}

/** The canonical text of a resolved path (`name.givenName`, `urn:…:enterprise:2.0:User:manager.value`). */
export function pathText(path: ResolvedPath): string {
  const base = path.extension ? `${path.extension}:${path.attribute.name}` : path.attribute.name;
  return path.sub ? `${base}.${path.sub.name}` : base;
}

// ——— Discovery (RFC 7644 §4) ———

export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    documentationUri: 'https://datatracker.ietf.org/doc/html/rfc7644',
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_MAX_PAGE_SIZE },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: "The connection's token, sent as `Authorization: Bearer <token>`.",
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

export function resourceTypes(baseUrl: string) {
  const user = {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'User account',
    schema: CORE_USER_SCHEMA,
    schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA, required: false }],
    meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/User` },
  };
  const group = {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id: 'Group',
    name: 'Group',
    endpoint: '/Groups',
    description: 'Group',
    schema: CORE_GROUP_SCHEMA,
    schemaExtensions: [],
    meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/Group` },
  };
  return [user, group];
}

export function schemaDocuments(baseUrl: string) {
  const document = (id: string, name: string, description: string, attributes: Attribute[]) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    id,
    name,
    description,
    attributes,
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${id}` },
  });
  return [
    document(CORE_USER_SCHEMA, 'User', 'User account', userAttributes),
    document(ENTERPRISE_USER_SCHEMA, 'EnterpriseUser', 'Enterprise user', enterpriseUserAttributes),
    document(CORE_GROUP_SCHEMA, 'Group', 'Group', groupAttributes),
  ];
}
