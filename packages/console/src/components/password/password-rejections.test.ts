import { passwordRejectionCodes } from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import components from '../../i18n/locales/en/components.json';
import { Translations } from '../../i18n/runtime.ts';
import { passwordRejectionMessages, serverPasswordRejections } from './password-rejections.ts';

const i18n = new Translations({ language: 'en', resources: { en: { components } } });
const t = i18n.getFixedT('en', 'components');

describe('serverPasswordRejections', () => {
  it('reads the policy codes of a password.rejected answer', () => {
    const error = new ApiError(422, 'Rejected', 'password.rejected', {
      rejections: ['password_rejected.too_short', 'password_rejected.restricted.sequence'],
    });
    expect(serverPasswordRejections(error)).toEqual([
      'password_rejected.too_short',
      'password_rejected.restricted.sequence',
    ]);
  });

  it('drops codes it cannot translate and survives a malformed body', () => {
    const unknown = new ApiError(422, 'Rejected', 'password.rejected', { rejections: ['password_rejected.new', 7] });
    expect(serverPasswordRejections(unknown)).toEqual([]);
    expect(serverPasswordRejections(new ApiError(422, 'Rejected', 'password.rejected', 'oops'))).toEqual([]);
  });

  it('is undefined for other errors', () => {
    expect(serverPasswordRejections(new ApiError(422, 'Stale', 'verification_record.invalid'))).toBeUndefined();
    expect(serverPasswordRejections(new Error('password.rejected'))).toBeUndefined();
  });
});

describe('passwordRejectionMessages', () => {
  it('has an English sentence for every code of the spec, none of them the bare key', () => {
    const messages = passwordRejectionMessages(passwordRejectionCodes, t);
    expect(messages).toHaveLength(passwordRejectionCodes.length);
    for (const [index, message] of messages.entries()) {
      expect(message).not.toBe(passwordRejectionCodes[index]);
      expect(message).toMatch(/\.$/);
    }
  });

  it("fills in the policy's numbers", () => {
    const policy = {
      length: { min: 12, max: 64 },
      characterTypes: { min: 3 },
      rejects: { pwned: false, repetitionAndSequence: true, userInfo: true, words: [] },
    };
    const [short, long, types] = passwordRejectionMessages(
      ['password_rejected.too_short', 'password_rejected.too_long', 'password_rejected.character_types'],
      t,
      policy,
    );
    expect(short).toContain('12');
    expect(long).toContain('64');
    expect(types).toContain('3');
  });

  it('says each problem once', () => {
    expect(passwordRejectionMessages(['password_rejected.pwned', 'password_rejected.pwned'], t)).toHaveLength(1);
  });
});
