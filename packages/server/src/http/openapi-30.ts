/**
 * The OpenAPI 3.0 form of the generated 3.1 document, for tools that read only 3.0 (older code generators, IaC
 * providers written for the reference's `/api/swagger.json`). It rewrites what 3.1 (JSON Schema 2020-12) writes and
 * 3.0 cannot say:
 *
 * - `type: [x, 'null']`, `anyOf`/`oneOf` with `{type: 'null'}` and `null` in an `enum` → `nullable: true`;
 * - `const: v` → `enum: [v]`; `examples: [a, …]` → `example: a`;
 * - numeric `exclusiveMinimum`/`exclusiveMaximum` → an inclusive bound: `minimum: n + 1` for integers (`> 0` is
 *   `minimum: 1`), else `minimum: n` with `not: {enum: [n]}`. The 3.0 boolean flag (`exclusiveMinimum: true`) is
 *   never written: validators that read the document with a later JSON Schema draft refuse it (issue 43);
 * - a `$ref` with sibling keywords → `allOf: [{$ref}]` beside them (3.0 ignores a `$ref`'s siblings);
 * - keywords 3.0 does not know (`propertyNames`, `prefixItems`, `$schema`, `contentEncoding`, …) are dropped, which
 *   only makes the 3.0 schema accept more than the server does; the 3.1 document stays the exact contract.
 *
 * A hand-written walk rather than a package: the maintained converter (`@apiture/openapi-down-convert`) brings
 * TypeScript 4 and a CLI as runtime dependencies, and this document uses a small, known part of JSON Schema,
 * checked against the 3.0 schema by test/compat-conventions.test.ts.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** JSON Schema keywords of 3.1 that a 3.0 Schema Object does not allow. */
const droppedKeywords = new Set([
  '$schema',
  '$id',
  '$anchor',
  '$comment',
  '$defs',
  '$dynamicRef',
  '$dynamicAnchor',
  'propertyNames',
  'prefixItems',
  'contains',
  'minContains',
  'maxContains',
  'unevaluatedProperties',
  'unevaluatedItems',
  'dependentRequired',
  'dependentSchemas',
  'patternProperties',
  'if',
  'then',
  'else',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
]);

const isNullSchema = (schema: Json) => isObject(schema) && schema.type === 'null' && Object.keys(schema).length === 1;

/** One schema (and, recursively, the schemas inside it) in its 3.0 form. */
export function schemaTo30(input: Json): Json {
  if (typeof input === 'boolean') return input ? {} : { not: {} };
  if (!isObject(input)) return input;
  const schema: JsonObject = {};
  let nullable = false;
  const exclusive: { minimum?: number; maximum?: number } = {};
  for (const [key, value] of Object.entries(input)) {
    if (droppedKeywords.has(key)) continue;
    switch (key) {
      case 'type':
        if (Array.isArray(value)) {
          const types = value.filter((type) => type !== 'null');
          nullable ||= types.length < value.length;
          if (types.length === 1) schema.type = types[0] ?? null;
          else if (types.length > 1)
            schema.anyOf = [...((schema.anyOf as Json[]) ?? []), ...types.map((t) => ({ type: t }))];
        } else if (value === 'null') nullable = true;
        else schema.type = value;
        break;
      case 'const':
        schema.enum = [value];
        break;
      case 'enum':
        if (Array.isArray(value) && value.includes(null)) {
          nullable = true;
          schema.enum = value.filter((item) => item !== null);
        } else schema.enum = value;
        break;
      case 'examples':
        if (Array.isArray(value) && value.length) schema.example = value[0] ?? null;
        break;
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        // A boolean is not JSON Schema 2020-12 (nothing to convert); a number is applied after the loop.
        if (typeof value === 'number') exclusive[key === 'exclusiveMinimum' ? 'minimum' : 'maximum'] = value;
        break;
      case 'anyOf':
      case 'oneOf': {
        const options = (value as Json[]).filter((option) => !isNullSchema(option));
        nullable ||= options.length < (value as Json[]).length;
        const converted = options.map(schemaTo30);
        // One option left: the schema is that option (made nullable), not a one-way choice.
        if (converted.length === 1) schema.allOf = [...((schema.allOf as Json[]) ?? []), converted[0] ?? {}];
        else if (converted.length) schema[key] = converted;
        break;
      }
      case 'allOf':
        schema.allOf = [...((schema.allOf as Json[]) ?? []), ...(value as Json[]).map(schemaTo30)];
        break;
      case 'not':
      case 'additionalProperties':
        schema[key] = typeof value === 'boolean' && key === 'additionalProperties' ? value : schemaTo30(value);
        break;
      case 'items':
        schema.items = Array.isArray(value) ? {} : schemaTo30(value);
        break;
      case 'properties':
        schema.properties = Object.fromEntries(
          Object.entries(value as JsonObject).map(([name, property]) => [name, schemaTo30(property)]),
        );
        break;
      default:
        schema[key] = value;
    }
  }
  applyExclusiveBounds(schema, exclusive);
  if (input.type === 'array' && schema.items === undefined && Array.isArray(input.prefixItems)) schema.items = {};
  if (nullable) schema.nullable = true;
  // 3.0 ignores every keyword beside a `$ref`: keep them by moving the reference into an allOf.
  if (typeof schema.$ref === 'string' && Object.keys(schema).length > 1) {
    const { $ref, ...rest } = schema;
    return { ...rest, allOf: [{ $ref }, ...((rest.allOf as Json[]) ?? [])] };
  }
  // `nullable` only applies beside a `type` in 3.0: a nullable choice without one says "any object".
  if (schema.nullable && schema.type === undefined && schema.allOf) schema.type = 'object';
  return schema;
}

