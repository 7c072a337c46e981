import { describe, expect, it } from 'vitest';
import { listQuery, managementPath, searchPattern } from './management.ts';

describe('searchPattern', () => {
  it('wraps the text so the server matches it anywhere', () => {
    expect(searchPattern('orders')).toBe('%orders%');
    expect(searchPattern('  read orders ')).toBe('%read orders%');
  });

  it('escapes the LIKE wildcards and the escape character, so they match themselves', () => {
    expect(searchPattern('read_o')).toBe('%read\\_o%');
    expect(searchPattern('100%')).toBe('%100\\%%');
    expect(searchPattern('a\\b')).toBe('%a\\\\b%');
  });

  it('gives no search for blank text', () => {
    expect(searchPattern('')).toBeUndefined();
    expect(searchPattern('   ')).toBeUndefined();
  });
});

describe('managementPath and listQuery', () => {
  it('builds the OSS and cloud paths of a list call', () => {
    expect(managementPath(undefined, `/resources${listQuery({ page: 2, search: searchPattern('a_b') })}`)).toBe(
      '/api/resources?page=2&search=%25a%5C_b%25',
    );
    expect(managementPath('t 1', 'resources')).toBe('/m/t%201/api/resources');
  });
});
