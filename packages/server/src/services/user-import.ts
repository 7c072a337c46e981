import { availableParallelism } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import {
  checkPassword,
  DomainError,
  type ErrorCode,
  generateId,
  type LogKey,
  type PasswordPolicy,
  type UserCreate,
  userCreateSchema,
} from '@gatehouse/schemas';
import { eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { errorMessage } from '../i18n/messages.ts';
import { readSignInExperienceSettings } from './sign-in-experience.ts';
import type { ImportRecord, ImportRowError } from './user-import-source.ts';
import { encryptPassword, verifyStoredPassword } from './user-passwords.ts';
import { auditImage, toUser, type UserRow } from './users.ts';
import { performBatchWrite, type WriteContext, type WriteOutcome } from './write-path.ts';

/**
 * Importing users, one batch of records at a time: each record is validated with POST /users' schema and
 * password policy, matched to an existing user by username, then by email (an upsert, so a re-run of the same
 * file changes nothing), and written through the batch write path (one audit entry and one event per user,
 * a few statements per batch). Plaintext passwords are hashed with Argon2id, a few at a time; imported digests
 * are stored as they are (verified and upgraded at the first sign-in). A batch goes through three steps,
 * `checkBatch` (in file order), `prepareBatch` and `writePreparedBatch`; the worker (user-import-worker.ts) runs two
 * batches at a time and says why that equals one after the other.
 */

export const IMPORT_BATCH_SIZE = 500;
/** Argon2id runs on the thread pool; more at once than the cores would only queue. */
const HASH_CONCURRENCY = Math.max(1, Math.min(4, availableParallelism()));

export type BatchResult = { created: number; updated: number; unchanged: number; errors: ImportRowError[] };

/** Identifiers already claimed by an earlier record of the same file (lowercased username/email, phone digits). */
export class SeenIdentifiers {
  readonly #lines = new Map<string, number>();
  /** The line that used this identifier first, after recording it for `line`. */
  claim(kind: string, value: string | undefined, line: number): number | undefined {
    if (!value) return undefined;
    const key = `${kind}:${kind === 'phone' ? value : value.toLowerCase()}`;
    const first = this.#lines.get(key);
    if (first === undefined) this.#lines.set(key, line);
    return first;
  }
}

type Valid = { line: number; input: UserCreate };
type Planned =
  | { kind: 'create'; line: number; input: UserCreate }
  | { kind: 'update'; line: number; input: UserCreate; existing: UserRow };
type PasswordColumns = { passwordEncrypted: string; passwordEncryptionMethod: string };

const fieldError = (line: number, field: string, code: ErrorCode | string, message: string): ImportRowError => ({
  line,
  field,
  code,
  message,
});

function validate(record: ImportRecord, policy: PasswordPolicy, seen: SeenIdentifiers): Valid | ImportRowError[] {
  const parsed = userCreateSchema.safeParse(record.values);
  if (!parsed.success) {
    return parsed.error.issues.map((issue) =>
      fieldError(record.line, issue.path.map(String).join('.'), 'guard.invalid_input', issue.message),
    );
  }
  const input = parsed.data;
  if (input.password !== undefined) {
    const rejections = checkPassword(input.password, policy, input);
    if (rejections.length > 0) {
      return [
        fieldError(
          record.line,
          'password',
          'password.rejected',
          `${errorMessage('password.rejected', 'en')} (${rejections.join(', ')})`,
        ),
      ];
    }
  }
  const duplicates = (
    [
      ['username', 'username', input.username],
      ['email', 'primaryEmail', input.primaryEmail],
      ['phone', 'primaryPhone', input.primaryPhone],
    ] as const
  ).flatMap(([kind, field, value]) => {
    const first = seen.claim(kind, value, record.line);
    return first === undefined
      ? []
      : [
          fieldError(
            record.line,
            field,
            'import.duplicate_in_file',
            `Line ${first} of the file has the same ${field}.`,
          ),
        ];
  });
  return duplicates.length ? duplicates : { line: record.line, input };
}

/** The batch's existing users holding any of its usernames, emails or phones, in one query. */
async function existingUsers(tenant: TenantDb, valid: readonly Valid[]): Promise<UserRow[]> {
  const lower = (values: (string | undefined)[]) => [
    ...new Set(values.filter((value): value is string => Boolean(value)).map((value) => value.toLowerCase())),
  ];
  const usernames = lower(valid.map(({ input }) => input.username));
  const emails = lower(valid.map(({ input }) => input.primaryEmail));
  const phones = [...new Set(valid.flatMap(({ input }) => (input.primaryPhone ? [input.primaryPhone] : [])))];
  const conditions: SQL[] = [];
  if (usernames.length) conditions.push(inArray(sql`lower(${users.username})`, usernames));
  if (emails.length) conditions.push(inArray(sql`lower(${users.primaryEmail})`, emails));
  if (phones.length) conditions.push(inArray(users.primaryPhone, phones));
  if (!conditions.length) return [];
  return tenant.findMany(users, { where: or(...conditions) });
}

/** Upsert by username, then by email; a username, email or phone of another user is a conflict. */
function plan(valid: readonly Valid[], existing: readonly UserRow[]): (Planned | ImportRowError)[] {
  const index = (pick: (row: UserRow) => string | null, lowerCase: boolean) =>
    new Map(
      existing.flatMap((row) => {
        const value = pick(row);
        return value ? [[lowerCase ? value.toLowerCase() : value, row] as const] : [];
      }),
    );
  const byUsername = index((row) => row.username, true);
  const byEmail = index((row) => row.primaryEmail, true);
  const byPhone = index((row) => row.primaryPhone, false);
  return valid.map(({ line, input }) => {
    const target =
      (input.username && byUsername.get(input.username.toLowerCase())) ||
      (input.primaryEmail && byEmail.get(input.primaryEmail.toLowerCase())) ||
      undefined;
    const owners: [string, ErrorCode, UserRow | undefined][] = [
      [
        'username',
        'user.username_already_in_use',
        input.username ? byUsername.get(input.username.toLowerCase()) : undefined,
      ],
      [
        'primaryEmail',
        'user.email_already_in_use',
        input.primaryEmail ? byEmail.get(input.primaryEmail.toLowerCase()) : undefined,
      ],
      ['primaryPhone', 'user.phone_already_in_use', input.primaryPhone ? byPhone.get(input.primaryPhone) : undefined],
    ];
    const conflict = owners.find(([, , owner]) => owner && owner.id !== target?.id);
    if (conflict) return fieldError(line, conflict[0], conflict[1], errorMessage(conflict[1], 'en'));
    return target ? { kind: 'update', line, input, existing: target } : { kind: 'create', line, input };
  });
}

/** Runs `work` over `items` with at most `limit` at a time, keeping the order of the results. */
async function mapBounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * The password columns a row sets: undefined when it gives no password or the stored one already is it (an
 * equal imported digest, or a plaintext the stored hash verifies), so a re-run does not count as a change.
 */
async function passwordColumns(item: Planned): Promise<PasswordColumns | undefined> {
  const { input } = item;
  const stored = item.kind === 'update' ? item.existing : undefined;
  if (input.passwordDigest !== undefined && input.passwordAlgorithm !== undefined) {
    if (
      stored?.passwordEncrypted === input.passwordDigest &&
      stored.passwordEncryptionMethod === input.passwordAlgorithm
    )
      return undefined;
    return { passwordEncrypted: input.passwordDigest, passwordEncryptionMethod: input.passwordAlgorithm };
  }
  if (input.password === undefined) return undefined;
  if (
    stored?.passwordEncrypted &&
    (await verifyStoredPassword(stored.passwordEncryptionMethod, stored.passwordEncrypted, input.password))
  )
    return undefined;
  return encryptPassword(input.password);
}

type UserValues = Partial<Omit<typeof users.$inferInsert, 'tenantId' | 'id'>>;

/** The columns an update changes (only the fields the row gives, and only where they differ). */
function changedValues(existing: UserRow, input: UserCreate, password: PasswordColumns | undefined): UserValues {
  const values: UserValues = {};
  const set = <K extends keyof UserValues & keyof UserRow>(key: K, value: UserValues[K] | undefined) => {
    if (value !== undefined && !isDeepStrictEqual(existing[key], value)) values[key] = value;
  };
  set('username', input.username);
  set('primaryEmail', input.primaryEmail);
  set('primaryPhone', input.primaryPhone);
  set('name', input.name);
  set('avatar', input.avatar);
  set('customData', input.customData);
  if (password) Object.assign(values, password);
  return values;
}

type Write = { key: LogKey; outcome: WriteOutcome<UserRow> };

async function writeBatch(
  ctx: WriteContext,
  creates: UserValues[],
  updates: { id: string; values: UserValues; existing: UserRow }[],
) {
  return performBatchWrite(ctx, async (tx) => {
    const inserted = await tx.insertMany(
      users,
      // Imported by an admin: their word counts as verification of the addresses, as through the API.
      creates.map((values) => ({
        id: generateId(12),
        customData: {},
        profile: {},
        ...values,
        primaryEmailVerified: values.primaryEmail != null,
        primaryPhoneVerified: values.primaryPhone != null,
      })),
    );
    const writes: Write[] = inserted.map((row) => ({
      key: 'Admin.User.Created',
      outcome: {
        result: row,
        entity: { type: 'User', id: row.id },
        before: null,
        after: auditImage(row),
        events: [{ event: 'User.Created', data: toUser(row) }],
      },
    }));
    for (const { id, values, existing } of updates) {
      const verified = {
        ...(values.primaryEmail === undefined ? {} : { primaryEmailVerified: values.primaryEmail !== null }),
        ...(values.primaryPhone === undefined ? {} : { primaryPhoneVerified: values.primaryPhone !== null }),
      };
      const [row] = await tx.update(users, eq(users.id, id), { ...values, ...verified, updatedAt: new Date() });
      if (!row) continue;
      const passwordChanged = values.passwordEncrypted !== undefined;
      writes.push({
        key: 'Admin.User.Updated',
        outcome: {
          result: row,
          entity: { type: 'User', id },
          // The audit shows that the password changed, never the hash.
          before: {
            ...auditImage(existing),
            ...(passwordChanged ? { password: existing.passwordEncrypted ? 'set' : 'none' } : {}),
          },
          after: { ...auditImage(row), ...(passwordChanged ? { password: 'changed' } : {}) },
          events: [{ event: 'User.Data.Updated', data: toUser(row) }],
        },
      });
    }
    return writes;
  });
}

/** A batch's records checked in file order: the valid ones (their identifiers claimed in `seen`) and the errors. */
export type CheckedBatch = { valid: Valid[]; errors: ImportRowError[] };

/**
 * Validates a batch's records with POST /users' schema and the tenant's password policy, and claims their identifiers
 * in `seen`. Batches must be checked in file order (the first line holding an identifier keeps it), so this part is
 * synchronous once the policy is read.
 */
export async function checkBatch(
  tenant: TenantDb,
  records: readonly ImportRecord[],
  seen: SeenIdentifiers,
): Promise<CheckedBatch> {
  const { passwordPolicy } = await readSignInExperienceSettings(tenant);
  const errors: ImportRowError[] = [];
  const valid: Valid[] = [];
  for (const record of records) {
    const result = validate(record, passwordPolicy, seen);
    if (Array.isArray(result)) errors.push(...result);
    else valid.push(result);
  }
  return { valid, errors };
}

/**
 * A batch planned against the users as they were read: the creates and updates to write, the counts, and the ids of
 * every existing user the read found (update targets and owners of a conflicting identifier). Two batches whose reads
 * found no common user cannot change each other's plan, whichever is written first: their rows hold different
 * identifiers (`SeenIdentifiers`), so a user one creates is never found by the other's read, and a user one updates
 * was found by its own read only.
 */
export type PreparedBatch = {
  result: BatchResult;
  creates: { line: number; values: UserValues }[];
  updates: { line: number; id: string; values: UserValues; existing: UserRow }[];
  readIds: ReadonlySet<string>;
};

/** Reads the batch's existing users, plans each row (create, update, unchanged, conflict) and hashes passwords. */
export async function prepareBatch(ctx: WriteContext, checked: CheckedBatch, dryRun: boolean): Promise<PreparedBatch> {
  const errors = [...checked.errors];
  const existing = await existingUsers(ctx.tenant, checked.valid);
  const planned: Planned[] = [];
  for (const item of plan(checked.valid, existing)) {
    if ('code' in item) errors.push(item);
    else planned.push(item);
  }
  // Dry runs hash nothing: the hash cannot fail, and a dry run must be quick.
  const passwords = dryRun
    ? planned.map(() => undefined)
    : await mapBounded(planned, HASH_CONCURRENCY, passwordColumns);
  const creates: PreparedBatch['creates'] = [];
  const updates: PreparedBatch['updates'] = [];
  let unchanged = 0;
  planned.forEach((item, index) => {
    const password = passwords[index];
    const { input } = item;
    if (item.kind === 'create') {
      creates.push({
        line: item.line,
        values: {
          username: input.username ?? null,
          primaryEmail: input.primaryEmail ?? null,
          primaryPhone: input.primaryPhone ?? null,
          name: input.name ?? null,
          avatar: input.avatar ?? null,
          customData: input.customData ?? {},
          ...password,
        },
      });
      return;
    }
    const values = changedValues(item.existing, input, password);
    // A dry run cannot tell whether a plaintext password differs without hashing; it counts the rest.
    if (Object.keys(values).length === 0) unchanged += 1;
    else updates.push({ line: item.line, id: item.existing.id, values, existing: item.existing });
  });
  return {
    result: { created: creates.length, updated: updates.length, unchanged, errors },
    creates,
    updates,
    readIds: new Set(existing.map((row) => row.id)),
  };
}

/** Whether two batches' reads found a common user (then the later one is planned again after the earlier is written). */
export function readsOverlap(a: PreparedBatch, b: PreparedBatch): boolean {
  for (const id of a.readIds) if (b.readIds.has(id)) return true;
  return false;
}

/**
 * Writes a prepared batch (nothing in a dry run). The good records of a batch are written in one transaction; if it
 * fails (a concurrent write took a username meanwhile), each record is retried alone so only the records at fault
 * fail.
 */
export async function writePreparedBatch(
  ctx: WriteContext,
  prepared: PreparedBatch,
  dryRun: boolean,
): Promise<BatchResult> {
  const { creates, updates } = prepared;
  const result = { ...prepared.result, errors: [...prepared.result.errors] };
  const { errors } = result;
  if (dryRun || (creates.length === 0 && updates.length === 0)) return sortErrors(result);
  try {
    await writeBatch(
      ctx,
      creates.map(({ values }) => values),
      updates,
    );
    return sortErrors(result);
  } catch {
    // One record at a time: the ones that fail are reported, the others are kept.
    result.created = 0;
    result.updated = 0;
    for (const { line, values } of creates) {
      if (await retryAlone(line, errors, () => writeBatch(ctx, [values], []))) result.created += 1;
    }
    for (const update of updates) {
      if (await retryAlone(update.line, errors, () => writeBatch(ctx, [], [update]))) result.updated += 1;
    }
    return sortErrors(result);
  }
}

async function retryAlone(line: number, errors: ImportRowError[], write: () => Promise<unknown>) {
  try {
    await write();
    return true;
  } catch (error) {
    const code: ErrorCode = error instanceof DomainError ? error.code : 'request.general';
    const field =
      {
        'user.username_already_in_use': 'username',
        'user.email_already_in_use': 'primaryEmail',
        'user.phone_already_in_use': 'primaryPhone',
      }[code as string] ?? '';
    errors.push(fieldError(line, field, code, errorMessage(code, 'en')));
    return false;
  }
}

function sortErrors(result: BatchResult): BatchResult {
  result.errors.sort((a, b) => a.line - b.line);
  return result;
}
