import { customType } from 'drizzle-orm/pg-core';
import { seal, unseal } from './secret-box.ts';

/**
 * Columns whose values are secrets the server must read back (signing keys, client and webhook secrets, webhook
 * custom headers, connector settings, SAML and TOTP keys) are sealed by the data layer itself: every write through
 * drizzle stores an envelope (db/secret-box.ts), every read opens it. No service can forget to; a value written
 * before encryption at rest (or by raw SQL) is read as it is, and sealed by the start-up pass (db/seal-at-rest.ts).
 * Sealed values differ on every write, so these columns are never compared in SQL.
 */

/** A secret string, stored sealed as text. */
export const sealedText = customType<{ data: string; driverData: string }>({
  dataType: () => 'text',
  toDriver: (value) => seal(value),
  fromDriver: (value) => unseal(value),
});

/** A JSON value holding secrets, stored as its sealed text. */
export const sealedJson = <T>(name: string) =>
  customType<{ data: T; driverData: string }>({
    dataType: () => 'text',
    toDriver: (value) => seal(JSON.stringify(value)),
    fromDriver: (value) => JSON.parse(unseal(value)) as T,
  })(name);
