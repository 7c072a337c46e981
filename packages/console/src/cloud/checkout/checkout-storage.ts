import {
  CHECKOUT_CALLBACK_PATH,
  CHECKOUT_SESSION_STORAGE_KEY,
  CHECKOUT_STATE_LENGTH,
  CHECKOUT_STATE_PARAM,
  type StoredCheckoutSession,
  storedCheckoutSessionSchema,
} from '@gatehouse/schemas';

/** Letters and digits: safe in a query string without encoding. */
const stateAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** The largest multiple of the alphabet's size below 256; bytes at or above it are drawn again (no modulo bias). */
const unbiasedLimit = 256 - (256 % stateAlphabet.length);

/** Spec §9: the random 6-character state of the success callback URL, from the platform's secure generator. */
export function generateCheckoutState(
  fillRandom: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array = (bytes) => crypto.getRandomValues(bytes),
): string {
  let state = '';
  while (state.length < CHECKOUT_STATE_LENGTH) {
    for (const byte of fillRandom(new Uint8Array(CHECKOUT_STATE_LENGTH * 2))) {
      if (byte >= unbiasedLimit) continue;
      state += stateAlphabet[byte % stateAlphabet.length];
      if (state.length === CHECKOUT_STATE_LENGTH) break;
    }
  }
  return state;
}

/** The console page the provider sends the browser back to, carrying the state (spec §7 successCallbackUrl). */
export function successCallbackUrl(origin: string, basename: string, state: string): string {
  const url = new URL(`${basename.replace(/\/$/, '')}${CHECKOUT_CALLBACK_PATH}`, origin);
  url.searchParams.set(CHECKOUT_STATE_PARAM, state);
  return url.href;
}

export function saveStoredCheckout(stored: StoredCheckoutSession, storage: Storage = sessionStorage): void {
  storage.setItem(CHECKOUT_SESSION_STORAGE_KEY, JSON.stringify(stored));
}

/** Spec §5 stored data: the session-stored copy is checked against its schema; bad JSON or shape reads as none. */
export function readStoredCheckout(storage: Storage = sessionStorage): StoredCheckoutSession | undefined {
  const raw = storage.getItem(CHECKOUT_SESSION_STORAGE_KEY);
  if (raw === null) return undefined;
  try {
    const result = storedCheckoutSessionSchema.safeParse(JSON.parse(raw));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

export function clearStoredCheckout(storage: Storage = sessionStorage): void {
  storage.removeItem(CHECKOUT_SESSION_STORAGE_KEY);
}

/** A stored callback page is followed only when it is an in-app path (never `//host` or a full URL). */
export function safeCallbackPage(page: string | undefined): string | undefined {
  if (!page?.startsWith('/') || page.startsWith('//') || page.includes('\\')) return undefined;
  return page;
}
