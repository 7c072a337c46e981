import {
  DomainError,
  generateId,
  notFound,
  ONE_TIME_TOKEN_DEFAULT_EXPIRES_IN,
  ONE_TIME_TOKEN_LENGTH,
  ONE_TIME_TOKEN_MASK,
  type OneTimeToken,
  type OneTimeTokenCreate,
  type OneTimeTokenListQuery,
  type OneTimeTokenStatus,
  rowNotFound,
} from '@gatehouse/schemas';
import { and, desc, eq, gt, lte, or, type SQL } from 'drizzle-orm';
import { allOf } from '../db/conditions.ts';
import { oneTimeTokens } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { type ListQuery, tableList } from './list-query.ts';
import { storedValueHash } from './stored-value-hash.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/**
 * One-time tokens (reference `/one-time-tokens`): a random value issued for an email address, spent once by a
 * verification. The value is 32 random characters of [0-9a-z], answered by the creation; only its SHA-256 hash is
 * stored (the value's entropy makes a slow hash unnecessary), so other answers show a mask, and neither the value nor
 * its hash reaches the audit log.
 *
 * Expiry is read, not written: an `active` row whose `expires_at` has passed answers `expired`, and the status filter
 * agrees, so no request has to rewrite rows as time passes (the reference rewrites them lazily, when the same address
 * gets a new token or the token is verified).
 */

export type OneTimeTokenRow = typeof oneTimeTokens.$inferSelect;

export const hashOneTimeToken = storedValueHash;

/** The status a row answers now: `expired` once an active token's time is up. */
export function effectiveStatus(row: OneTimeTokenRow, now = Date.now()): OneTimeTokenStatus {
  return row.status === 'active' && row.expiresAt.getTime() <= now ? 'expired' : row.status;
}

/** The API shape: the value only when given (the creation, a verification), the mask otherwise. */
export function toOneTimeToken(row: OneTimeTokenRow, token?: string): OneTimeToken {
  return {
    tenantId: row.tenantId,
    id: row.id,
    email: row.email,
    token: token ?? ONE_TIME_TOKEN_MASK,
    context: row.context,
    status: effectiveStatus(row),
    createdAt: row.createdAt.getTime(),
    expiresAt: row.expiresAt.getTime(),
  };
}

/** What the audit log keeps of a token: never the value or its hash. */
const auditImage = (row: OneTimeTokenRow) => ({
  id: row.id,
  email: row.email,
  context: row.context,
  status: effectiveStatus(row),
  expiresAt: row.expiresAt.getTime(),
});

const audited = (id: string) => ({ type: 'OneTimeToken', id });

/** The condition of a status as it answers ({@link effectiveStatus}). */
function statusCondition(status: OneTimeTokenStatus, now: Date): SQL | undefined {
  if (status === 'active') return and(eq(oneTimeTokens.status, 'active'), gt(oneTimeTokens.expiresAt, now));
  if (status === 'expired') {
    return or(
      eq(oneTimeTokens.status, 'expired'),
      and(eq(oneTimeTokens.status, 'active'), lte(oneTimeTokens.expiresAt, now)),
    );
  }
  return eq(oneTimeTokens.status, status);
}

/** `GET /one-time-tokens`: newest first, by exact email and by status. */
export function oneTimeTokenListQuery(filter: Pick<OneTimeTokenListQuery, 'email' | 'status'>): ListQuery {
  return {
    where: and(
      filter.email === undefined ? undefined : eq(oneTimeTokens.email, filter.email),
      filter.status === undefined ? undefined : statusCondition(filter.status, new Date()),
    ),
    orderBy: [desc(oneTimeTokens.createdAt), desc(oneTimeTokens.id)],
  };
}

/** `GET /one-time-tokens`: the tokens a filter selects, newest first. */
export function oneTimeTokenList(tenant: TenantDb, filter: Pick<OneTimeTokenListQuery, 'email' | 'status'>) {
  return tableList(tenant, oneTimeTokens, oneTimeTokenListQuery(filter));
}

async function findToken(tenant: TenantDb, id: string): Promise<OneTimeTokenRow> {
  const row = await tenant.findOne(oneTimeTokens, eq(oneTimeTokens.id, id));
  if (!row) throw notFound();
  return row;
}

export async function getOneTimeToken(tenant: TenantDb, id: string): Promise<OneTimeToken> {
  return toOneTimeToken(await findToken(tenant, id));
}

/** A new token for the address, answered once with its value. */
export async function createOneTimeToken(ctx: WriteContext, input: OneTimeTokenCreate): Promise<OneTimeToken> {
  const value = generateId(ONE_TIME_TOKEN_LENGTH);
  const expiresIn = input.expiresIn ?? ONE_TIME_TOKEN_DEFAULT_EXPIRES_IN;
  const row = await performWrite(ctx, 'Admin.OneTimeToken.Created', async (tx) => {
    const created = await tx.insert(oneTimeTokens, {
      id: generateId(),
      email: input.email,
      tokenHash: hashOneTimeToken(value),
      context: input.context ?? {},
      expiresAt: new Date(Date.now() + Math.round(expiresIn * 1000)),
    });
    return { result: created, entity: audited(created.id), before: null, after: auditImage(created) };
  });
  return toOneTimeToken(row, value);
}

/** Why a token cannot be spent now, in the reference's order of checks (expiry first, then how it ended). */
function refusal(row: OneTimeTokenRow, email: string): DomainError | undefined {
  if (row.email !== email) return new DomainError('invalid', 'one_time_token.email_mismatch');
  const status = effectiveStatus(row);
  if (status === 'expired') return new DomainError('invalid', 'one_time_token.token_expired');
  if (status === 'consumed') return new DomainError('invalid', 'one_time_token.token_consumed');
  if (status === 'revoked') return new DomainError('invalid', 'one_time_token.token_revoked');
  return undefined;
}

/**
 * Spends a token: the one whose value this is, issued for this address, active and unexpired, becomes `consumed`. An
 * unknown value is 404 `one_time_token.token_not_found`; the others 400 with the reason. Two verifications at once
 * spend it once: the update only takes a row still active.
 */
export async function verifyOneTimeToken(
  ctx: WriteContext,
  input: { token: string; email: string },
): Promise<OneTimeToken> {
  const row = await performWrite(ctx, 'Admin.OneTimeToken.Updated', async (tx) => {
    const found = await tx.findOne(oneTimeTokens, eq(oneTimeTokens.tokenHash, hashOneTimeToken(input.token)));
    if (!found) throw new DomainError('not_found', 'one_time_token.token_not_found');
    const refused = refusal(found, input.email);
    if (refused) throw refused;
    const [consumed] = await tx.update(
      oneTimeTokens,
      allOf(
        eq(oneTimeTokens.id, found.id),
        eq(oneTimeTokens.status, 'active'),
        gt(oneTimeTokens.expiresAt, new Date()),
      ),
      { status: 'consumed' },
    );
    if (!consumed) {
      // Spent (or revoked) by another request since it was read: answer what it is now.
      const now = await findToken(tx, found.id);
      throw refusal(now, input.email) ?? new DomainError('invalid', 'one_time_token.token_consumed');
    }
    return { result: consumed, entity: audited(consumed.id), before: auditImage(found), after: auditImage(consumed) };
  });
  return toOneTimeToken(row, input.token);
}

/** `PUT /one-time-tokens/{id}/status`: any status but `active` (400 `one_time_token.cannot_reactivate_token`). */
export function setOneTimeTokenStatus(
  ctx: WriteContext,
  id: string,
  status: OneTimeTokenStatus,
): Promise<OneTimeToken> {
  return performWrite(ctx, 'Admin.OneTimeToken.Updated', async (tx) => {
    const found = await findToken(tx, id);
    if (status === 'active') throw new DomainError('invalid', 'one_time_token.cannot_reactivate_token');
    const [row] = await tx.update(oneTimeTokens, eq(oneTimeTokens.id, id), { status });
    if (!row) throw notFound();
    return { result: toOneTimeToken(row), entity: audited(id), before: auditImage(found), after: auditImage(row) };
  });
}

/** Deletes a token: 404 `entity.not_found` when there is none (the reference's deletion by id). */
export function deleteOneTimeToken(ctx: WriteContext, id: string): Promise<void> {
  return performWrite(ctx, 'Admin.OneTimeToken.Deleted', async (tx) => {
    const [row] = await tx.delete(oneTimeTokens, eq(oneTimeTokens.id, id));
    if (!row) throw rowNotFound();
    return { result: undefined, entity: audited(id), before: auditImage(row), after: null };
  });
}
