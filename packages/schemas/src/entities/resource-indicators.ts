// Zod-free (resource.ts re-exports these), so the console's first page (the get-started checklist) uses the rule
// without downloading zod.

/** The domain of every API the server itself serves (management APIs, the 'me' API). */
export const BUILT_IN_RESOURCE_DOMAIN = 'gatehouse.internal';

/**
 * Indicators under the built-in domain belong to built-in APIs (seeded, read-only): the server refuses writes to
 * them and refuses new resources there; the console shows them read-only. One rule for both sides.
 */
export function isBuiltInResourceIndicator(indicator: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(indicator).hostname.toLowerCase();
  } catch {
    return false;
  }
  return hostname === BUILT_IN_RESOURCE_DOMAIN || hostname.endsWith(`.${BUILT_IN_RESOURCE_DOMAIN}`);
}