/**
 * A 3.1 exclusive bound as the inclusive `minimum`/`maximum` both 3.0 readers agree on. An integer's bound moves to
 * the next integer inside the range; another number keeps the bound and excludes its value (`not: {enum: [n]}`).
 * An inclusive bound given too stays when it is the stricter one.
 */
function applyExclusiveBounds(schema: JsonObject, exclusive: { minimum?: number; maximum?: number }): void {
  const integer = schema.type === 'integer';
  const excluded: number[] = [];
  for (const side of ['minimum', 'maximum'] as const) {
    const bound = exclusive[side];
    if (bound === undefined) continue;
    const inclusive = schema[side];
    const lower = side === 'minimum';
    if (integer) {
      const next = lower ? Math.floor(bound) + 1 : Math.ceil(bound) - 1;
      schema[side] =
        typeof inclusive === 'number' ? (lower ? Math.max(inclusive, next) : Math.min(inclusive, next)) : next;
    } else if (typeof inclusive === 'number' && (lower ? inclusive > bound : inclusive < bound)) {
      // The inclusive bound already leaves the exclusive one out.
    } else {
      schema[side] = bound;
      excluded.push(bound);
    }
  }
  if (excluded.length) schema.allOf = [...((schema.allOf as Json[]) ?? []), { not: { enum: excluded } }];
}

/** Every schema of a parameter, header, media type or component, converted; the rest copied. */
function walk(node: Json, parentKey: string | undefined): Json {
  if (Array.isArray(node)) return node.map((item) => walk(item, parentKey));
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'schema') out[key] = schemaTo30(value);
    else if (parentKey === 'components' && key === 'schemas' && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, schemaTo30(schema)]));
    } else out[key] = walk(value, key);
  }
  return out;
}

/** The OpenAPI 3.0.3 form of a generated 3.1 document. */
export function toOpenApi30(document: object): JsonObject {
  const { openapi: _version, jsonSchemaDialect: _dialect, webhooks: _webhooks, ...rest } = document as JsonObject;
  const converted = walk(rest, undefined) as JsonObject;
  if (isObject(converted.info)) {
    const { summary: _summary, license, ...info } = converted.info;
    converted.info = isObject(license) ? { ...info, license: { name: String(license.name ?? '') } } : info;
  }
  if (isObject(converted.components)) {
    const { pathItems: _pathItems, ...components } = converted.components;
    converted.components = components;
  }
  return { openapi: '3.0.3', ...converted };
}
