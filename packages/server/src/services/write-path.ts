import {
  type Actor,
  DomainError,
  generateId,
  type HookEvent,
  invalidFields,
  type LogKey,
  redactSecrets,
} from '@gatehouse/schemas';
import type { z } from 'zod';
import { announceChange, type ChangeNotice, type ChangeNotices } from '../db/change-notices.ts';
import { fromDatabaseError } from '../db/database-errors.ts';
import { logs, outbox } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { diffFields } from './diff.ts';

/**
 * The management request behind a write, as the reference's webhooks describe it: the path and route template
 * without the `/api` base, the method, the status the request answers and the route's parameters.
 */
export type RequestContext = {
  path: string;
  method: string;
  matchedRoute: string;
  status: number;
  params: Record<string, string>;
};

/** Who writes and from where; taken from the verified token and the request, never from the body. */
export type WriteContext = {
  tenant: TenantDb;
  actor: Actor;
  requestId?: string | undefined;
  ip?: string | undefined;
  userAgent?: string | undefined;
  /** Set for management API requests: the webhooks of the write's events carry it (services/webhooks.ts). */
  request?: RequestContext | undefined;
  /** This process's change notices: told at once of a committed change that caches hold (see {@link recordWrites}). */
  notices?: ChangeNotices | undefined;
};

export type DomainEvent = { event: HookEvent; data: unknown };

export type WriteOutcome<R> = {
  result: R;
  entity: { type: string; id: string };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  events?: DomainEvent[];
  /**
   * The request changed nothing (a relation POST of ids already linked): no audit entry. Its events are still sent,
   * as the reference's webhooks fire for such a request too.
   */
  unchanged?: boolean;
};

/** A write whose input has not been validated yet (callers other than a route: CLI, imports, services). */
export type WriteSpec<S extends z.ZodType> = {
  /** Audit-log key, `Admin.<Entity>.<Created|Updated|Deleted>` for admin writes. */
  key: LogKey;
  schema: S;
  input: unknown;
};

/** Validates untrusted input with a shared schema: `400 guard.invalid_input` with the failing fields. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new DomainError('invalid', 'guard.invalid_input', invalidFields(parsed.error));
  return parsed.data;
}

/**
 * The one path every admin write takes. In a single transaction it runs the write, appends an audit-log
 * entry with before/after and the changed fields, and appends the domain events to the outbox. If
 * anything throws, nothing of it is kept.
 *
 * The common case is one short call, `performWrite(ctx, 'Admin.Role.Deleted', work)`: the input was
 * validated at the edge (the route's zod contract). Given a `{key, schema, input}` spec instead, it
 * validates the input first and hands the parsed value to `work`.
 */
export function performWrite<R>(
  ctx: WriteContext,
  key: LogKey,
  work: (tx: TenantDb) => Promise<WriteOutcome<R>>,
): Promise<R>;
export function performWrite<S extends z.ZodType, R>(
  ctx: WriteContext,
  spec: WriteSpec<S>,
  work: (tx: TenantDb, input: z.output<S>) => Promise<WriteOutcome<R>>,
): Promise<R>;
export async function performWrite<S extends z.ZodType, R>(
  ctx: WriteContext,
  spec: LogKey | WriteSpec<S>,
  work: (tx: TenantDb, input: z.output<S>) => Promise<WriteOutcome<R>>,
): Promise<R> {
  const key = typeof spec === 'string' ? spec : spec.key;
  const input = typeof spec === 'string' ? (undefined as z.output<S>) : parseInput(spec.schema, spec.input);
  try {
    let announced: readonly CachedKind[] = [];
    const result = await ctx.tenant.transaction(async (tx) => {
      const outcome = await work(tx, input);
      announced = await recordWrites(tx, ctx, [{ key, outcome }]);
      return outcome.result;
    });
    changedHere(ctx, announced);
    return result;
  } catch (error) {
    throw fromDatabaseError(error);
  }
}

