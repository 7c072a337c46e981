import type { UserMfaVerification } from '@gatehouse/schemas';

/**
 * What the MFA factors card may offer, by the server's rules: one authenticator app (TOTP) and one set of backup
 * codes per user, and backup codes only once there is a TOTP or WebAuthn factor for them to back up. A passkey
 * (WebAuthn) is never offered: it needs the user's own authenticator, so only the user can add one.
 */
export type MfaFactorActions = {
  canAddTotp: boolean;
  /** Why backup codes cannot be generated now, or undefined when they can. */
  backupCodesBlockedBy: 'needs_other_factor' | 'already_exists' | undefined;
};

export function mfaFactorActions(verifications: readonly UserMfaVerification[]): MfaFactorActions {
  const has = (type: UserMfaVerification['type']) => verifications.some((verification) => verification.type === type);
  return {
    canAddTotp: !has('Totp'),
    backupCodesBlockedBy: has('BackupCode')
      ? 'already_exists'
      : has('Totp') || has('WebAuthn')
        ? undefined
        : 'needs_other_factor',
  };
}

/**
 * A passkey's row: its own name (given by its user, or the browser and system it was made on; undefined when it has
 * none), and whether it is synced between the user's devices or bound to one (undefined when the server did not say).
 */
export function passkeyRow(verification: UserMfaVerification): {
  name: string | undefined;
  kind: 'synced' | 'device_bound' | undefined;
} {
  const name = verification.name?.trim() || undefined;
  const kind = verification.backedUp === undefined ? undefined : verification.backedUp ? 'synced' : 'device_bound';
  return { name, kind };
}

/** The downloaded file: a heading line naming the account, then one code a line (CRLF, so Notepad shows lines too). */
export function backupCodesFileText(heading: string, codes: readonly string[]): string {
  return [heading, '', ...codes, ''].join('\r\n');
}

/** `backup-codes-ada.txt`: the account in the name so two users' files do not collide; unsafe characters become '-'. */
export function backupCodesFileName(account: string): string {
  const safe = account
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}._@-]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return safe ? `backup-codes-${safe}.txt` : 'backup-codes.txt';
}
