import { badRequest } from './errors.ts';
import {
  type Attribute,
  commonAttributes,
  ENTERPRISE_USER_SCHEMA,
  enterpriseUserAttributes,
  findAttribute,
  groupAttributes,
  type ResourceType,
  splitSchemaUrn,
  userAttributes,
} from './schema.ts';

/**
 * What a directory sends, made canonical (RFC 7643): attribute names in their defined case, values of their defined
 * type, unknown and read-only attributes left out (RFC 7644 §3.3: ignored), null and empty values unassigned. What is
 * stored is this form, so filters and PATCH paths meet one spelling. Booleans sent as text (`"False"`: Entra ID) are
 * booleans here.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Longest text value kept (a SCIM value is a name, an address, an id). */
const MAX_TEXT = 2048;
/** Most values of one multi-valued attribute. */
const MAX_VALUES = 100;

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const invalid = (name: string, why: string) => badRequest('invalidValue', `Attribute "${name}" ${why}.`);

function normalizeScalar(attribute: Attribute, value: unknown, name: string): Json | undefined {
  if (attribute.type === 'boolean') {
    if (typeof value === 'boolean') return value;
    if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
    throw invalid(name, 'must be a boolean');
  }
  if (attribute.type === 'complex') {
    // A complex value sent as its `value` alone (Entra ID's `manager`: the manager's id as text).
    const hasValue = findAttribute(attribute.subAttributes, 'value');
    const item = typeof value === 'string' && hasValue ? { value } : value;
    return normalizeComplex(attribute.subAttributes ?? [], item, name);
  }
  // string, reference, binary, dateTime: text (a number sent for text, as an employee number may be, is its text)
  const textValue = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof textValue !== 'string') throw invalid(name, 'must be a string');
  if (textValue.length > MAX_TEXT) throw invalid(name, `is longer than ${MAX_TEXT} characters`);
  if (attribute.type === 'dateTime' && textValue && Number.isNaN(Date.parse(textValue))) {
    throw invalid(name, 'must be a date and time');
  }
  return textValue === '' ? undefined : textValue;
}

function normalizeComplex(subAttributes: readonly Attribute[], value: unknown, name: string): JsonObject | undefined {
  if (!isObject(value)) throw invalid(name, 'must be an object');
  const result: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    const sub = findAttribute(subAttributes, key);
    if (!sub || sub.mutability === 'readOnly') continue;
    const normalized = normalizeValue(sub, item, `${name}.${sub.name}`);
    if (normalized !== undefined) result[sub.name] = normalized;
  }
  return Object.keys(result).length ? result : undefined;
}

/** One attribute's value, canonical; undefined when unassigned (null, empty). */
export function normalizeValue(attribute: Attribute, value: unknown, name = attribute.name): Json | undefined {
  if (value === null || value === undefined) return undefined;
  if (!attribute.multiValued) return normalizeScalar(attribute, value, name);
  const items = Array.isArray(value) ? value : [value];
  if (items.length > MAX_VALUES) throw invalid(name, `has more than ${MAX_VALUES} values`);
  const normalized = items
    .filter((item) => item !== null && item !== undefined)
    .map((item) => normalizeScalar(attribute, item, name))
    .filter((item): item is Json => item !== undefined);
  return normalized.length ? normalized : undefined;
}

/** The attributes of a resource body (core and extension), canonical; `schemas`, `id`, `meta` and unknowns left out. */
function normalizeAttributes(type: ResourceType, body: JsonObject): JsonObject {
  const result: JsonObject = {};
  const core = type === 'User' ? userAttributes : groupAttributes;
  for (const [key, value] of Object.entries(body)) {
    const split = splitSchemaUrn(type, key);
    if (!split) continue;
    if (split.urn === ENTERPRISE_USER_SCHEMA) {
      const extension = split.rest ? { [split.rest]: value } : value;
      if (value !== null && !isObject(extension)) throw invalid(key, 'must be an object');
      const normalized = isObject(extension)
        ? normalizeComplex(enterpriseUserAttributes, extension, ENTERPRISE_USER_SCHEMA)
        : undefined;
      const merged = { ...(isObject(result[ENTERPRISE_USER_SCHEMA]) ? result[ENTERPRISE_USER_SCHEMA] : {}) };
      Object.assign(merged, normalized ?? {});
      if (Object.keys(merged).length) result[ENTERPRISE_USER_SCHEMA] = merged;
      continue;
    }
    const found = findAttribute(core, split.rest) ?? findAttribute(commonAttributes, split.rest);
    if (!found || found.mutability === 'readOnly') continue;
    const normalized = normalizeValue(found, value);
    if (normalized !== undefined) result[found.name] = normalized;
  }
  return result;
}

