import { createHash, timingSafeEqual } from 'node:crypto';
import {
  type ApplicationSecret,
  type ApplicationSecretCreate,
  type ApplicationType,
  DomainError,
  type Miss,
  maskSecret,
  notFound,
  nothingUpdated,
  rowNotFound,
} from '@gatehouse/schemas';
import { asc, eq } from 'drizzle-orm';
import { allOf } from '../db/conditions.ts';
import { applicationSecrets, applications } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { generateClientSecret } from './client-secret.ts';
import { findApplication } from './role-assignments.ts';
import { performWrite, type WriteContext } from './write-path.ts';

export type ApplicationSecretRow = typeof applicationSecrets.$inferSelect;

/** A secret as the API shows it; the value only when `reveal` (creation, the audited reveal). */
export function toApplicationSecret(row: ApplicationSecretRow, reveal = false): ApplicationSecret {
  return {
    applicationId: row.applicationId,
    name: row.name,
    value: reveal ? row.value : maskSecret(row.value),
    createdAt: row.createdAt.getTime(),
    expiresAt: row.expiresAt?.getTime() ?? null,
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest();
/** Compares in constant time whatever the lengths. */
const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/** How client authentication reads an application and its named secrets (auth/oidc/client-cache.ts keeps them). */
export type ClientReads = {
  application(tenant: TenantDb, clientId: string): Promise<{ secret: string } | undefined>;
  namedSecrets(tenant: TenantDb, clientId: string): Promise<readonly ApplicationSecretRow[]>;
};

/** Reads straight from the database, every time. */
export const directClientReads: ClientReads = {
  application: (tenant, clientId) => tenant.findOne(applications, eq(applications.id, clientId)),
  namedSecrets: (tenant, clientId) =>
    tenant.findMany(applicationSecrets, { where: eq(applicationSecrets.applicationId, clientId) }),
};

/**
 * The provider compares one client secret per client: the application's internal one. When a
 * client presents one of its named secrets that has not expired, this returns the internal secret
 * to compare instead; otherwise undefined (the presented secret is then checked as it is).
 */
export async function internalSecretFor(
  tenant: TenantDb,
  clientId: string,
  presented: string,
  reads: ClientReads = directClientReads,
): Promise<string | undefined> {
  const now = Date.now();
  const application = await reads.application(tenant, clientId);
  if (!application) return undefined;
  const named = await reads.namedSecrets(tenant, clientId);
  const match = named.find(
    (row) => sameSecret(row.value, presented) && (!row.expiresAt || row.expiresAt.getTime() > now),
  );
  return match ? application.secret : undefined;
}

function decodeBasicPart(part: string): string {
  return decodeURIComponent(part.replace(/\+/g, ' '));
}

/**
 * RFC 6749 §2.3.1 client authentication with HTTP Basic: when the password is one of the client's
 * named secrets, the header is rewritten to carry the internal secret the provider knows.
 * Anything else (no header, malformed, unknown secret) passes unchanged for the provider to judge.
 */
export async function translateBasicClientSecret(
  authorization: string | undefined,
  resolve: (clientId: string, secret: string) => Promise<string | undefined>,
): Promise<string | undefined> {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return undefined;
  let clientId: string;
  let secret: string;
  try {
    clientId = decodeBasicPart(decoded.slice(0, colon));
    secret = decodeBasicPart(decoded.slice(colon + 1));
  } catch {
    return undefined;
  }
  const internal = await resolve(clientId, secret);
  if (!internal) return undefined;
  return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(internal)}`).toString('base64')}`;
}

// The admin API's operations on an application's named secrets (audited as part of the application).

/** Only confidential clients authenticate with a secret; public ones (SPA, Native) and SAML apps do not. */
const confidentialTypes: readonly ApplicationType[] = ['MachineToMachine', 'Traditional', 'Protected'];

const secretWhere = (id: string, name: string) =>
  allOf(eq(applicationSecrets.applicationId, id), eq(applicationSecrets.name, name));

/**
 * The secret to rename or delete. The reference writes by (application, name) without looking the application up, so
 * an unknown application misses like an unknown name: `miss` is its update's or deletion's 404.
 */
async function findSecret(tx: TenantDb, id: string, name: string, miss: Miss) {
  const row = await tx.findOne(applicationSecrets, secretWhere(id, name));
  if (!row) throw miss();
  return row;
}

/** Secrets are audited as part of their application, never with their value. */
const audited = (id: string) => ({ type: 'Application', id });

/** An application's secrets, oldest first, without their values. */
export async function listApplicationSecrets(tenant: TenantDb, applicationId: string): Promise<ApplicationSecret[]> {
  await findApplication(tenant, applicationId);
  const rows = await tenant.findMany(applicationSecrets, {
    where: eq(applicationSecrets.applicationId, applicationId),
    orderBy: [asc(applicationSecrets.createdAt), asc(applicationSecrets.name)],
  });
  return rows.map((row) => toApplicationSecret(row));
}

/** A new secret of a confidential application, answered once with its value. */
export async function createApplicationSecret(
  ctx: WriteContext,
  applicationId: string,
  input: ApplicationSecretCreate,
): Promise<ApplicationSecret> {
  const row = await performWrite(ctx, 'Admin.ApplicationSecret.Created', async (tx) => {
    const application = await findApplication(tx, applicationId);
    if (!confidentialTypes.includes(application.type as ApplicationType)) {
      throw new DomainError('unprocessable', 'application.invalid_type', { type: application.type });
    }
    const created = await tx.insert(applicationSecrets, {
      applicationId,
      name: input.name,
      value: generateClientSecret(),
      expiresAt: input.expiresAt == null ? null : new Date(input.expiresAt),
    });
    return { result: created, entity: audited(applicationId), before: null, after: toApplicationSecret(created) };
  });
  return toApplicationSecret(row, true);
}

export function renameApplicationSecret(
  ctx: WriteContext,
  applicationId: string,
  name: string,
  newName: string,
): Promise<ApplicationSecret> {
  return performWrite(ctx, 'Admin.ApplicationSecret.Updated', async (tx) => {
    const before = toApplicationSecret(await findSecret(tx, applicationId, name, nothingUpdated));
    const [row] = await tx.update(applicationSecrets, secretWhere(applicationId, name), { name: newName });
    if (!row) throw nothingUpdated();
    const after = toApplicationSecret(row);
    return { result: after, entity: audited(applicationId), before, after };
  });
}

export function deleteApplicationSecret(ctx: WriteContext, applicationId: string, name: string): Promise<void> {
  return performWrite(ctx, 'Admin.ApplicationSecret.Deleted', async (tx) => {
    await findSecret(tx, applicationId, name, rowNotFound);
    const [row] = await tx.delete(applicationSecrets, secretWhere(applicationId, name));
    if (!row) throw rowNotFound();
    return { result: undefined, entity: audited(applicationId), before: toApplicationSecret(row), after: null };
  });
}

/** A secret with its value: a read, but through the write path so that who saw it, and when, is in the audit log. */
export async function revealApplicationSecret(
  ctx: WriteContext,
  applicationId: string,
  name: string,
): Promise<ApplicationSecret> {
  const row = await performWrite(ctx, 'Admin.ApplicationSecret.Revealed', async (tx) => {
    // Ours alone (the reference has no reveal): the application's and the secret's miss are the finder's.
    await findApplication(tx, applicationId);
    const found = await findSecret(tx, applicationId, name, notFound);
    const shown = toApplicationSecret(found);
    return { result: found, entity: audited(applicationId), before: shown, after: shown };
  });
  return toApplicationSecret(row, true);
}
