import { type SQL, sql } from 'drizzle-orm';
import type { Filter } from 'scim2-parse-filter';
import { parseFilter as parseTokens, type Token, Tokens, tokenizer } from 'scim2-parse-filter/lib/src/parser.js';
import { badRequest, ScimError } from './errors.ts';
import {
  type Attribute,
  findAttribute,
  pathText,
  type ResolvedPath,
  type ResourceType,
  resolvePath,
} from './schema.ts';

/**
 * SCIM filters (RFC 7644 §3.4.2.2): parsed by scim2-parse-filter, then resolved against the schema (names in any case,
 * types and operators checked) into {@link Condition}, which becomes one SQL condition over the stored resources.
 * Anything the grammar or the schema refuses is 400 `invalidFilter`; nothing reaches the database unchecked.
 *
 * Semantics, which `test/scim-filter.property.test.ts` holds the SQL to against an evaluation in JavaScript:
 * - text compares without regard to case, except attributes whose `caseExact` is true (`id`, `externalId`,
 *   `members.value`); `gt`/`ge`/`lt`/`le` order by code point;
 * - `ne` is the negation of `eq` (an absent attribute is `ne` anything);
 * - a sub-attribute of a multi-valued attribute (`emails.value eq "x"`) matches when any value matches;
 *   `emails[type eq "work"].value eq "x"` means the same value has both (Entra ID's form), while
 *   `emails[type eq "work"] and emails.value eq "x"` may be met by two values;
 * - `pr` matches a value that is assigned (empty text, arrays and objects are never stored);
 * - booleans take `eq`/`ne` with `true`/`false`; dates compare as instants (milliseconds).
 */

export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';

export type Condition =
  | { kind: 'and' | 'or'; items: Condition[] }
  | { kind: 'not'; item: Condition }
  | { kind: 'compare'; path: ResolvedPath; op: CompareOp; value: string | boolean }
  | { kind: 'present'; path: ResolvedPath }
  /** Some value of a multi-valued attribute meets `item`, whose paths name its sub-attributes. */
  | { kind: 'any'; path: ResolvedPath; item: Condition };

/** Longest filter accepted, and the most comparisons in one. */
const MAX_FILTER_LENGTH = 4096;
const MAX_TERMS = 100;
const MAX_DEPTH = 32;

const refuse = (detail: string) => badRequest('invalidFilter', detail);

/**
 * Entra ID's `attr[filter].sub op value` means one value meets both. scim2-parse-filter reads it as
 * `attr[filter] and attr.sub op value` (any value each), which cannot be told from the same text written by hand, so the
 * tokens are rewritten before parsing: `attr[(filter) and sub op value]`.
 */
function correlateTokens(tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index] as Token;
    if (token.type !== 'Bracket' || token.literal !== '].') {
      out.push(token);
      continue;
    }
    const open = out.map((item) => item.literal).lastIndexOf('[');
    const sub = tokens[index + 1];
    const op = tokens[index + 2];
    if (open < 0 || sub?.type !== 'Word' || op?.type !== 'Word')
      throw refuse('A "]." must be followed by a comparison.');
    const present = op.literal.toLowerCase() === 'pr';
    const value = present ? [] : [tokens[index + 3] ?? { type: 'EOT', literal: '' }];
    const inner = out.splice(open + 1);
    out.push(
      { type: 'Bracket', literal: '(' },
      ...inner,
      { type: 'Bracket', literal: ')' },
      { type: 'Word', literal: 'and' },
      sub,
      op,
      ...(value as Token[]),
      { type: 'Bracket', literal: ']' },
    );
    index += present ? 2 : 3;
  }
  return out;
}

/** The filter's syntax tree (scim2-parse-filter's parser, on the rewritten tokens); throws on a syntax error. */
function parseText(text: string): Filter {
  const list = new Tokens(correlateTokens(tokenizer(text)));
  const filter = parseTokens(list);
  if (list.peek().type !== 'EOT') throw new Error('unexpected text after the filter');
  return filter;
}

type Context = { type: ResourceType; terms: number; element?: Attribute };

function compareOf(path: ResolvedPath, op: CompareOp, value: unknown): Condition {
  const target = path.sub ?? path.attribute;
  if (target.type === 'complex') throw refuse(`"${pathText(path)}" is complex: compare one of its sub-attributes.`);
  if (value === null || typeof value === 'number') throw refuse(`"${pathText(path)}" takes no ${String(value)}.`);
  if (target.type === 'boolean') {
    if (typeof value !== 'boolean') throw refuse(`"${pathText(path)}" is a boolean: compare it with true or false.`);
    if (op !== 'eq' && op !== 'ne') throw refuse(`"${pathText(path)}" is a boolean: use eq or ne.`);
    return { kind: 'compare', path, op, value };
  }
  if (typeof value !== 'string') throw refuse(`"${pathText(path)}" compares with text.`);
  if (target.type === 'dateTime') {
    if (op === 'co' || op === 'sw' || op === 'ew')
      throw refuse(`"${pathText(path)}" is a date: use eq, ne, gt, ge, lt, le.`);
    const year = Number.isNaN(Date.parse(value)) ? Number.NaN : new Date(value).getUTCFullYear();
    if (!(year >= 1 && year <= 9999)) throw refuse(`"${value.slice(0, 100)}" is not a date and time.`);
  }
  return { kind: 'compare', path, op, value };
}

