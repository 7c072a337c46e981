// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { saveRedirectTarget, takeRedirectTarget } from './redirect-target.ts';

afterEach(() => sessionStorage.clear());

describe('redirect after sign-in (spec §2.4, §5)', () => {
  it('returns the stored console path with its search and hash, once', () => {
    saveRedirectTarget({ pathname: '/console/roles/abc', search: '?page=2', hash: '#top' });
    expect(takeRedirectTarget('/console')).toBe('/roles/abc?page=2#top');
    expect(takeRedirectTarget('/console'), 'the target is forgotten after use').toBe('/');
  });

  it.each([
    ['//evil.example/console', 'protocol-relative'],
    ['https://evil.example/console', 'absolute URL'],
    ['/elsewhere', 'outside the console'],
    ['/console\\evil', 'backslash'],
  ])('ignores %s (%s)', (pathname) => {
    saveRedirectTarget({ pathname });
    expect(takeRedirectTarget('/console')).toBe('/');
  });

  it('ignores stored data that does not match the schema', () => {
    sessionStorage.setItem('gatehouse:redirect-after-sign-in', JSON.stringify({ pathname: 42 }));
    expect(takeRedirectTarget('/console')).toBe('/');
    sessionStorage.setItem('gatehouse:redirect-after-sign-in', '{not json');
    expect(takeRedirectTarget('/console')).toBe('/');
  });

  it('drops a search or hash without its leading character', () => {
    saveRedirectTarget({ pathname: '/console/roles', search: 'x=1', hash: 'top' });
    expect(takeRedirectTarget('/console')).toBe('/roles');
  });
});
