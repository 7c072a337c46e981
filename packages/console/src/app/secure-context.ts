/**
 * Spec §8: signing in (PKCE) needs the browser's secure cryptography, which browsers offer only in secure contexts
 * (HTTPS or localhost). Without it the console shows errors.insecure_contexts instead of failing mid-sign-in.
 */
export function hasSecureCrypto(scope: { isSecureContext?: boolean; crypto?: { subtle?: unknown } } = window): boolean {
  return scope.isSecureContext !== false && scope.crypto?.subtle !== undefined;
}
