import type { UserMfaVerification } from '@gatehouse/schemas';
import { useCallback, useMemo } from 'react';
import { Button } from '../../../components/Button/Button.tsx';
import { UserText } from '../../../components/UserText.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../Profile.module.css';
import { ProfileRow } from '../ProfileRow.tsx';
import own from './Security.module.css';
import { usePasskeyName } from './use-mfa-actions.ts';

/** Times of the account's factors in the interface language: 'Nov 21, 2026, 4:38 PM'. */
function useDateTimeFormat(): (epochMs: number) => string {
  const { i18n } = useTranslation();
  const format = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }),
    [i18n.language],
  );
  return useCallback((epochMs: number) => format.format(epochMs), [format]);
}

type Props = {
  verifications: readonly UserMfaVerification[];
  onSetUpTotp: () => void;
  onRemove: (verification: UserMfaVerification) => void;
};

/** The account's factors, one row each: its passkeys (or none), its authenticator app, its backup codes if any. */
export function MfaFactorRows({ verifications, onSetUpTotp, onRemove }: Props) {
  const { t } = useTranslation('profile');
  const formatTime = useDateTimeFormat();
  const passkeyName = usePasskeyName();
  const passkeys = verifications.filter((row) => row.type === 'WebAuthn');
  const totp = verifications.find((row) => row.type === 'Totp');
  const backupCodes = verifications.find((row) => row.type === 'BackupCode');

  function details(row: UserMfaVerification): string {
    return [
      row.backedUp === undefined ? undefined : row.backedUp ? t('mfa.synced') : t('mfa.device_bound'),
      t('mfa.added_at', { time: formatTime(row.createdAt) }),
      row.lastUsedAt === null ? t('mfa.never_used') : t('mfa.last_used_at', { time: formatTime(row.lastUsedAt) }),
    ]
      .filter(Boolean)
      .join(' · ');
  }

  function removeButton(row: UserMfaVerification, label: string) {
    return (
      <Button variant="text" size="small" aria-label={label} onClick={() => onRemove(row)}>
        {t('mfa.remove')}
      </Button>
    );
  }

  return (
    <dl className={styles.rows}>
      {passkeys.length === 0 ? (
        <ProfileRow label={t('mfa.passkeys')} value={<span className={styles.muted}>{t('mfa.no_passkeys')}</span>} />
      ) : (
        passkeys.map((passkey) => (
          <ProfileRow
            key={passkey.id}
            label={t('mfa.passkey')}
            value={
              <>
                <UserText>{passkeyName(passkey)}</UserText>
                <span className={own.detail}>{details(passkey)}</span>
              </>
            }
            action={removeButton(passkey, t('mfa.remove_passkey_named', { name: passkeyName(passkey) }))}
          />
        ))
      )}
      <ProfileRow
        label={t('mfa.totp')}
        value={
          totp ? (
            <>
              <span>{t('mfa.totp_on')}</span>
              <span className={own.detail}>{details(totp)}</span>
            </>
          ) : (
            <span className={styles.muted}>{t('mfa.totp_off')}</span>
          )
        }
        action={
          totp ? (
            removeButton(totp, t('mfa.remove_totp_title'))
          ) : (
            <Button size="small" aria-label={t('mfa.totp_title')} onClick={onSetUpTotp}>
              {t('mfa.set_up')}
            </Button>
          )
        }
      />
      {backupCodes && (
        <ProfileRow
          label={t('mfa.backup_codes')}
          value={
            <>
              <span>{t('mfa.remain_codes', { count: backupCodes.remainCodes ?? 0 })}</span>
              <span className={own.detail}>{details(backupCodes)}</span>
            </>
          }
          action={removeButton(backupCodes, t('mfa.remove_backup_codes_title'))}
        />
      )}
    </dl>
  );
}
