import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/browser';

/** Whether this browser can make passkeys at all (WebAuthn); a page over plain HTTP on another host cannot either. */
export function browserSupportsWebAuthn(): boolean {
  return typeof globalThis.PublicKeyCredential === 'function';
}

/**
 * Asks the browser for a new passkey with the server's options. The library loads only here, when a passkey is
 * being added: the profile page's first chunk stays as it was.
 */
export async function createPasskey(options: Record<string, unknown>): Promise<RegistrationResponseJSON> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  // The server's options are PublicKeyCredentialCreationOptionsJSON (WebAuthn L3); the browser checks them.
  return startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
}

/** Starts loading the library early (on the click), so the browser's prompt follows the user's gesture closely. */
export function preloadPasskeyLibrary(): void {
  void import('@simplewebauthn/browser').catch(() => undefined);
}

/**
 * Why the browser made no passkey, in the words the section uses: `cancelled` when the user closed its prompt or it
 * timed out (NotAllowedError, AbortError: the browser does not tell them apart), `exists` when this authenticator
 * already holds one of the account's passkeys (InvalidStateError, from the options' excluded credentials), `failed`
 * for anything else.
 */
export type PasskeyRefusal = 'cancelled' | 'exists' | 'failed';

export function passkeyRefusal(error: unknown): PasskeyRefusal {
  const name = error instanceof Error ? error.name : undefined;
  if (name === 'NotAllowedError' || name === 'AbortError') return 'cancelled';
  if (name === 'InvalidStateError') return 'exists';
  return 'failed';
}
