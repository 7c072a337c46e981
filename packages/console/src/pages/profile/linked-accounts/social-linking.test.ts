// @vitest-environment happy-dom
import { LINKING_SOCIAL_CONNECTOR_STORAGE_KEY } from '@gatehouse/schemas';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  generateLinkingState,
  handleSocialUrl,
  popupFeatures,
  storeLinkingConnector,
  takeLinkingConnector,
  watchLinking,
} from './social-linking.ts';

beforeEach(() => sessionStorage.clear());
afterEach(() => vi.useRealTimers());

describe('social linking helpers (spec §4, §7, §9)', () => {
  it('makes an 8-character state of letters and digits, drawing again past the unbiased range', () => {
    expect(generateLinkingState()).toMatch(/^[A-Za-z0-9]{8}$/);
    // 248 and above are drawn again; 0 is 'A', 61 is '9'.
    const bytes = [255, 248, 0, 61, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    expect(generateLinkingState((target) => target.fill(0).map((_, index) => bytes[index] ?? 0))).toBe('A9BCDEFG');
  });

  it("names the console's own landing page under its base path", () => {
    expect(handleSocialUrl('https://id.example', '/console/')).toBe('https://id.example/console/handle-social');
    expect(handleSocialUrl('http://127.0.0.1:3001', '/')).toBe('http://127.0.0.1:3001/handle-social');
  });

  it('keeps the connector id until the landing page reads it, and reads only an id', () => {
    storeLinkingConnector('gatehouse-id');
    expect(sessionStorage.getItem(LINKING_SOCIAL_CONNECTOR_STORAGE_KEY)).toBe('gatehouse-id');
    expect(takeLinkingConnector()).toBe('gatehouse-id');
    expect(sessionStorage.getItem(LINKING_SOCIAL_CONNECTOR_STORAGE_KEY)).toBeNull();
    expect(takeLinkingConnector()).toBeUndefined();
    sessionStorage.setItem(LINKING_SOCIAL_CONNECTOR_STORAGE_KEY, '<script>');
    expect(takeLinkingConnector()).toBeUndefined();
  });

  it('opens a 600×640 popup centred over the window', () => {
    expect(popupFeatures({ screenX: 100, screenY: 50, outerWidth: 1400, outerHeight: 900 })).toBe(
      'popup,width=600,height=640,left=500,top=180',
    );
    expect(popupFeatures({ screenX: 0, screenY: 0, outerWidth: 400, outerHeight: 300 })).toBe(
      'popup,width=600,height=640,left=0,top=0',
    );
  });

  it('ends with the first message of its own state, and listens on after the popup reads as closed', () => {
    vi.useFakeTimers();
    const popup = { closed: false };
    const onDone = vi.fn();
    const onClosed = vi.fn();
    watchLinking({ state: 'aB3dE6gH', popup, onDone, onClosed, pollMs: 100 });
    const send = (data: unknown, origin = window.location.origin) =>
      window.dispatchEvent(new MessageEvent('message', { data, origin }));
    const message = { type: 'gatehouse:social-linking', connectorId: 'x', outcome: 'linked' };
    send({ ...message, state: 'other123' });
    send({ ...message, state: 'aB3dE6gH' }, 'https://evil.example');
    send({ ...message, state: 'aB3dE6gH', outcome: 'maybe' });
    // The provider's page cut the popup off: it reads as closed, and its word still counts.
    popup.closed = true;
    vi.advanceTimersByTime(500);
    expect(onClosed).toHaveBeenCalledTimes(1);
    expect(onDone).not.toHaveBeenCalled();
    send({ ...message, state: 'aB3dE6gH' });
    send({ ...message, state: 'aB3dE6gH', outcome: 'failed' });
    expect(onDone.mock.calls).toEqual([['linked']]);
  });

  it('stops listening after the wait', () => {
    vi.useFakeTimers();
    const onDone = vi.fn();
    watchLinking({ state: 'zZ9yY8xX', popup: { closed: false }, onDone, waitMs: 1000 });
    vi.advanceTimersByTime(1000);
    window.dispatchEvent(
      new MessageEvent('message', {
        origin: window.location.origin,
        data: { type: 'gatehouse:social-linking', state: 'zZ9yY8xX', connectorId: 'x', outcome: 'linked' },
      }),
    );
    expect(onDone).not.toHaveBeenCalled();
  });
});
