import { isSealed, seal, unseal } from './secret-box.ts';

/**
 * Settings rows (`tenant_configs`) whose whole value is a secret are stored as `{"sealed": <envelope>}`: their JSON,
 * sealed (db/secret-box.ts). (An object, not the bare envelope string: drizzle would read a JSON string back as the
 * object it spells.) The services that own them write {@link sealConfigValue} and read through
 * {@link openConfigValue}; the start-up pass (db/seal-at-rest.ts) seals the plain values of older versions and
 * re-seals on a master-key rotation. Listed here, in the data layer, so that the pass knows them.
 */

/** The tenant's OIDC cookie-signing keys (services/oidc-keys.ts): a list of `{id, value, createdAt}`. */
export const COOKIE_KEYS = 'oidc.cookieKeys';

/** The settings keys whose value is stored sealed, with what the start-up pass calls them. */
export const sealedConfigs: Readonly<Record<string, string>> = { [COOKIE_KEYS]: 'OIDC cookie keys' };

/** A settings value as stored: sealed. */
export type SealedConfigValue = { sealed: string };

/** A settings value as it is stored: its JSON, sealed. */
export const sealConfigValue = (value: unknown): SealedConfigValue => ({ sealed: seal(JSON.stringify(value)) });

const isSealedValue = (stored: unknown): stored is SealedConfigValue =>
  typeof stored === 'object' &&
  stored !== null &&
  'sealed' in stored &&
  typeof stored.sealed === 'string' &&
  isSealed(stored.sealed);

/** A stored settings value in the clear; a value stored before encryption at rest (plain JSON) is answered as it is. */
export const openConfigValue = (stored: unknown): unknown =>
  isSealedValue(stored) ? JSON.parse(unseal(stored.sealed)) : stored;
