import { describe, expect, it } from 'vitest';
import { csvHeader, guessField, importFormatOf, initialMapping, jsonColumns } from './import-file.ts';

describe('import file', () => {
  it('reads a CSV header with quotes, a BOM and CRLF', () => {
    expect(csvHeader('\uFEFFusername,"Email, work","say ""hi"""\r\nalice,a@x.io,x')).toEqual([
      'username',
      'Email, work',
      'say "hi"',
    ]);
  });

  it('collects the keys of JSON objects and refuses what is not an array', () => {
    expect(jsonColumns('[{"a":1},{"b":2,"a":3},"x"]')).toEqual(['a', 'b']);
    expect(jsonColumns('{"a":1}')).toBeUndefined();
    expect(jsonColumns('[{')).toBeUndefined();
  });

  it('tells the format from the name, else from the text', () => {
    expect(importFormatOf('users.JSON', 'a,b')).toBe('json');
    expect(importFormatOf('users.csv', '[')).toBe('csv');
    expect(importFormatOf('export', '  [{}]')).toBe('json');
    expect(importFormatOf('export', 'a,b')).toBe('csv');
  });

  it('guesses fields from column names and maps each field once', () => {
    expect(guessField('E-mail')).toBe('primaryEmail');
    expect(guessField('notes')).toBeUndefined();
    expect(guessField('Email')).toBe('primaryEmail');
    expect(guessField('primary_email')).toBe('primaryEmail');
    expect(guessField('Phone number')).toBe('primaryPhone');
    expect(initialMapping(['email', 'mail', 'notes'])).toEqual({ email: 'primaryEmail', mail: '', notes: '' });
  });
});