/** A User as a directory sends it (POST, PUT, or a PATCHed document): what is stored, and `active` when given. */
export type UserInput = { userName: string; externalId: string | null; active?: boolean; resource: JsonObject };

export function normalizeUserInput(body: unknown): UserInput {
  if (!isObject(body)) throw badRequest('invalidSyntax', 'The body must be a JSON object.');
  const { externalId, active, ...resource } = normalizeAttributes('User', body);
  const userName = resource.userName;
  if (typeof userName !== 'string' || !userName.trim()) throw invalid('userName', 'is required');
  if (userName.length > 256) throw invalid('userName', 'is longer than 256 characters');
  if (typeof externalId === 'string' && externalId.length > 256) {
    throw invalid('externalId', 'is longer than 256 characters');
  }
  return {
    userName,
    externalId: typeof externalId === 'string' ? externalId : null,
    ...(typeof active === 'boolean' ? { active } : {}),
    resource,
  };
}

/** A Group as a directory sends it; `memberIds` is undefined when the body names no members at all. */
export type GroupInput = { displayName: string; externalId: string | null; memberIds: string[] };

export function normalizeGroupInput(body: unknown): GroupInput {
  if (!isObject(body)) throw badRequest('invalidSyntax', 'The body must be a JSON object.');
  const { displayName, externalId, members } = normalizeAttributes('Group', body);
  if (typeof displayName !== 'string' || !displayName.trim()) throw invalid('displayName', 'is required');
  if (displayName.length > 256) throw invalid('displayName', 'is longer than 256 characters');
  if (typeof externalId === 'string' && externalId.length > 256) {
    throw invalid('externalId', 'is longer than 256 characters');
  }
  const memberIds = (Array.isArray(members) ? members : []).map((member) => {
    const value = isObject(member) ? member.value : undefined;
    if (typeof value !== 'string') throw invalid('members.value', 'is required for each member');
    return value;
  });
  return {
    displayName,
    externalId: typeof externalId === 'string' ? externalId : null,
    memberIds: [...new Set(memberIds)],
  };
}

// ——— What the account takes from the directory ———

/** The values of the Gatehouse account a SCIM user sets (the rest of the account is left alone). */
export type AccountValues = {
  primaryEmail: string;
  name: string | null;
  /** Profile claims the directory owns: set, or removed when null. */
  profile: Record<string, string | null>;
  /** Custom data keys the directory owns (the enterprise extension): set, or removed when null. */
  customData: Record<string, string | null>;
};

const emailPattern = /^\S+@\S+\.\S+$/;
const str = (value: Json | undefined): string | undefined => (typeof value === 'string' ? value : undefined);
const truncate = (value: string | undefined, max: number) => (value === undefined ? null : value.slice(0, max));

/** The email of the account: the primary one, else the work one, else the first, else an email-shaped userName. */
function accountEmail(input: UserInput): string {
  const emails = (Array.isArray(input.resource.emails) ? input.resource.emails : []).filter(isObject);
  const chosen =
    emails.find((email) => email.primary === true) ?? emails.find((email) => email.type === 'work') ?? emails[0];
  const email = str(chosen?.value) ?? (emailPattern.test(input.userName) ? input.userName : undefined);
  if (!email) throw invalid('emails', 'must hold an email address (or userName must be one)');
  if (email.length > 128 || !emailPattern.test(email)) throw invalid('emails.value', 'must be an email address');
  return email;
}

export function accountValues(input: UserInput): AccountValues {
  const { resource } = input;
  const name = isObject(resource.name) ? resource.name : {};
  const enterprise = isObject(resource[ENTERPRISE_USER_SCHEMA]) ? resource[ENTERPRISE_USER_SCHEMA] : {};
  const given = str(name.givenName);
  const family = str(name.familyName);
  const joined = [given, family].filter(Boolean).join(' ') || undefined;
  const manager = isObject(enterprise.manager) ? str(enterprise.manager.value) : undefined;
  return {
    primaryEmail: accountEmail(input),
    name: truncate(str(resource.displayName) ?? str(name.formatted) ?? joined, 128),
    profile: {
      givenName: truncate(given, 256),
      familyName: truncate(family, 256),
      middleName: truncate(str(name.middleName), 256),
      nickname: truncate(str(resource.nickName), 256),
      preferredUsername: truncate(input.userName, 256),
      locale: truncate(str(resource.locale), 256),
      zoneinfo: truncate(str(resource.timezone), 256),
    },
    customData: {
      employeeNumber: str(enterprise.employeeNumber) ?? null,
      costCenter: str(enterprise.costCenter) ?? null,
      organization: str(enterprise.organization) ?? null,
      division: str(enterprise.division) ?? null,
      department: str(enterprise.department) ?? null,
      manager: manager ?? null,
    },
  };
}

