import { type ScimPatchOperation, type ScimResource, scimPatch } from 'scim-patch';
import { type Filter, parse, stringify } from 'scim2-parse-filter';
import { badRequest, type ScimType } from './errors.ts';
import { parseFilter } from './filter.ts';
import { isObject, type Json, type JsonObject, normalizeValue } from './resources.ts';
import {
  type Attribute,
  ENTERPRISE_USER_SCHEMA,
  findAttribute,
  pathText,
  type ResolvedPath,
  type ResourceType,
  resolvePath,
  splitSchemaUrn,
} from './schema.ts';

/**
 * SCIM PATCH (RFC 7644 §3.5.2), applied by scim-patch to the resource as stored, after the operations are made
 * canonical here, which is where the directories' habits are met:
 * - `op` in any case (`"Replace"`, `"Add"`: Entra ID);
 * - an operation without `path` whose value is an object of attributes (Entra ID): one operation per attribute, and
 *   per sub-attribute of a complex one, so `{"name": {"givenName": "x"}}` keeps the family name (RFC 7644 §3.5.2.3);
 * - attribute names in any case, in paths, inside value filters and in values;
 * - booleans sent as text (`"active": "False"`: Entra ID);
 * - read-only attributes in a value object (`id` beside `displayName`: Okta) are left out; a path naming one is 400
 *   `mutability`.
 * A path the grammar refuses is 400 `invalidPath` (`invalidFilter` for its value filter), a remove without path 400
 * `noTarget`, a value filter that matches nothing in a replace 400 `noTarget`.
 */

type Operation = { op: 'add' | 'remove' | 'replace'; path?: string; value?: Json };

const MAX_OPERATIONS = 1000;
const attributeName = /^[A-Za-z$][\w$-]*$/;

/** A path split into its attribute, value filter and sub-attribute (`emails[type eq "work"].value`). */
function splitPath(raw: string): { head: string; filter?: string; sub?: string } | undefined {
  const bracket = raw.indexOf('[');
  if (bracket === -1) return { head: raw };
  const close = raw.lastIndexOf(']');
  if (close < bracket) return undefined;
  const after = raw.slice(close + 1);
  if (after && !/^\.[A-Za-z$][\w$-]*$/.test(after)) return undefined;
  return {
    head: raw.slice(0, bracket),
    filter: raw.slice(bracket + 1, close),
    ...(after ? { sub: after.slice(1) } : {}),
  };
}

/** The value filter with its attribute names canonical (`Value eq "x"` → `value eq "x"`), checked as a filter. */
function canonicalFilter(type: ResourceType, attribute: Attribute, text: string): string {
  // Checked with the filter rules first (400 invalidFilter), as the same filter on the attribute would be.
  parseFilter(type, `${attribute.name}[${text}]`);
  const rename = (filter: Filter): Filter => {
    switch (filter.op) {
      case 'and':
      case 'or':
        return { ...filter, filters: filter.filters.map(rename) };
      case 'not':
        return { ...filter, filter: rename(filter.filter) };
      case '[]':
        return filter;
      default:
        return {
          ...filter,
          attrPath: findAttribute(attribute.subAttributes, filter.attrPath)?.name ?? filter.attrPath,
        };
    }
  };
  return stringify(rename(parse(text)));
}

type Target = { path: ResolvedPath; filter?: string; text: string };

/** A PATCH path, canonical; 400 `invalidPath`, `invalidFilter` or `mutability`. */
function resolveTarget(type: ResourceType, raw: string): Target {
  const fail = (scimType: ScimType, why: string) => badRequest(scimType, `Path "${raw.slice(0, 200)}" ${why}.`);
  const split = splitSchemaUrn(type, raw.trim());
  if (!split?.rest) throw fail('invalidPath', 'names no attribute of this resource');
  const parts = splitPath(split.rest);
  if (!parts) throw fail('invalidPath', 'cannot be read');
  const [head = '', ...dotted] = parts.head.split('.');
  if (!attributeName.test(head) || dotted.length > (parts.filter === undefined ? 1 : 0)) {
    throw fail('invalidPath', 'cannot be read');
  }
  const subName = parts.sub ?? dotted[0];
  const prefix = split.urn ? `${split.urn}:` : '';
  const path = resolvePath(type, `${prefix}${head}${subName ? `.${subName}` : ''}`, 'invalidPath');
  const target = path.sub ?? path.attribute;
  if (path.attribute.mutability === 'readOnly' || target.mutability === 'readOnly') {
    throw fail('mutability', 'names a read-only attribute');
  }
  if (parts.filter === undefined) return { path, text: pathText(path) };
  if (!path.attribute.multiValued || path.attribute.type !== 'complex') {
    throw fail('invalidPath', 'filters an attribute that has no values to filter');
  }
  const filter = canonicalFilter(type, path.attribute, parts.filter);
  const base = split.urn ? `${split.urn}:${path.attribute.name}` : path.attribute.name;
  return { path, filter, text: `${base}[${filter}]${path.sub ? `.${path.sub.name}` : ''}` };
}

/** The value of an operation on `target`, canonical (a group's members keep only their `value`). */
function targetValue(target: Target, value: unknown): Json | undefined {
  const { attribute, sub } = target.path;
  if (sub) return normalizeValue({ ...sub, multiValued: false }, value, pathText(target.path));
  if (target.filter !== undefined) {
    return normalizeValue({ ...attribute, multiValued: false }, value, attribute.name);
  }
  const normalized = normalizeValue(attribute, value);
  if (attribute.name === 'members' && Array.isArray(normalized)) {
    return normalized.map((member) => (isObject(member) ? { value: member.value ?? null } : member));
  }
  return normalized;
}