/**
 * The write path for many entities at once (bulk import): the caller validates each input with the same
 * schemas and runs the writes in `work`; each outcome still gets its own audit-log entry and events, written
 * with one multi-row statement per table in the same transaction, so 1,000 users cost a few statements.
 */
export async function performBatchWrite<R>(
  ctx: WriteContext,
  work: (tx: TenantDb) => Promise<{ key: LogKey; outcome: WriteOutcome<R> }[]>,
): Promise<R[]> {
  try {
    let announced: readonly CachedKind[] = [];
    const results = await ctx.tenant.transaction(async (tx) => {
      const writes = await work(tx);
      announced = await recordWrites(tx, ctx, writes);
      return writes.map(({ outcome }) => outcome.result);
    });
    changedHere(ctx, announced);
    return results;
  } catch (error) {
    throw fromDatabaseError(error);
  }
}

type CachedKind = Extract<ChangeNotice['kind'], 'clients' | 'grants'>;

/**
 * Entities the OIDC provider keeps in memory between requests (auth/oidc/client-cache.ts), by the change a write to
 * one announces: every process drops what it kept of the tenant's clients, or of their grants, when the write commits.
 * Relation writes are audited as their owner (a role's applications as the `Role`, an application's roles as the
 * `Application`), so both kinds drop the grants.
 */
const CACHED_ENTITY_TYPES: ReadonlyMap<string, CachedKind> = new Map([
  ['Application', 'clients'],
  ['Role', 'grants'],
  ['Resource', 'grants'],
  ['Scope', 'grants'],
]);

/** The committing process drops its own entries at once: its next request must see the change. */
function changedHere(ctx: WriteContext, kinds: readonly CachedKind[]): void {
  for (const kind of kinds) ctx.notices?.changedHere({ kind, tenantId: ctx.tenant.tenantId });
}

/**
 * The audit entries and outbox events of writes (one statement per table), and the change notices of writes to
 * entities the OIDC provider caches; answers the kinds it announced.
 */
async function recordWrites(
  tx: TenantDb,
  ctx: WriteContext,
  writes: readonly { key: LogKey; outcome: WriteOutcome<unknown> }[],
): Promise<CachedKind[]> {
  // Announced for unchanged writes too: a notice costs one statement, a stale client a revoked secret that still works.
  const announce = [...new Set(writes.flatMap(({ outcome }) => CACHED_ENTITY_TYPES.get(outcome.entity.type) ?? []))];
  for (const kind of announce) await announceChange(tx, kind);
  const { actor } = ctx;
  const changed = writes.filter(({ outcome }) => !outcome.unchanged);
  await tx.insertMany(
    logs,
    changed.map(({ key, outcome }) => ({
      id: generateId(),
      key,
      userId: actor.type === 'user' ? actor.id : null,
      applicationId: actor.type === 'application' ? actor.id : null,
      payload: {
        result: 'Success',
        actor,
        entity: outcome.entity,
        // Each write path leaves its secrets out already; the shared rule is the net under all of them (a secret in
        // custom data or a connector config that slipped through), and the console applies the same rule.
        before: redactSecrets(outcome.before),
        after: redactSecrets(outcome.after),
        changes: redactSecrets(diffFields(outcome.before, outcome.after)),
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        requestId: ctx.requestId,
      },
    })),
    // Written, never read back: RETURNING would send every payload back to be parsed again.
    { returning: false },
  );
  const createdAt = Date.now();
  // The request behind the events (management API): their webhooks carry it as the reference's do.
  const request = ctx.request ? { ...ctx.request, ip: ctx.ip, userAgent: ctx.userAgent } : undefined;
  await tx.insertMany(
    outbox,
    writes.flatMap(({ outcome }) =>
      (outcome.events ?? []).map(({ event, data }) => ({
        event,
        payload: { event, data, actor, createdAt, ...(request ? { request } : {}) },
      })),
    ),
    { returning: false },
  );
  return announce;
}
