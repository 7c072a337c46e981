import { checkPassword, defaultPasswordPolicy } from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';

const policy = (changes: Partial<typeof defaultPasswordPolicy.rejects> = {}, minTypes = 1) => ({
  ...defaultPasswordPolicy,
  characterTypes: { min: minTypes },
  rejects: { ...defaultPasswordPolicy.rejects, ...changes },
});

describe('password policy (spec §5)', () => {
  it('accepts a reasonable password under the default policy', () => {
    expect(checkPassword('Tea-party-at-4')).toEqual([]);
    expect(checkPassword('correct horse battery')).toEqual([]);
  });

  it('checks length and supported characters', () => {
    expect(checkPassword('Ab3$xyz')).toContain('password_rejected.too_short');
    expect(checkPassword('a'.repeat(257))).toContain('password_rejected.too_long');
    expect(checkPassword('pässwörter-1')).toContain('password_rejected.unsupported_characters');
  });

  it('counts character types against the minimum', () => {
    expect(checkPassword('onlylowercase', policy({}, 2))).toContain('password_rejected.character_types');
    expect(checkPassword('lower-and-symbols', policy({}, 2))).toEqual([]);
    expect(checkPassword('Lower-Upper-9', policy({}, 4))).toEqual([]);
  });

  it('rejects passwords made mostly of repetition or sequences, not ones that merely contain them', () => {
    expect(checkPassword('aaaaaaaa')).toContain('password_rejected.restricted.repetition');
    expect(checkPassword('abcdefgh')).toContain('password_rejected.restricted.sequence');
    expect(checkPassword('87654321')).toContain('password_rejected.restricted.sequence');
    expect(checkPassword('xyz-Tea-party-at-4')).toEqual([]);
    expect(checkPassword('aaa-Tea-party')).toEqual([]);
    expect(checkPassword('aaaaaaaa', policy({ repetitionAndSequence: false }))).toEqual([]);
  });

  it('counts repetition and sequences together: a password of half of each is nothing but runs (issue 37 item 9)', () => {
    const rejected = checkPassword('aaaa1234');
    expect(rejected).toContain('password_rejected.restricted.repetition');
    expect(rejected).toContain('password_rejected.restricted.sequence');
    expect(checkPassword('zzzz9876')).toContain('password_rejected.restricted.sequence');
    // Enough else around the runs still passes.
    expect(checkPassword('aaa-Tea-123')).toEqual([]);
    expect(checkPassword('aaaa1234', policy({ repetitionAndSequence: false }))).toEqual([]);
  });

  it('rejects custom words and the user’s own details', () => {
    const words = policy({ words: ['gatehouse'] });
    expect(checkPassword('Gatehouse1', words)).toContain('password_rejected.restricted.words');
    expect(checkPassword('my-Gatehouse-at-home', words)).toEqual([]);
    const info = { username: 'alice', primaryEmail: 'liddell@example.com', name: 'Alice Liddell' };
    expect(checkPassword('alicealice', undefined, info)).toContain('password_rejected.restricted.user_info');
    expect(checkPassword('Liddell!', undefined, info)).toContain('password_rejected.restricted.user_info');
    expect(checkPassword('AliceLiddell', undefined, info)).toContain('password_rejected.restricted.user_info');
    expect(checkPassword('alice-and-the-Hatter', undefined, info)).toEqual([]);
    expect(checkPassword('alicealice', policy({ userInfo: false }), info)).toEqual([]);
  });
});
