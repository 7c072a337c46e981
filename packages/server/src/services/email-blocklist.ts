import type { SignInExperienceSettings } from '@gatehouse/schemas';
import { isDisposableEmailDomain } from 'disposable-email-domains-js';

export type EmailBlocklistPolicy = SignInExperienceSettings['emailBlocklistPolicy'];

/** Why an address may not be used: a disposable domain, sub-addressing, or the tenant's own blocklist. */
export type EmailBlockReason = 'disposable' | 'subaddress' | 'custom';

/**
 * Whether a blocklist entry names the address: a whole address (`someone@example.com`), `@example.com` (that domain
 * and its subdomains) or a bare domain (`example.com`, the same). Case does not matter.
 */
function entryNames(entry: string, address: string, domain: string): boolean {
  const value = entry.trim().toLowerCase();
  if (value.includes('@') && !value.startsWith('@')) return value === address;
  const named = value.replace(/^@/, '');
  return named !== '' && (domain === named || domain.endsWith(`.${named}`));
}

/**
 * The tenant's email blocklist (the sign-in experience's `emailBlocklistPolicy`, as the reference names it) applied
 * to an address someone wants to sign up with or set as their own: undefined when it may be used. The allowlist wins
 * over everything; then the tenant's entries, sub-addressing (`name+tag@`) and disposable domains (the maintained
 * list of disposable-email-domains, through disposable-email-domains-js). Admins setting an address through the
 * management API are not held to it.
 */
export function emailBlockReason(email: string, policy: EmailBlocklistPolicy): EmailBlockReason | undefined {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0) return undefined;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (policy.customAllowlist?.some((entry) => entryNames(entry, address, domain))) return undefined;
  if (policy.customBlocklist?.some((entry) => entryNames(entry, address, domain))) return 'custom';
  if (policy.blockSubaddressing && local.includes('+')) return 'subaddress';
  if (policy.blockDisposableAddresses && isDisposableEmailDomain(domain)) return 'disposable';
  return undefined;
}
