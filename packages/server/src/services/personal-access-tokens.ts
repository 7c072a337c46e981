import {
  DomainError,
  generateId,
  type Miss,
  nothingUpdated,
  PERSONAL_ACCESS_TOKEN_MASK,
  PERSONAL_ACCESS_TOKEN_PREFIX,
  PERSONAL_ACCESS_TOKEN_RANDOM_LENGTH,
  type PersonalAccessToken,
  type PersonalAccessTokenCreate,
  rowNotFound,
} from '@gatehouse/schemas';
import { asc, eq } from 'drizzle-orm';
import { allOf } from '../db/conditions.ts';
import { personalAccessTokens } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { storedValueHash } from './stored-value-hash.ts';
import { findUser } from './users.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/**
 * Personal access tokens of a user (issue 24, reference `/users/{userId}/personal-access-tokens`). The value is
 * `pat_` and 32 random characters, answered once by the creation; only its SHA-256 hash is stored, so nothing can
 * read it back (lists and renames answer a fixed mask), and the audit log never sees it.
 */

export type PersonalAccessTokenRow = typeof personalAccessTokens.$inferSelect;

/** A new token value: the recognisable prefix, then about 165 random bits. */
export const generatePersonalAccessToken = () =>
  `${PERSONAL_ACCESS_TOKEN_PREFIX}${generateId(PERSONAL_ACCESS_TOKEN_RANDOM_LENGTH)}`;

/** What is stored in place of the value (hex SHA-256; the value's entropy makes a slow hash unnecessary). */
export const hashPersonalAccessToken = storedValueHash;

/** The API shape: the value only when given (the creation), the mask otherwise. */
export function toPersonalAccessToken(row: PersonalAccessTokenRow, value?: string): PersonalAccessToken {
  return {
    tenantId: row.tenantId,
    userId: row.userId,
    name: row.name,
    value: value ?? PERSONAL_ACCESS_TOKEN_MASK,
    createdAt: row.createdAt.getTime(),
    expiresAt: row.expiresAt?.getTime() ?? null,
  };
}

/** What the audit log keeps of a token: never the value or its hash. */
const auditImage = (row: PersonalAccessTokenRow) => ({
  name: row.name,
  createdAt: row.createdAt.getTime(),
  expiresAt: row.expiresAt?.getTime() ?? null,
});

/** Tokens are audited as part of their user. */
const audited = (userId: string) => ({ type: 'User', id: userId });

const tokenWhere = (userId: string, name: string) =>
  allOf(eq(personalAccessTokens.userId, userId), eq(personalAccessTokens.name, name));

/**
 * The user's token of that name to rename or delete. The reference writes by (user, name) without looking the user up,
 * so an unknown user misses like an unknown name: `miss` is its update's or deletion's 404.
 */
async function findToken(tx: TenantDb, userId: string, name: string, miss: Miss): Promise<PersonalAccessTokenRow> {
  const row = await tx.findOne(personalAccessTokens, tokenWhere(userId, name));
  if (!row) throw miss();
  return row;
}

/**
 * The token a presented value names, if it exists and has not expired, within the tenant: for exchanging a token
 * (RFC 8693 `subject_token`). Looked up by hash, so no comparison of secrets in application code.
 */
export async function findActivePersonalAccessToken(
  tenant: TenantDb,
  value: string,
): Promise<PersonalAccessTokenRow | undefined> {
  if (!value.startsWith(PERSONAL_ACCESS_TOKEN_PREFIX) || value.length > 256) return undefined;
  const row = await tenant.findOne(
    personalAccessTokens,
    eq(personalAccessTokens.valueHash, hashPersonalAccessToken(value)),
  );
  if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
  return row;
}

// The admin API's operations: list, create, rename, delete.

/** A user's tokens, oldest first, values masked. */
export async function listPersonalAccessTokens(tenant: TenantDb, userId: string): Promise<PersonalAccessToken[]> {
  await findUser(tenant, userId);
  const rows = await tenant.findMany(personalAccessTokens, {
    where: eq(personalAccessTokens.userId, userId),
    orderBy: [asc(personalAccessTokens.createdAt), asc(personalAccessTokens.name)],
  });
  return rows.map((row) => toPersonalAccessToken(row));
}

const nameExists = () => new DomainError('conflict', 'user.personal_access_token_name_exists');

/** A new token of the user, answered once with its value. A name the user already has is 422. */
export async function createPersonalAccessToken(
  ctx: WriteContext,
  userId: string,
  input: PersonalAccessTokenCreate,
): Promise<PersonalAccessToken> {
  const value = generatePersonalAccessToken();
  const row = await performWrite(ctx, 'Admin.UserPersonalAccessToken.Created', async (tx) => {
    await findUser(tx, userId);
    if (await tx.findOne(personalAccessTokens, tokenWhere(userId, input.name))) throw nameExists();
    const created = await tx.insert(personalAccessTokens, {
      userId,
      name: input.name,
      valueHash: hashPersonalAccessToken(value),
      expiresAt: input.expiresAt == null ? null : new Date(input.expiresAt),
    });
    return { result: created, entity: audited(userId), before: null, after: auditImage(created) };
  });
  return toPersonalAccessToken(row, value);
}

/** Renames a token; its value and expiry stay. A name the user already has is 422 (the primary key says so too). */
export function renamePersonalAccessToken(
  ctx: WriteContext,
  userId: string,
  name: string,
  newName: string,
): Promise<PersonalAccessToken> {
  return performWrite(ctx, 'Admin.UserPersonalAccessToken.Updated', async (tx) => {
    const found = await findToken(tx, userId, name, nothingUpdated);
    if (newName !== name && (await tx.findOne(personalAccessTokens, tokenWhere(userId, newName)))) throw nameExists();
    const [row] = await tx.update(personalAccessTokens, tokenWhere(userId, name), { name: newName });
    if (!row) throw nothingUpdated();
    return {
      result: toPersonalAccessToken(row),
      entity: audited(userId),
      before: auditImage(found),
      after: auditImage(row),
    };
  });
}

/** Deletes a token: exchanging it fails from then on. */
export function deletePersonalAccessToken(ctx: WriteContext, userId: string, name: string): Promise<void> {
  return performWrite(ctx, 'Admin.UserPersonalAccessToken.Deleted', async (tx) => {
    await findToken(tx, userId, name, rowNotFound);
    const [row] = await tx.delete(personalAccessTokens, tokenWhere(userId, name));
    if (!row) throw rowNotFound();
    return { result: undefined, entity: audited(userId), before: auditImage(row), after: null };
  });
}
