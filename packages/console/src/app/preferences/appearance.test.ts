// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { appearanceStorageKey, createAppearanceController, resolveTheme } from './appearance.ts';

/** A media query whose OS setting the test flips, firing 'change' like the browser does. */
function fakeMedia(matches: boolean) {
  const listeners = new Set<() => void>();
  return {
    matches,
    addEventListener(_type: 'change', listener: () => void) {
      listeners.add(listener);
    },
    flip(next: boolean) {
      this.matches = next;
      for (const listener of listeners) listener();
    },
  };
}

function setup(stored: string | null, prefersDark = false) {
  const store = new Map<string, string>(stored === null ? [] : [[appearanceStorageKey, stored]]);
  const storage = {
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (k: string, v: string) => store.set(k, v),
  };
  const root = document.createElement('html');
  const media = fakeMedia(prefersDark);
  const controller = createAppearanceController({ root, media, storage });
  return { controller, root, media, store };
}

describe('appearance', () => {
  it('resolves system from the OS setting', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
  });

  it('applies the stored mode at once, and falls back to system for an invalid one', () => {
    expect(setup('dark').root.dataset.theme).toBe('dark');
    const invalid = setup('purple', true);
    expect(invalid.controller.getMode()).toBe('system');
    expect(invalid.root.dataset.theme).toBe('dark');
  });

  it('follows the OS live while the mode is system', () => {
    const { root, media, controller } = setup(null, false);
    let notified = 0;
    controller.subscribe(() => {
      notified += 1;
    });
    expect(root.dataset.theme).toBe('light');
    media.flip(true);
    expect(root.dataset.theme).toBe('dark');
    expect(notified).toBe(1);
  });

  it('ignores the OS once a fixed mode is chosen, and saves the choice', () => {
    const { root, media, controller, store } = setup(null, false);
    controller.setMode('light');
    media.flip(true);
    expect(root.dataset.theme).toBe('light');
    expect(store.get(appearanceStorageKey)).toBe('light');
    controller.setMode('system');
    expect(root.dataset.theme).toBe('dark');
  });
});
