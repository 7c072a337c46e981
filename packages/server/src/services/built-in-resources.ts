import { managementResource } from '../auth/issuers.ts';

/** `.gatehouse.internal`: the domain of every API the server itself serves (management, me). */
const builtInDomain = new URL(managementResource('tenant')).hostname.replace(/^[^.]+/, '');

/**
 * Indicators under our internal domain belong to built-in APIs (seeded, read-only). Nobody may
 * create one: a tenant's own resource with such an audience could be mistaken for the real API.
 */
export function isBuiltInIndicator(indicator: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(indicator).hostname.toLowerCase();
  } catch {
    return false;
  }
  return hostname === builtInDomain.slice(1) || hostname.endsWith(builtInDomain);
}
