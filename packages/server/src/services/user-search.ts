import {
  DomainError,
  type SearchSyntaxQuery,
  type UserListQuery,
  type UserSearchField,
  userSearchFields,
} from '@gatehouse/schemas';
import { and, desc, eq, ilike, inArray, like, not, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { allOf, anyOf } from '../db/conditions.ts';
import { organizationUsers, userCounts, users, usersRoles } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { likeSearchPattern } from './list-query.ts';
import { inRelation } from './relations.ts';

/**
 * The user list's WHERE clause and its total. Mode `like` is `ILIKE` (`LIKE` when case-sensitive) with the value as
 * the pattern, as the reference maps it: `search=%ali%` finds `malice`, `search=ali` only `ali` in any case. The
 * pg_trgm GIN indexes on the plain columns serve both (trigrams are lowercased, so one index answers LIKE and
 * ILIKE); exact search is an index lookup too. Totals avoid counting the whole tenant ({@link userListTotal}), and
 * the total decides how the page is read ({@link userListOrder}).
 */

const searchColumns: Record<UserSearchField, PgColumn> = {
  id: users.id,
  primaryEmail: users.primaryEmail,
  primaryPhone: users.primaryPhone,
  username: users.username,
  name: users.name,
};

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/**
 * Characters a stored value of each field can hold (the schemas enforce them). A search value with
 * other characters cannot match that field, so its condition and index scan are left out.
 */
const storedCharacters: Record<UserSearchField, RegExp> = {
  id: /^[\da-z]*$/i,
  primaryEmail: /^\S*$/,
  primaryPhone: /^\d*$/,
  username: /^\w*$/,
  name: /^/,
};

type Match = { mode: 'like' | 'exact'; caseSensitive: boolean };
type Term = { value: string; isPattern: boolean };

/**
 * The characters a LIKE pattern requires of a value it matches, in order: its unescaped `%` and `_` left out, its
 * escapes (`\x`) read as `x`.
 */
function patternLiterals(pattern: string): string {
  return pattern.replace(/\\(.)|[%_]/gs, (_all, escaped: string | undefined) => escaped ?? '');
}

/**
 * A search value as the field stores it, or undefined when it cannot match the field. In mode `like` the value is a
 * LIKE pattern (reference: `~~*`): `%` and `_` are wildcards and `\` escapes them (the console sends `%kw%` with
 * `_` escaped), so `search=john_doe` matches `john_doe` and `johnXdoe` whole. Phone numbers are stored as digits: a
 * phone typed with `+`, spaces, dashes or parentheses searches its digits.
 */
function termFor(field: UserSearchField, raw: string, match: Match): Term | undefined {
  const isPattern = match.mode === 'like';
  const literal = (value: string) => (isPattern ? patternLiterals(value) : value);
  let value = isPattern ? likeSearchPattern(raw) : raw;
  if (field === 'primaryPhone' && /^[\d\s()+-]*$/.test(literal(value))) value = value.replace(/[\s()+-]/g, '');
  return storedCharacters[field].test(literal(value)) ? { value, isPattern } : undefined;
}

/**
 * The literal text of a pattern `%text%` whose text holds no wildcard (a substring search, as the console sends), or
 * undefined for any other pattern.
 */
function substringOf(pattern: string): string | undefined {
  if (pattern.length < 2 || !pattern.startsWith('%') || !pattern.endsWith('%')) return undefined;
  const inner = pattern.slice(1, -1);
  // Wildcards left once the escapes are read: not a plain substring.
  if (/[%_]/.test(inner.replace(/\\./gs, ''))) return undefined;
  if (/\\$/.test(inner.replace(/\\./gs, ''))) return undefined;
  const text = patternLiterals(inner);
  return text === '' ? undefined : text;
}

/** Whole-value equality served by a btree: the unique `lower(...)` indexes, the phone index, the primary key. */
function exactCondition(field: UserSearchField, values: string[], caseSensitive: boolean): SQL {
  const column: PgColumn = searchColumns[field];
  const oneOf = (target: SQL, list: string[]) => (list.length === 1 ? eq(target, list[0]) : inArray(target, list));
  const plain = sql`${column}`;
  switch (field) {
    case 'username':
    case 'primaryEmail': {
      const lowered = oneOf(
        sql`lower(${column})`,
        values.map((value) => value.toLowerCase()),
      );
      // The index finds the value in any case; a case-sensitive search then keeps the exact spelling.
      return caseSensitive ? allOf(lowered, oneOf(plain, values)) : lowered;
    }
    case 'id':
      return oneOf(plain, caseSensitive ? values : values.map((value) => value.toLowerCase()));
    case 'primaryPhone':
      return oneOf(plain, values);
    case 'name':
      // No btree on names: ILIKE without wildcards is a case-insensitive equality the trigram index serves.
      if (caseSensitive) return oneOf(plain, values);
      // No value puts no condition on the field, as before `anyOf` (drizzle's `or()` of nothing).
      return values.length ? anyOf(...values.map((value) => ilike(column, escapeLike(value)))) : sql`true`;
  }
}

function fieldCondition(field: UserSearchField, values: readonly string[], match: Match): SQL {
  const column: PgColumn = searchColumns[field];
  const terms = values.flatMap((value) => termFor(field, value, match) ?? []);
  if (terms.length === 0) return sql`false`;
  if (match.mode === 'exact')
    return exactCondition(
      field,
      terms.map((term) => term.value),
      match.caseSensitive,
    );
  const [term] = terms as [Term];
  return match.caseSensitive ? like(column, term.value) : ilike(column, term.value);
}

/**
 * One condition of the search as `gatehouse_user_search` (migration 0024) answers it through the indexes under
 * row-level security: the ids of the users it matches, or a few more (`exact: false`: a case-sensitive exact
 * search finds the value in any case first). The SQL condition of the same field is applied to them afterwards.
 */
type Probe = {
  field: UserSearchField;
  op: 'like' | 'ilike' | 'equals' | 'equals_lower';
  terms: string[];
  exact: boolean;
  /** The whole term's pattern when `terms` holds a part of it ({@link probeWindow}): probed when the part is broad. */
  whole?: string[];
};
/** The search as probes: `search` is `or` over the fields, the top is `joint` over `search` and each `search.<field>`. */
type ProbeTree = Probe | 'nothing' | { joint: 'and' | 'or'; parts: ProbeTree[] };

function fieldProbe(field: UserSearchField, values: readonly string[], match: Match): ProbeTree {
  const terms = values.flatMap((value) => termFor(field, value, match) ?? []);
  if (terms.length === 0) return 'nothing';
  if (match.mode === 'like') {
    const [term] = terms as [Term];
    const op = match.caseSensitive ? 'like' : 'ilike';
    const text = substringOf(term.value);
    // A long substring is probed by a part of it, and so is any other pattern by a part of one of its literal runs
    // (`search=ivarovic_francesco_997033` reads `_` as a wildcard: a whole value with 23 trigrams to intersect): the
    // field's own condition keeps the true matches afterwards.
    const part = text === undefined ? literalWindow(term.value) : probeWindow(text);
    return part === undefined || part === text
      ? { field, op, terms: [term.value], exact: true }
      : { field, op, terms: [`%${escapeLike(part)}%`], exact: false, whole: [term.value] };
  }
  const plain = terms.map((term) => term.value);
  switch (field) {
    case 'username':
    case 'primaryEmail':
      return {
        field,
        op: 'equals_lower',
        terms: plain.map((value) => value.toLowerCase()),
        exact: !match.caseSensitive,
      };
    case 'id':
      return {
        field,
        op: 'equals',
        terms: match.caseSensitive ? plain : plain.map((value) => value.toLowerCase()),
        exact: true,
      };
    case 'primaryPhone':
      return { field, op: 'equals', terms: plain, exact: true };
    case 'name':
      return match.caseSensitive
        ? { field, op: 'equals', terms: plain, exact: true }
        : { field, op: 'ilike', terms: plain.map(escapeLike), exact: true };
  }
}

/**
 * The best part of a LIKE pattern's literal runs (its text between wildcards, escapes read) to probe the trigram index
 * with: each run's {@link probeWindow}, the one with the most digits, then the longest. Undefined when no run has the
 * three characters a trigram needs: the pattern is then probed as it is.
 */
export function literalWindow(pattern: string): string | undefined {
  const runs: string[] = [];
  let run = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string;
    if (char === '\\' && i + 1 < pattern.length) {
      run += pattern[++i];
    } else if (char === '%' || char === '_') {
      runs.push(run);
      run = '';
    } else run += char;
  }
  runs.push(run);
  const digits = (text: string) => [...text].filter((char) => char >= '0' && char <= '9').length;
  let best: string | undefined;
  for (const candidate of runs.map(probeWindow)) {
    if ([...candidate].length < 3) continue;
    if (
      best === undefined ||
      digits(candidate) > digits(best) ||
      (digits(candidate) === digits(best) && [...candidate].length > [...best].length)
    )
      best = candidate;
  }
  return best;
}

