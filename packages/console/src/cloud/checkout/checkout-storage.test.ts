import { CHECKOUT_SESSION_STORAGE_KEY, CHECKOUT_STATE_LENGTH } from '@gatehouse/schemas';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  clearStoredCheckout,
  generateCheckoutState,
  readStoredCheckout,
  safeCallbackPage,
  saveStoredCheckout,
  successCallbackUrl,
} from './checkout-storage.ts';

/** A Storage over a Map, so the tests need no DOM. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

describe('generateCheckoutState', () => {
  it('makes 6 letters or digits from the secure generator, different each time', () => {
    const states = new Set(Array.from({ length: 50 }, () => generateCheckoutState()));
    for (const state of states) expect(state).toMatch(new RegExp(`^[A-Za-z0-9]{${CHECKOUT_STATE_LENGTH}}$`));
    expect(states.size).toBe(50);
  });

  it('maps bytes onto the alphabet and draws again for bytes that would bias it', () => {
    // 248 and above are dropped (248 = 4 × 62); 0 → 'A', 61 → '9', 62 → 'A' again.
    const batches = [
      [255, 248, 0, 61, 62, 1],
      [25, 26, 250, 0, 0, 0],
    ];
    let call = 0;
    const state = generateCheckoutState((bytes) => {
      const batch = batches[call++] ?? [];
      bytes.fill(255); // The rest of each batch is dropped too.
      bytes.set(batch);
      return bytes;
    });
    expect(state).toBe('A9ABZa');
    expect(call).toBe(2);
  });
});

describe('successCallbackUrl', () => {
  it('is the callback page under the console base path with the state parameter', () => {
    expect(successCallbackUrl('https://console.example', '/console/', 'aB3xY9')).toBe(
      'https://console.example/console/checkout-success-callback?state=aB3xY9',
    );
    expect(successCallbackUrl('http://127.0.0.1:3001', '/console', 'zzzzzz')).toBe(
      'http://127.0.0.1:3001/console/checkout-success-callback?state=zzzzzz',
    );
  });
});

describe('stored checkout copy', () => {
  let storage: Storage;
  beforeEach(() => {
    storage = memoryStorage();
  });

  it('reads back what was saved, with the optional callback page and downgrade flag', () => {
    saveStoredCheckout(
      { state: 'abc123', sessionId: 'cs_1', callbackPage: '/t1/tenant-settings', isDowngrade: true },
      storage,
    );
    expect(readStoredCheckout(storage)).toEqual({
      state: 'abc123',
      sessionId: 'cs_1',
      callbackPage: '/t1/tenant-settings',
      isDowngrade: true,
    });
    clearStoredCheckout(storage);
    expect(readStoredCheckout(storage)).toBeUndefined();
  });

  it.each([
    ['bad JSON', '{not json'],
    ['a state of the wrong length', JSON.stringify({ state: 'abc', sessionId: 'cs_1' })],
    ['no session id', JSON.stringify({ state: 'abc123' })],
    ['a non-boolean downgrade flag', JSON.stringify({ state: 'abc123', sessionId: 'cs_1', isDowngrade: 'yes' })],
    ['not an object', JSON.stringify('abc123')],
  ])('ignores %s', (_label, raw) => {
    storage.setItem(CHECKOUT_SESSION_STORAGE_KEY, raw);
    expect(readStoredCheckout(storage)).toBeUndefined();
  });
});

describe('safeCallbackPage', () => {
  it('follows in-app paths only', () => {
    expect(safeCallbackPage('/t1/tenant-settings/subscription')).toBe('/t1/tenant-settings/subscription');
    expect(safeCallbackPage(undefined)).toBeUndefined();
    expect(safeCallbackPage('//evil.example/x')).toBeUndefined();
    expect(safeCallbackPage('https://evil.example')).toBeUndefined();
    expect(safeCallbackPage('/\\evil.example')).toBeUndefined();
  });
});
