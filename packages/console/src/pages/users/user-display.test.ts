import { describe, expect, it } from 'vitest';
import { isSameJson } from '../../components/form/json-equal.ts';
import { statusFilterOf } from './list/status-filter.ts';
import { userDisplayName, userSecondaryText } from './user-display.ts';

describe('userDisplayName', () => {
  it('prefers the name, then username, email and phone', () => {
    expect(userDisplayName({ name: 'Ada', username: 'ada', primaryEmail: 'a@x.io' })).toBe('Ada');
    expect(userDisplayName({ name: '  ', username: 'ada' })).toBe('ada');
    expect(userDisplayName({ name: null, username: null, primaryEmail: 'a@x.io' })).toBe('a@x.io');
    expect(userDisplayName({ primaryPhone: '15550100' })).toBe('15550100');
    expect(userDisplayName({})).toBeUndefined();
  });

  it('shows the other identifiers under it, never the one used as the name', () => {
    expect(userSecondaryText({ name: 'Ada', username: 'ada', primaryEmail: 'a@x.io' })).toBe('ada · a@x.io');
    expect(userSecondaryText({ username: 'ada', primaryEmail: 'a@x.io' })).toBe('a@x.io');
    expect(userSecondaryText({ username: 'ada' })).toBeUndefined();
  });
});

describe('statusFilterOf', () => {
  it('reads the URL value, and shows everyone for anything else', () => {
    expect(statusFilterOf('suspended')).toBe('suspended');
    expect(statusFilterOf('active')).toBe('active');
    expect(statusFilterOf('banned')).toBe('all');
    expect(statusFilterOf(null)).toBe('all');
  });
});

describe('isSameJson', () => {
  it('compares JSON values whatever the key order', () => {
    expect(isSameJson({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(isSameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(isSameJson([1, 2], [2, 1])).toBe(false);
    expect(isSameJson({ a: '1' }, { a: 1 })).toBe(false);
    expect(isSameJson(null, {})).toBe(false);
  });
});
