import { describe, expect, it } from 'vitest';
import { userSearchValue } from './users.ts';

describe('userSearchValue', () => {
  it('sends typed text as it is: the users API reads it literally and searches phones by their digits', () => {
    expect(userSearchValue('  john_d ')).toBe('john_d');
    expect(userSearchValue('+1 (555) 01')).toBe('+1 (555) 01');
    expect(userSearchValue('   ')).toBeUndefined();
  });

  it('escapes a text holding %, which the API would read as a pattern', () => {
    expect(userSearchValue('50%_off')).toBe('%50\\%\\_off%');
  });
});
