import type { ErrorCode, LogKey } from '@gatehouse/schemas';
import { DomainError } from '@gatehouse/schemas';
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { TenantDb, TenantTable } from '../db/tenant-db.ts';
import { addIds, type IdSet, idsOf, removeId, replaceIds } from './organization-relations.ts';
import { type DomainEvent, performWrite, type WriteContext } from './write-path.ts';

/**
 * `column IN (SELECT pick FROM relation WHERE <tenant> AND where)`: rows linked through a relation
 * table (role ↔ user, role ↔ scope, …). The subquery is scoped to the tenant like every statement.
 */
export function inRelation(tenant: TenantDb, column: PgColumn, relation: TenantTable, pick: PgColumn, where: SQL): SQL {
  return sql`${column} in (select ${pick} from ${relation} where ${tenant.scope(relation, where)})`;
}

/** The negation of {@link inRelation}: rows not linked (the `exclude…Id` list filters). */
export function notInRelation(
  tenant: TenantDb,
  column: PgColumn,
  relation: TenantTable,
  pick: PgColumn,
  where: SQL,
): SQL {
  return sql`${column} not in (select ${pick} from ${relation} where ${tenant.scope(relation, where)})`;
}

/**
 * When some requested ids do not exist in this tenant (`data.ids` lists them): 404 `entity.not_exists_with_id` for
 * `'id'`, 422 `entity.relation_foreign_key_not_found` for `'foreign_key'`, or 404 `entity.not_found` for `'row'` (ids
 * the reference looks up with a one-row query: users).
 */
export function assertAllFound(
  requested: readonly string[],
  found: Iterable<string>,
  miss: 'id' | 'foreign_key' | 'row' = 'id',
): void {
  const known = new Set(found);
  const missing = [...new Set(requested)].filter((id) => !known.has(id));
  if (!missing.length) return;
  // The reference's codes: an id its generic finder does not find is 404 `entity.not_exists_with_id` (its user finder
  // is a one-row query: `entity.not_found`); a foreign key the database refuses (organization relations) is 422
  // `entity.relation_foreign_key_not_found`.
  const data = { ids: missing };
  if (miss === 'row') throw new DomainError('not_found', 'entity.not_found', data);
  if (miss === 'foreign_key') throw new DomainError('unprocessable', 'entity.relation_foreign_key_not_found', data);
  throw new DomainError('not_found', 'entity.not_exists_with_id', data);
}

/** The audited state of a relation's owner: what `before` and `after` of the audit entry hold. */
export type RelationState = Record<string, unknown>;

/**
 * The data side of a relation (role ↔ scopes, organization ↔ users, …): who owns the link rows, where
 * they are, and how a change is audited and announced. Every write goes through {@link changeRelation}.
 */
export type Relation<P, O, T extends TenantTable, S extends RelationState = RelationState> = {
  /** The owner the path names, or 404 `entity.not_exists_with_id`; checked first by every operation. */
  owner: (tx: TenantDb, params: P) => Promise<O>;
  /** The owner's link rows. */
  links: (params: P) => IdSet<T>;
  audit: {
    key: LogKey;
    entity: (params: P) => { type: string; id: string };
    /**
     * A field name: before/after name only the ids this request removed/added under it (an owner may have
     * very many links, e.g. a role's users). A function: the owner's whole state, before and after.
     */
    state: string | ((tx: TenantDb, params: P) => Promise<S>);
  };
  /** Domain events of a change (outbox), read after it. */
  events?: (tx: TenantDb, owner: O, change: RelationChange, params: P) => Promise<DomainEvent[]> | DomainEvent[];
};

/** An audited state that is the whole set of linked ids, under `field` (for owners with few links). */
export function wholeSet<P, T extends TenantTable>(field: string, links: (params: P) => IdSet<T>) {
  return async (tx: TenantDb, params: P): Promise<Record<string, string[]>> => ({
    [field]: await idsOf(tx, links(params)),
  });
}

/** The audit of a relation whose owner is the path's `{id}`: `<key>` on entity `<type>` `id`. */
export function auditOwner<S>(key: LogKey, type: string, state: S) {
  return { key, entity: ({ id }: { id: string }) => ({ type, id }), state };
}

/** The ids a write linked and unlinked, in the order they came. */
export type RelationChange = { added: string[]; removed: string[] };

/**
 * What a write did: the change, the audited state before and after it, and the ids the request named (after its
 * domain rules: names resolved, repeats counted once); empty for a removal.
 */
export type RelationResult<S> = RelationChange & { before: S; after: S; requested: string[] };

/**
 * One write to a relation. `add` with `exists` answers 422 `exists` (data.ids) for ids already linked and
 * adds nothing; without it they are left as they are. `remove` answers 404 when the id is not linked.
 */
export type RelationWrite =
  | { kind: 'add'; ids: readonly string[]; exists?: ErrorCode | undefined }
  | { kind: 'replace'; ids: readonly string[] }
  | { kind: 'remove'; id: string };

/**
 * The one write path of relations: in one transaction, the owner (404), the state before, the ids the
 * caller accepts (its domain rules: 404/422), the write, the state after, the audit entry and the events.
 */
export function changeRelation<P, O, T extends TenantTable, S extends RelationState>(
  ctx: WriteContext,
  relation: Relation<P, O, T, S>,
  params: P,
  accept: (tx: TenantDb, owner: O) => Promise<RelationWrite>,
): Promise<RelationResult<S>> {
  const { audit } = relation;
  return performWrite(ctx, audit.key, async (tx) => {
    const owner = await relation.owner(tx, params);
    const state = typeof audit.state === 'function' ? audit.state : undefined;
    const before = state ? await state(tx, params) : undefined;
    const write = await accept(tx, owner);
    const links = relation.links(params);
    const change = await applyWrite(tx, links, write);
    const after = state ? await state(tx, params) : undefined;
    const touched = (ids: string[]) => ({ [audit.state as string]: [...ids].sort() }) as RelationState as S;
    const result: RelationResult<S> = {
      ...change,
      requested: write.kind === 'remove' ? [] : [...new Set(write.ids)],
      before: before ?? touched(change.removed),
      after: after ?? touched(change.added),
    };
    return {
      result,
      entity: audit.entity(params),
      before: result.before,
      after: result.after,
      events: relation.events ? await relation.events(tx, owner, change, params) : [],
      // Adding ids that were all linked already changes nothing: not an admin write worth an entry.
      unchanged: change.added.length === 0 && change.removed.length === 0,
    };
  });
}

async function applyWrite<T extends TenantTable>(
  tx: TenantDb,
  links: IdSet<T>,
  write: RelationWrite,
): Promise<RelationChange> {
  switch (write.kind) {
    case 'add':
      return { added: await addIds(tx, links, write.ids, write.exists), removed: [] };
    case 'replace': {
      const { added, removed } = await replaceIds(tx, links, write.ids);
      return { added, removed };
    }
    case 'remove':
      await removeId(tx, links, write.id);
      return { added: [], removed: [write.id] };
  }
}
