import { userAgentParts, webAuthnNameSchema } from '@gatehouse/schemas';

/**
 * The name a new passkey is offered ('Chrome on Linux'), which the user may change: where it was made tells passkeys
 * apart in the list. `both` words the pair in the interface language; `fallback` is for a user agent that says
 * nothing known. Cut to the names' length limit.
 */
export function defaultPasskeyName(
  userAgent: string,
  both: (parts: { browser: string; os: string }) => string,
  fallback: string,
): string {
  const { browser, os } = userAgentParts(userAgent);
  const name = browser && os ? both({ browser, os }) : (browser ?? os ?? fallback);
  const max = webAuthnNameSchema.maxLength ?? 64;
  return name.slice(0, max);
}
