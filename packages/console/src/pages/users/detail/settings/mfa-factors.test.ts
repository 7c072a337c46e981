import type { UserMfaVerification } from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';
import { backupCodesFileName, backupCodesFileText, mfaFactorActions, passkeyRow } from './mfa-factors.ts';

const factor = (type: UserMfaVerification['type']): UserMfaVerification => ({
  id: type.toLowerCase(),
  type,
  createdAt: 0,
  lastUsedAt: null,
  ...(type === 'BackupCode' ? { remainCodes: 10 } : {}),
});

describe('mfaFactorActions', () => {
  it('offers a TOTP factor but no backup codes to a user without factors', () => {
    expect(mfaFactorActions([])).toEqual({ canAddTotp: true, backupCodesBlockedBy: 'needs_other_factor' });
  });

  it('offers backup codes once a TOTP or WebAuthn factor exists, and no second TOTP', () => {
    expect(mfaFactorActions([factor('Totp')])).toEqual({ canAddTotp: false, backupCodesBlockedBy: undefined });
    expect(mfaFactorActions([factor('WebAuthn')])).toEqual({ canAddTotp: true, backupCodesBlockedBy: undefined });
  });

  it('offers no second set of backup codes, even when the TOTP factor has gone', () => {
    expect(mfaFactorActions([factor('BackupCode'), factor('Totp')]).backupCodesBlockedBy).toBe('already_exists');
    expect(mfaFactorActions([factor('BackupCode')])).toEqual({
      canAddTotp: true,
      backupCodesBlockedBy: 'already_exists',
    });
  });
});

describe('passkeyRow', () => {
  it('names a passkey by its own name, and says whether it is synced or bound to one device', () => {
    expect(passkeyRow({ ...factor('WebAuthn'), name: ' MacBook Pro ', backedUp: true })).toEqual({
      name: 'MacBook Pro',
      kind: 'synced',
    });
    expect(passkeyRow({ ...factor('WebAuthn'), name: 'YubiKey', backedUp: false })).toEqual({
      name: 'YubiKey',
      kind: 'device_bound',
    });
  });

  it('leaves out a blank name and a kind the server did not give', () => {
    expect(passkeyRow({ ...factor('WebAuthn'), name: '  ' })).toEqual({ name: undefined, kind: undefined });
    expect(passkeyRow(factor('WebAuthn'))).toEqual({ name: undefined, kind: undefined });
  });
});

describe('backup codes file', () => {
  it('has the heading, a blank line and one code a line, with Windows line ends', () => {
    expect(backupCodesFileText('Backup codes of Ada', ['aaaaaaaaaa', 'bbbbbbbbbb'])).toBe(
      'Backup codes of Ada\r\n\r\naaaaaaaaaa\r\nbbbbbbbbbb\r\n',
    );
  });

  it('is named after the account, with unsafe characters replaced', () => {
    expect(backupCodesFileName('ada@example.com')).toBe('backup-codes-ada@example.com.txt');
    expect(backupCodesFileName('Ada Lovelace / R&D')).toBe('backup-codes-Ada-Lovelace-R-D.txt');
    expect(backupCodesFileName('José')).toBe('backup-codes-José.txt');
    expect(backupCodesFileName('../..')).toBe('backup-codes-..-...txt');
    expect(backupCodesFileName('///')).toBe('backup-codes.txt');
  });
});