/** The longest substring probed whole; a longer one is probed by {@link probeWindow}. */
export const PROBE_WINDOW = 8;

/**
 * The part of a long substring search the trigram index is asked for: `PROBE_WINDOW` characters, those with the most
 * digits (the rarest characters in identifiers), the last such when several tie. Each trigram of a pattern is one
 * posting list the index reads and intersects: `%ivarovic_francesco_997033%` took 8.8 ms on usernames at a million
 * users, `%co_997033%` 0.8 ms, with the same match. The window's matches are a superset of the whole term's.
 */
export function probeWindow(value: string): string {
  const chars = [...value];
  if (chars.length <= PROBE_WINDOW) return value;
  let best = 0;
  let bestDigits = -1;
  for (let start = 0; start + PROBE_WINDOW <= chars.length; start++) {
    const digits = chars.slice(start, start + PROBE_WINDOW).filter((char) => char >= '0' && char <= '9').length;
    if (digits >= bestDigits) {
      best = start;
      bestDigits = digits;
    }
  }
  return chars.slice(best, best + PROBE_WINDOW).join('');
}

/** The search's probes, shaped as {@link userSearchCondition} shapes its SQL; undefined without a search. */
function searchProbes(query: UserListQuery): ProbeTree | undefined {
  const caseSensitive = query.isCaseSensitive ?? false;
  const parts: ProbeTree[] = [];
  const search = query.search;
  if (search) {
    const match: Match = { mode: query.mode ?? 'like', caseSensitive };
    const fields = userSearchFields.filter((field) => termFor(field, search, match));
    parts.push(
      fields.length ? { joint: 'or', parts: fields.map((field) => fieldProbe(field, [search], match)) } : 'nothing',
    );
  }
  for (const field of userSearchFields) {
    const value = query[`search.${field}`];
    if (value === undefined) continue;
    const match: Match = { mode: query[`mode.${field}`] ?? query.mode ?? 'like', caseSensitive };
    parts.push(fieldProbe(field, Array.isArray(value) ? value : [value], match));
  }
  if (parts.length === 0) return undefined;
  return { joint: query.joint ?? query.jointMode ?? 'or', parts };
}