/** An operation without path: one operation per attribute (and per sub-attribute of a complex single value). */
function expandValueObject(type: ResourceType, op: 'add' | 'replace', value: JsonObject): Operation[] {
  const operations: Operation[] = [];
  for (const [key, item] of Object.entries(value)) {
    const split = splitSchemaUrn(type, key);
    if (!split) continue;
    if (split.urn === ENTERPRISE_USER_SCHEMA && !split.rest) {
      if (isObject(item)) {
        const flattened = Object.fromEntries(
          Object.entries(item).map(([name, sub]) => [`${ENTERPRISE_USER_SCHEMA}:${name}`, sub]),
        );
        operations.push(...expandValueObject(type, op, flattened));
      }
      continue;
    }
    let target: Target;
    try {
      target = resolveTarget(type, key);
    } catch {
      // Unknown and read-only attributes in a value object are ignored (RFC 7644 §3.5.2: `id` beside displayName).
      continue;
    }
    const { attribute, sub } = target.path;
    if (attribute.type === 'complex' && !attribute.multiValued && !sub && isObject(item)) {
      for (const [name, subValue] of Object.entries(item)) {
        const subAttribute = findAttribute(attribute.subAttributes, name);
        if (!subAttribute || subAttribute.mutability === 'readOnly') continue;
        const subTarget = { path: { ...target.path, sub: subAttribute }, text: `${target.text}.${subAttribute.name}` };
        operations.push(...toOperation(op, subTarget, subValue));
      }
      continue;
    }
    operations.push(...toOperation(op, target, item));
  }
  return operations;
}

function toOperation(op: 'add' | 'remove' | 'replace', target: Target, value: unknown): Operation[] {
  const normalized = value === undefined ? undefined : targetValue(target, value);
  if (op === 'remove') {
    return [normalized === undefined ? { op, path: target.text } : { op, path: target.text, value: normalized }];
  }
  // Adding nothing changes nothing; replacing with nothing (null, []) unassigns the attribute (RFC 7643 §2.5).
  if (normalized === undefined) return op === 'add' ? [] : [{ op: 'remove', path: target.text }];
  return [{ op, path: target.text, value: normalized }];
}

/** The operations of a PATCH body, canonical; 400 `invalidSyntax` for a body that is not one. */
export function normalizePatch(type: ResourceType, body: unknown): Operation[] {
  if (!isObject(body)) throw badRequest('invalidSyntax', 'The body must be a JSON object.');
  const key = Object.keys(body).find((name) => name.toLowerCase() === 'operations');
  const operations = key ? body[key] : undefined;
  if (!Array.isArray(operations) || operations.length === 0) {
    throw badRequest('invalidSyntax', 'A PATCH needs "Operations", a list of at least one operation.');
  }
  if (operations.length > MAX_OPERATIONS) throw badRequest('invalidSyntax', `At most ${MAX_OPERATIONS} operations.`);
  return operations.flatMap((operation): Operation[] => {
    if (!isObject(operation) || typeof operation.op !== 'string') {
      throw badRequest('invalidSyntax', 'Each operation needs an "op".');
    }
    const op = operation.op.toLowerCase();
    if (op !== 'add' && op !== 'remove' && op !== 'replace') {
      throw badRequest('invalidSyntax', `"${operation.op.slice(0, 50)}" is not add, remove or replace.`);
    }
    const path = operation.path;
    if (path !== undefined && path !== null && typeof path !== 'string') {
      throw badRequest('invalidPath', 'A path is text.');
    }
    if (!path) {
      if (op === 'remove') throw badRequest('noTarget', 'A remove operation needs a path.');
      if (!isObject(operation.value))
        throw badRequest('invalidSyntax', 'An operation without path takes an object of attributes.');
      return expandValueObject(type, op, operation.value);
    }
    const target = resolveTarget(type, path);
    if (op !== 'remove' && !('value' in operation)) throw badRequest('invalidSyntax', `"${op}" needs a value.`);
    return toOperation(op, target, operation.value);
  });
}

/** What scim-patch throws, as the SCIM error it is. */
function patchError(error: unknown, operation: Operation): Error {
  const scimCode = typeof error === 'object' && error !== null && 'scimCode' in error ? error.scimCode : undefined;
  const detail = `Operation ${operation.op} ${operation.path ?? ''} cannot be applied`;
  if (scimCode === 'noTarget') return badRequest('noTarget', `${detail}: no value matches its filter.`);
  return badRequest('invalidValue', `${detail}.`);
}

/** Applies the operations to a copy of `document`, one at a time; a remove whose target is already gone is no change. */
export function applyPatch(document: JsonObject, operations: readonly Operation[]): JsonObject {
  const working = structuredClone(document);
  for (const operation of operations) {
    try {
      scimPatch(working as unknown as ScimResource, [operation as ScimPatchOperation], {
        mutateDocument: true,
        treatMissingAsAdd: true,
      });
    } catch (error) {
      const name = error instanceof Error ? error.constructor.name : '';
      if (operation.op === 'remove' && (name === 'FilterOnEmptyArray' || name === 'FilterArrayTargetNotFound'))
        continue;
      throw patchError(error, operation);
    }
  }
  return working;
}