/** A path relative to a multi-valued attribute's values (inside `[…]`). */
function resolveElementPath(element: Attribute, attrPath: string): ResolvedPath {
  const sub = findAttribute(element.subAttributes, attrPath);
  if (!sub) throw refuse(`"${element.name}" has no sub-attribute "${attrPath.slice(0, 100)}".`);
  return { attribute: sub };
}

function resolveTop(type: ResourceType, attrPath: string): ResolvedPath {
  const path = resolvePath(type, attrPath, 'invalidFilter');
  const name = pathText(path);
  if (name === 'groups' || name.startsWith('groups.') || name === 'meta' || name.startsWith('meta.')) {
    if (name !== 'meta.created' && name !== 'meta.lastModified') throw refuse(`"${name}" cannot be filtered on.`);
  }
  return path;
}

function convert(node: Filter, context: Context, depth: number): Condition {
  if (depth > MAX_DEPTH) throw refuse('The filter is nested too deeply.');
  switch (node.op) {
    case 'and':
    case 'or':
      return { kind: node.op, items: node.filters.map((item) => convert(item, context, depth + 1)) };
    case 'not':
      return { kind: 'not', item: convert(node.filter, context, depth + 1) };
    case '[]': {
      if (context.element) throw refuse('A filter of values cannot hold another one.');
      const path = resolveTop(context.type, node.attrPath);
      if (path.sub || !path.attribute.multiValued || path.attribute.type !== 'complex') {
        throw refuse(`"${pathText(path)}" has no values to filter.`);
      }
      const item = convert(node.valFilter, { ...context, element: path.attribute }, depth + 1);
      return { kind: 'any', path, item };
    }
    default: {
      context.terms += 1;
      if (context.terms > MAX_TERMS) throw refuse(`A filter may compare at most ${MAX_TERMS} times.`);
      const path = context.element
        ? resolveElementPath(context.element, node.attrPath)
        : resolveTop(context.type, node.attrPath);
      // `emails.value op x`: some value of the multi-valued attribute meets it (`ne`: none is equal).
      const spread = !context.element && path.sub !== undefined && path.attribute.multiValued;
      const target: ResolvedPath = spread && path.sub ? { attribute: path.sub } : path;
      const leaf: Condition =
        node.op === 'pr' ? { kind: 'present', path: target } : compareOf(target, node.op, node.compValue);
      if (spread) {
        const base: ResolvedPath = path.extension
          ? { extension: path.extension, attribute: path.attribute }
          : { attribute: path.attribute };
        if (leaf.kind === 'compare' && leaf.op === 'ne') {
          return { kind: 'not', item: { kind: 'any', path: base, item: { ...leaf, op: 'eq' } } };
        }
        return { kind: 'any', path: base, item: leaf };
      }
      if (!context.element && path.attribute.multiValued && leaf.kind === 'compare') {
        throw refuse(`"${pathText(path)}" is multi-valued: compare one of its sub-attributes.`);
      }
      return leaf;
    }
  }
}

/** A filter as the directory wrote it, checked against the schema of `type`; 400 `invalidFilter` when it is not one. */
export function parseFilter(type: ResourceType, text: string): Condition {
  if (text.length > MAX_FILTER_LENGTH) throw refuse(`A filter may be at most ${MAX_FILTER_LENGTH} characters long.`);
  let parsed: Filter;
  try {
    parsed = parseText(text);
  } catch (error) {
    if (error instanceof ScimError) throw error;
    throw refuse(`The filter cannot be read: ${error instanceof Error ? error.message.slice(0, 200) : 'syntax'}.`);
  }
  return convert(parsed, { type, terms: 0 }, 0);
}

// ——— SQL ———

/** A value a condition compares: text (with its case rule), a boolean (a column, or jsonb), or an instant. */
export type Operand =
  | { kind: 'text'; sql: SQL; caseExact: boolean }
  | { kind: 'boolean'; sql: SQL; json: boolean }
  | { kind: 'time'; sql: SQL };

/** Where a target keeps what a filter names. */
export type FilterScope = {
  operand(path: ResolvedPath): Operand;
  present(path: ResolvedPath): SQL;
  any(path: ResolvedPath, item: (scope: FilterScope) => SQL): SQL;
};

const orderOps = { gt: sql`>`, ge: sql`>=`, lt: sql`<`, le: sql`<=` } as const;