/** `base` with the owned keys set to their values, and removed where the value is null. */
export function withOwnedKeys(
  base: Record<string, unknown>,
  owned: Record<string, string | null>,
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(owned)) {
    if (value === null) delete result[key];
    else result[key] = value;
  }
  return result;
}

// ——— `attributes` and `excludedAttributes` (RFC 7644 §3.4.2.5) ———

/** The keys of a path in a resource: `name.givenName` → ['name', 'givenName'], an extension's under its URN. */
function keysOf(type: ResourceType, path: string): string[] | undefined {
  const split = splitSchemaUrn(type, path.trim());
  if (!split) return undefined;
  if (split.urn && !split.rest) return [split.urn];
  const [name = '', sub] = split.rest.split('.');
  const list = split.urn ? enterpriseUserAttributes : [...(type === 'User' ? userAttributes : groupAttributes)];
  const found = findAttribute([...list, ...commonAttributes], name);
  if (!found) return undefined;
  const top = split.urn ? [split.urn, found.name] : [found.name];
  if (sub === undefined) return top;
  const subAttribute = findAttribute(found.subAttributes, sub);
  return subAttribute ? [...top, subAttribute.name] : undefined;
}

function pick(target: JsonObject, source: JsonObject, keys: readonly string[]): void {
  const [key = '', ...rest] = keys;
  const value = source[key];
  if (value === undefined) return;
  if (!rest.length) {
    target[key] = value;
    return;
  }
  if (Array.isArray(value)) {
    const existing = Array.isArray(target[key]) ? (target[key] as Json[]) : value.map(() => ({}));
    target[key] = value.map((item, index) => {
      const into = isObject(existing[index]) ? (existing[index] as JsonObject) : {};
      if (isObject(item)) pick(into, item, rest);
      return into;
    });
    return;
  }
  if (!isObject(value)) return;
  const into = isObject(target[key]) ? (target[key] as JsonObject) : {};
  pick(into, value, rest);
  target[key] = into;
}

function omit(target: JsonObject, keys: readonly string[]): void {
  const [key = '', ...rest] = keys;
  if (!rest.length) {
    delete target[key];
    return;
  }
  const value = target[key];
  for (const item of Array.isArray(value) ? value : [value]) if (isObject(item)) omit(item, rest);
}

/** Which top-level attributes an answer needs (a list can then skip reading group members). */
export type Projection = { attributes?: string[] | undefined; excludedAttributes?: string[] | undefined };

const splitList = (value: string | undefined) =>
  value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);

export function projectionOf(query: { attributes?: string; excludedAttributes?: string }): Projection {
  return { attributes: splitList(query.attributes), excludedAttributes: splitList(query.excludedAttributes) };
}

/** Whether the answer holds `name` (a top-level attribute). */
export function projects(type: ResourceType, projection: Projection, name: string): boolean {
  const top = (path: string) => keysOf(type, path)?.[0];
  if (projection.attributes?.length) return projection.attributes.some((path) => top(path) === name);
  return !projection.excludedAttributes?.some((path) => {
    const keys = keysOf(type, path);
    return keys?.length === 1 && keys[0] === name;
  });
}

/** The resource with only the asked attributes (`id` and `schemas` always), or without the excluded ones. */
export function project(type: ResourceType, resource: JsonObject, projection: Projection): JsonObject {
  if (projection.attributes?.length) {
    const result: JsonObject = {};
    for (const path of ['schemas', 'id', ...projection.attributes]) {
      const keys = path === 'schemas' ? ['schemas'] : keysOf(type, path);
      if (keys) pick(result, resource, keys);
    }
    return result;
  }
  if (!projection.excludedAttributes?.length) return resource;
  const result = structuredClone(resource);
  for (const path of projection.excludedAttributes) {
    const keys = keysOf(type, path);
    if (keys && !(keys.length === 1 && (keys[0] === 'id' || keys[0] === 'schemas'))) omit(result, keys);
  }
  return result;
}
