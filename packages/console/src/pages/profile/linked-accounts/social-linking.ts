import {
  connectorIdSchema,
  HANDLE_SOCIAL_PATH,
  LINKING_SOCIAL_CONNECTOR_STORAGE_KEY,
  SOCIAL_LINKING_POPUP_SIZE,
  SOCIAL_LINKING_STATE_LENGTH,
} from '@gatehouse/schemas';

/**
 * Social linking in the browser (spec §4, §7): the profile stores the connector id in sessionStorage, then opens a
 * 600×640 popup at the provider; the popup starts with a copy of that storage (the HTML standard copies a window's
 * session storage into a popup it opens), lands on the console's `/handle-social`, reads the id (which removes it),
 * posts the provider's answer and tells the profile how it went before it closes.
 */

/** Letters and digits: safe in a query string without encoding. */
const stateAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** The largest multiple of the alphabet's size below 256; bytes at or above it are drawn again (no modulo bias). */
const unbiasedLimit = 256 - (256 % stateAlphabet.length);

/** Spec §9: the random 8-character state of social linking, from the platform's secure generator. */
export function generateLinkingState(
  fillRandom: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array = (bytes) => crypto.getRandomValues(bytes),
): string {
  let state = '';
  while (state.length < SOCIAL_LINKING_STATE_LENGTH) {
    for (const byte of fillRandom(new Uint8Array(SOCIAL_LINKING_STATE_LENGTH * 2))) {
      if (byte >= unbiasedLimit) continue;
      state += stateAlphabet[byte % stateAlphabet.length];
      if (state.length === SOCIAL_LINKING_STATE_LENGTH) break;
    }
  }
  return state;
}

/** The console's own landing page of the popup, the one redirect URI the server accepts. */
export function handleSocialUrl(
  origin: string = window.location.origin,
  basename: string = import.meta.env.BASE_URL,
): string {
  return `${origin}${basename.replace(/\/$/, '')}${HANDLE_SOCIAL_PATH}`;
}

export function storeLinkingConnector(connectorId: string, storage: Storage = sessionStorage): void {
  storage.setItem(LINKING_SOCIAL_CONNECTOR_STORAGE_KEY, connectorId);
}

export function clearLinkingConnector(storage: Storage = sessionStorage): void {
  storage.removeItem(LINKING_SOCIAL_CONNECTOR_STORAGE_KEY);
}

/** Spec §4: the landing page reads the stored connector id, which removes it; anything but an id reads as none. */
export function takeLinkingConnector(storage: Storage = sessionStorage): string | undefined {
  const stored = storage.getItem(LINKING_SOCIAL_CONNECTOR_STORAGE_KEY);
  storage.removeItem(LINKING_SOCIAL_CONNECTOR_STORAGE_KEY);
  const parsed = connectorIdSchema.safeParse(stored);
  return parsed.success ? parsed.data : undefined;
}

/** The popup's features: 600×640 (spec §7), centred over the window that opens it. */
export function popupFeatures(opener: Pick<Window, 'screenX' | 'screenY' | 'outerWidth' | 'outerHeight'>): string {
  const { width, height } = SOCIAL_LINKING_POPUP_SIZE;
  const left = Math.max(0, Math.round(opener.screenX + (opener.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(opener.screenY + (opener.outerHeight - height) / 2));
  return `popup,width=${width},height=${height},left=${left},top=${top}`;
}

/** How the landing page's linking ended, as it tells the profile. */
export type LinkingOutcome = 'linked' | 'failed';
export type LinkingMessage = { type: typeof messageType; state: string; connectorId: string; outcome: LinkingOutcome };

const messageType = 'gatehouse:social-linking';
const channelName = 'gatehouse:social-linking';

function isLinkingMessage(value: unknown): value is LinkingMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    'type' in value &&
    value.type === messageType &&
    'state' in value &&
    typeof value.state === 'string' &&
    'connectorId' in value &&
    typeof value.connectorId === 'string' &&
    'outcome' in value &&
    (value.outcome === 'linked' || value.outcome === 'failed')
  );
}

/**
 * The landing page tells the profile how the linking went: by a message to its opener on the same origin, and on a
 * BroadcastChannel of the origin, which still reaches it when the provider's pages cut the popup off from its opener
 * (Cross-Origin-Opener-Policy). The profile takes the first message carrying its own state.
 */
export function announceLinking(message: Omit<LinkingMessage, 'type'>, target: Window | null = window.opener): void {
  const data: LinkingMessage = { type: messageType, ...message };
  try {
    target?.postMessage(data, window.location.origin);
  } catch {
    // An opener of another origin (it navigated away): the channel still carries the news.
  }
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(channelName);
  channel.postMessage(data);
  channel.close();
}

/** How long the profile listens for the landing page: as long as the server keeps the linking (10 minutes). */
export const LINKING_WAIT_MS = 10 * 60_000;

/**
 * Listens for the landing page's word about the linking of `state`: `onDone` runs once, with the first message of
 * that state, and listening stops. `onClosed` runs once when the popup reads as closed, and listening goes on: the
 * console's pages are served with `Cross-Origin-Opener-Policy: same-origin`, so the popup loses its opener as soon as
 * it loads another page (the provider's), and from then on the profile sees it as closed while it is still open; its
 * word then comes on the channel only. Listening ends after `waitMs`. Answers a function that stops it.
 */
export function watchLinking(options: {
  state: string;
  popup: Pick<Window, 'closed'>;
  onDone: (outcome: LinkingOutcome) => void;
  onClosed?: () => void;
  pollMs?: number;
  waitMs?: number;
}): () => void {
  const { state, popup, onDone, onClosed, pollMs = 500, waitMs = LINKING_WAIT_MS } = options;
  const channel = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(channelName);
  const onMessage = (event: MessageEvent) => {
    if (event.origin && event.origin !== window.location.origin) return;
    if (!isLinkingMessage(event.data) || event.data.state !== state) return;
    stop();
    onDone(event.data.outcome);
  };
  window.addEventListener('message', onMessage);
  channel?.addEventListener('message', onMessage);
  const poll = setInterval(() => {
    if (!popup.closed) return;
    clearInterval(poll);
    onClosed?.();
  }, pollMs);
  const deadline = setTimeout(() => stop(), waitMs);
  function stop() {
    clearInterval(poll);
    clearTimeout(deadline);
    window.removeEventListener('message', onMessage);
    channel?.close();
  }
  return stop;
}