/**
 * What the probes tell of the search's matches: `ids`, a set holding every match (and at most
 * {@link USER_COUNT_CAP} ids); `over`, more than the cap match; `unknown`, neither could be told cheaply
 * (every part of an `and` matches more than the cap: their intersection may be small or not).
 */
export type SearchCandidates = { kind: 'ids'; ids: string[] } | { kind: 'over' } | { kind: 'unknown' };

function candidatesOf(tree: ProbeTree, answers: Map<Probe, string[]>): SearchCandidates & { exact: boolean } {
  if (tree === 'nothing') return { kind: 'ids', ids: [], exact: true };
  if (!('joint' in tree)) {
    const ids = answers.get(tree) ?? [];
    const unique = [...new Set(ids)];
    return unique.length > USER_COUNT_CAP
      ? { kind: tree.exact ? 'over' : 'unknown', exact: tree.exact }
      : { kind: 'ids', ids: unique, exact: tree.exact };
  }
  const parts = tree.parts.map((part) => candidatesOf(part, answers));
  const exact = parts.every((part) => part.exact);
  const sets = parts.flatMap((part) => (part.kind === 'ids' ? [part.ids] : []));
  if (tree.joint === 'and') {
    // One part alone is that part; several parts none of which is a set could intersect in few users or many.
    if (sets.length === 0)
      return parts.length === 1 && parts[0]?.kind === 'over' ? { kind: 'over', exact } : { kind: 'unknown', exact };
    const [first = [], ...rest] = sets.sort((a, b) => a.length - b.length);
    const others = rest.map((set) => new Set(set));
    return { kind: 'ids', ids: first.filter((id) => others.every((set) => set.has(id))), exact: false };
  }
  if (parts.some((part) => part.kind === 'over')) return { kind: 'over', exact };
  if (parts.some((part) => part.kind === 'unknown')) return { kind: 'unknown', exact };
  const union = [...new Set(sets.flat())];
  if (union.length <= USER_COUNT_CAP) return { kind: 'ids', ids: union, exact };
  return { kind: exact ? 'over' : 'unknown', exact };
}