function compareText(operand: { sql: SQL; caseExact: boolean }, op: CompareOp, value: string): SQL {
  const a = operand.caseExact ? operand.sql : sql`lower(${operand.sql})`;
  const b = operand.caseExact ? sql`${value}::text` : sql`lower(${value}::text)`;
  switch (op) {
    case 'eq':
      return sql`coalesce(${a} = ${b}, false)`;
    case 'ne':
      return sql`not coalesce(${a} = ${b}, false)`;
    case 'co':
      return sql`coalesce(strpos(${a}, ${b}) > 0, false)`;
    case 'sw':
      return sql`coalesce(left(${a}, length(${b})) = ${b}, false)`;
    case 'ew':
      return sql`coalesce(right(${a}, length(${b})) = ${b}, false)`;
    default:
      return sql`coalesce((${a}) collate "C" ${orderOps[op]} (${b}) collate "C", false)`;
  }
}

function compare(operand: Operand, op: CompareOp, value: string | boolean): SQL {
  if (operand.kind === 'boolean') {
    const equal = operand.json
      ? sql`coalesce(${operand.sql} = ${JSON.stringify(value)}::jsonb, false)`
      : sql`coalesce(${operand.sql} = ${value === true}, false)`;
    return op === 'ne' ? sql`not ${equal}` : equal;
  }
  if (operand.kind === 'time') {
    const instant = sql`${new Date(String(value)).toISOString()}::timestamptz`;
    const at = sql`date_trunc('milliseconds', ${operand.sql})`;
    if (op === 'eq') return sql`coalesce(${at} = ${instant}, false)`;
    if (op === 'ne') return sql`not coalesce(${at} = ${instant}, false)`;
    const order = orderOps[op as keyof typeof orderOps];
    return sql`coalesce(${at} ${order} ${instant}, false)`;
  }
  return compareText(operand, op, String(value));
}

export function conditionSql(condition: Condition, scope: FilterScope): SQL {
  switch (condition.kind) {
    case 'and':
    case 'or': {
      const parts = condition.items.map((item) => conditionSql(item, scope));
      return sql`(${sql.join(parts, condition.kind === 'and' ? sql` and ` : sql` or `)})`;
    }
    case 'not':
      return sql`(not ${conditionSql(condition.item, scope)})`;
    case 'present':
      return scope.present(condition.path);
    case 'compare':
      return compare(scope.operand(condition.path), condition.op, condition.value);
    case 'any':
      return scope.any(condition.path, (inner) => conditionSql(condition.item, inner));
  }
}

/** The operand of an attribute kept in a jsonb object `base` (a stored resource, one value of a multi-valued one). */
export function jsonOperand(base: SQL, attribute: Attribute): Operand {
  if (attribute.type === 'boolean')
    return { kind: 'boolean', sql: sql`(${base} -> ${attribute.name}::text)`, json: true };
  return { kind: 'text', sql: sql`(${base} ->> ${attribute.name}::text)`, caseExact: attribute.caseExact };
}

const elementAlias = sql.raw('scim_value');

/** The scope of one value of a multi-valued attribute kept as a jsonb array. */
function elementScope(): FilterScope {
  const value = sql`${elementAlias}.value`;
  const scope: FilterScope = {
    operand: (path) => jsonOperand(value, path.attribute),
    present: (path) => sql`((${value} -> ${path.attribute.name}::text) is not null)`,
    any: () => {
      throw refuse('A filter of values cannot hold another one.');
    },
  };
  return scope;
}

/**
 * The scope of a stored resource (`resource` is its jsonb), with the attributes `columns` names read from columns
 * instead (`id`, `userName`, `meta.created`…) and multi-valued ones `relation` keeps in a table (a group's members).
 */
export function resourceScope(options: {
  resource: SQL;
  columns: Record<string, Operand>;
  relation?: (path: ResolvedPath, item: (scope: FilterScope) => SQL) => SQL | undefined;
}): FilterScope {
  const baseOf = (path: ResolvedPath) =>
    path.extension ? sql`(${options.resource} -> ${path.extension}::text)` : options.resource;
  const valuesAt = (path: ResolvedPath) => sql`(${baseOf(path)} -> ${path.attribute.name}::text)`;
  return {
    operand(path) {
      const column = options.columns[pathText(path)];
      if (column) return column;
      return path.sub ? jsonOperand(valuesAt(path), path.sub) : jsonOperand(baseOf(path), path.attribute);
    },
    present(path) {
      const column = options.columns[pathText(path)];
      if (column) return sql`(${column.sql} is not null)`;
      if (options.relation && path.attribute.multiValued) {
        const related = options.relation(path, () => sql`true`);
        if (related) return related;
      }
      const target = path.sub ? sql`(${valuesAt(path)} -> ${path.sub.name}::text)` : valuesAt(path);
      return sql`(${target} is not null)`;
    },
    any(path, item) {
      const related = options.relation?.(path, item);
      if (related) return related;
      const values = valuesAt(path);
      const array = sql`case when jsonb_typeof(${values}) = 'array' then ${values} else '[]'::jsonb end`;
      return sql`exists (select 1 from jsonb_array_elements(${array}) as ${elementAlias}(value) where ${item(elementScope())})`;
    },
  };
}
