/** oidc-client-ts keeps the signed-in user and pending sign-in states under `oidc.`; the session module its per-API tokens under `gatehouse:token:`. */
const tokenKeyPrefixes = ['oidc.', 'gatehouse:token:'];

/**
 * Spec §2.11: the error page's retry starts from a clean session. This removes every token and pending sign-in state
 * straight from storage, without the OIDC client, because the error may be that the client cannot start at all.
 */
export function clearAllTokens(storages: readonly Storage[] = [window.sessionStorage, window.localStorage]): void {
  for (const storage of storages) {
    const keys = Array.from({ length: storage.length }, (_, index) => storage.key(index));
    for (const key of keys)
      if (key && tokenKeyPrefixes.some((prefix) => key.startsWith(prefix))) storage.removeItem(key);
  }
}