const probesIn = (tree: ProbeTree): Probe[] =>
  tree === 'nothing' ? [] : 'joint' in tree ? tree.parts.flatMap(probesIn) : [tree];

/**
 * The search's candidates, read through `gatehouse_user_search` (migration 0024) in one statement: each probe
 * answers at most one id over the cap, so a broad search costs a bounded read. Undefined without a search.
 */
export async function searchCandidates(tenant: TenantDb, query: UserListQuery): Promise<SearchCandidates | undefined> {
  assertNoEmptySearchValue(query);
  const tree = searchProbes(query);
  if (!tree) return undefined;
  const probes = probesIn(tree);
  const answers = new Map<Probe, string[]>(probes.map((probe) => [probe, []]));
  const read = async (asked: Probe[], termsOf: (probe: Probe) => string[]) => {
    if (asked.length === 0) return;
    const statement = sql.join(
      asked.map(
        (probe, index) =>
          sql`select ${index}::int as probe, id from gatehouse_user_search(${probe.field}, ${probe.op}, ${sql.param(termsOf(probe))}::text[], ${USER_COUNT_CAP + 1}) as found(id)`,
      ),
      sql` union all `,
    );
    const result = (await tenant.asTenant((db) => db.execute(statement))) as unknown as {
      rows: { probe: number; id: string }[];
    };
    for (const probe of asked) answers.set(probe, []);
    for (const row of result.rows) answers.get(asked[row.probe] as Probe)?.push(row.id);
  };
  await read(probes, (probe) => probe.terms);
  // A part of a long term that matched more than the cap: the whole term, which may match few (one more statement).
  const broad = probes.filter((probe) => probe.whole && (answers.get(probe)?.length ?? 0) > USER_COUNT_CAP);
  await read(broad, (probe) => probe.whole ?? probe.terms);
  for (const probe of broad) probe.exact = true;
  const { exact: _exact, ...candidates } = candidatesOf(tree, answers);
  return candidates;
}

/**
 * An empty search value is refused as the reference refuses it: 400 `request.invalid_input` (its search-syntax
 * code), naming the parameter. Ignoring it would answer every user to a client that meant to search.
 */
