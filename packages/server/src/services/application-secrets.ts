import { createHash, timingSafeEqual } from 'node:crypto';
import { type ApplicationSecret, maskSecret } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { applicationSecrets, applications } from '../db/tables.ts';
import { TenantDb } from '../db/tenant-db.ts';

export type ApplicationSecretRow = typeof applicationSecrets.$inferSelect;

/** A secret as the API shows it; the value only when `reveal` (creation, the audited reveal). */
export function toApplicationSecret(row: ApplicationSecretRow, reveal = false): ApplicationSecret {
  return {
    name: row.name,
    value: reveal ? row.value : maskSecret(row.value),
    createdAt: row.createdAt.getTime(),
    expiresAt: row.expiresAt?.getTime() ?? null,
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest();
/** Compares in constant time whatever the lengths. */
const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/**
 * The provider compares one client secret per client: the application's internal one. When a
 * client presents one of its named secrets that has not expired, this returns the internal secret
 * to compare instead; otherwise undefined (the presented secret is then checked as it is).
 */
export async function internalSecretFor(
  db: Database,
  tenantId: string,
  clientId: string,
  presented: string,
): Promise<string | undefined> {
  const tenant = new TenantDb(db, tenantId);
  const now = Date.now();
  const named = await tenant.findMany(applicationSecrets, { where: eq(applicationSecrets.applicationId, clientId) });
  const match = named.find(
    (row) => sameSecret(row.value, presented) && (!row.expiresAt || row.expiresAt.getTime() > now),
  );
  if (!match) return undefined;
  return (await tenant.findOne(applications, eq(applications.id, clientId)))?.secret;
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