function assertNoEmptySearchValue(query: SearchSyntaxQuery<UserSearchField>): void {
  const keys = ['search', ...userSearchFields.map((field) => `search.${field}` as const)] as const;
  for (const key of keys) {
    const value = query[key];
    if (value === '' || (Array.isArray(value) && value.includes(''))) {
      throw new DomainError('invalid', 'request.invalid_input', [
        { path: key, message: 'Search value cannot be empty.', code: 'custom' },
      ]);
    }
  }
}

/**
 * The search part of the query: `search` over every field, `search.<field>` per field, combined by `joint`. Also the
 * search of the lists of users a role holds (`GET /roles/{id}/users`), which take the same syntax.
 */
export function userSearchCondition(query: SearchSyntaxQuery<UserSearchField>): SQL | undefined {
  assertNoEmptySearchValue(query);
  const caseSensitive = query.isCaseSensitive ?? false;
  const conditions: SQL[] = [];
  const search = query.search;
  if (search) {
    const match: Match = { mode: query.mode ?? 'like', caseSensitive };
    const fields = userSearchFields.filter((field) => termFor(field, search, match));
    conditions.push(
      fields.length ? anyOf(...fields.map((field) => fieldCondition(field, [search], match))) : sql`false`,
    );
  }
  for (const field of userSearchFields) {
    const value = query[`search.${field}`];
    if (value === undefined) continue;
    const match: Match = { mode: query[`mode.${field}`] ?? query.mode ?? 'like', caseSensitive };
    conditions.push(fieldCondition(field, Array.isArray(value) ? value : [value], match));
  }
  if (conditions.length === 0) return undefined;
  const joint = query.joint ?? query.jointMode ?? 'or';
  return joint === 'and' ? allOf(...conditions) : anyOf(...conditions);
}

const hasSearch = (query: UserListQuery) =>
  Boolean(query.search) || userSearchFields.some((field) => Boolean(query[`search.${field}`]));

/**
 * The WHERE clause of GET /users (without the tenant, which TenantDb adds). With the search's `candidates`
 * ({@link searchCandidates}) the rows are fetched by their ids (the primary key), and the search's condition
 * keeps only the matches among them.
 */
export function userListCondition(
  tenant: TenantDb,
  query: UserListQuery,
  candidates?: SearchCandidates,
): SQL | undefined {
  const conditions: SQL[] = [];
  if (candidates?.kind === 'ids') conditions.push(sql`${users.id} = any(${sql.param(candidates.ids)}::varchar[])`);
  const search = userSearchCondition(query);
  if (search) conditions.push(search);
  if (query.isSuspended !== undefined) {
    conditions.push(query.isSuspended ? eq(users.isSuspended, true) : not(users.isSuspended));
  }
  if (query.roleId) {
    conditions.push(inRelation(tenant, users.id, usersRoles, usersRoles.userId, eq(usersRoles.roleId, query.roleId)));
  }
  if (query.excludeRoleId) {
    // NOT EXISTS, not NOT IN: PostgreSQL turns it into an anti-join probing the assignments' primary key
    // per user, while NOT IN over a big role's 400,000 holders (too many to hash) rescans them for every user.
    conditions.push(
      sql`not exists (select 1 from ${usersRoles} where ${tenant.scope(
        usersRoles,
        and(eq(usersRoles.roleId, query.excludeRoleId), eq(usersRoles.userId, users.id)),
      )})`,
    );
  }
  if (query.excludeOrganizationId) {
    // Anti-join on the membership primary key (tenant, organization, user), like excludeRoleId.
    conditions.push(
      sql`not exists (select 1 from ${organizationUsers} where ${tenant.scope(
        organizationUsers,
        and(eq(organizationUsers.organizationId, query.excludeOrganizationId), eq(organizationUsers.userId, users.id)),
      )})`,
    );
  }
  return conditions.length ? and(...conditions) : undefined;
}

/** Every user of the tenant, from the counter the users table's triggers keep (exact, a few rows read). */
export async function countTenantUsers(tenant: TenantDb): Promise<number> {
  const rows = await tenant.findMany(userCounts);
  return rows.reduce((sum, row) => sum + row.count, 0);
}

/** Users holding a role: every users_roles row points at an existing user (foreign key), so no join is needed. */
const countRoleHolders = (tenant: TenantDb, roleId: string) => tenant.count(usersRoles, eq(usersRoles.roleId, roleId));
/** Members of an organization: every membership row points at an existing user (foreign key). */
const countMembers = (tenant: TenantDb, organizationId: string) =>
  tenant.count(organizationUsers, eq(organizationUsers.organizationId, organizationId));
/** Suspended users are few and have their own partial index. */
const countSuspended = (tenant: TenantDb) => tenant.count(users, eq(users.isSuspended, true));

/**
 * Counting stops here for searches and combined filters: beyond it the answer is
 * `Total-Number: 10000` with `Total-Number-Is-Capped: true` (the reference API's header for capped
 * counts). A search matching more than this many users is refined, not paged through.
 */
export const USER_COUNT_CAP = 10_000;

export type UserListTotal = { total: number; capped: boolean };

/**
 * The total of a user list, the cheap way: the unfiltered list reads the tenant's counter; a single
 * role or suspension filter is counted on its small side (the role's assignments, the suspended
 * users) and subtracted from the counter when negated. These are exact. Searches and combined
 * filters count the matching rows up to {@link USER_COUNT_CAP}.
 */
export async function userListTotal(
  tenant: TenantDb,
  query: UserListQuery,
  where: SQL | undefined,
  tenantUsers: number,
  candidates?: SearchCandidates,
): Promise<UserListTotal> {
  const filters = [
    query.isSuspended !== undefined,
    Boolean(query.roleId),
    Boolean(query.excludeRoleId),
    Boolean(query.excludeOrganizationId),
  ].filter(Boolean).length;
  const exact = (total: number) => ({ total: Math.max(0, total), capped: false });
  if (!hasSearch(query) && filters <= 1) {
    if (filters === 0) return exact(tenantUsers);
    if (query.roleId) return exact(await countRoleHolders(tenant, query.roleId));
    if (query.excludeRoleId) return exact(tenantUsers - (await countRoleHolders(tenant, query.excludeRoleId)));
    if (query.excludeOrganizationId) {
      return exact(tenantUsers - (await countMembers(tenant, query.excludeOrganizationId)));
    }
    const suspended = await countSuspended(tenant);
    return exact(query.isSuspended ? suspended : tenantUsers - suspended);
  }
  // More than the cap match the search alone: the total says so without counting them again.
  if (candidates?.kind === 'over' && filters === 0) return { total: USER_COUNT_CAP, capped: true };
  const counted = await tenant.countUpTo(users, where, USER_COUNT_CAP, { rememberOverCap: true });
  return counted > USER_COUNT_CAP ? { total: USER_COUNT_CAP, capped: true } : exact(counted);
}

/**
 * Newest first, ties broken by id. Walking the `(tenant, created_at DESC, id DESC)` index and
 * filtering costs about (offset + limit) × users / matches rows; fetching the matches through the
 * search indexes and sorting them costs about `matches`. PostgreSQL cannot estimate an ILIKE's
 * matches, and with `LIMIT` it walks the index even for a search matching one user in a million
 * (a full scan). The total is known here, so we choose: when the matches are few, the sort key is
 * an expression no index provides (`created_at + 0`, same order), which leaves the planner the
 * search indexes.
 */
export function userListOrder(
  total: UserListTotal,
  tenantUsers: number,
  page: { limit: number; offset: number },
): SQL[] {
  const matches = Math.max(total.total, 1);
  const walk = ((page.offset + page.limit) * tenantUsers) / matches;
  if (total.capped || walk <= matches) return [desc(users.createdAt), desc(users.id)];
  return [sql`${users.createdAt} + interval '0 seconds' desc`, desc(users.id)];
}
