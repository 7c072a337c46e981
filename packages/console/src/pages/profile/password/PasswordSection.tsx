import { useNavigate } from 'react-router';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { toChangePassword, toVerifyPassword } from '../links.ts';
import styles from '../Profile.module.css';
import { ProfileRow } from '../ProfileRow.tsx';
import { type ProfileRouteState, parseProfileRouteState } from '../route-state.ts';
import type { ProfileSectionProps } from '../section-props.ts';

/** Stands for a password without saying anything about it, not even its length. */
const maskedPassword = '********';

/** Spec §2.12: the password, masked or 'not set'; changing it starts with proof of the current one. */
export function PasswordSection({ me }: ProfileSectionProps) {
  const { t } = useTranslation('profile');
  const navigate = useNavigate();
  // Both steps carry the primary email and the action; parsing drops an email that is not one (spec §5).
  const state: ProfileRouteState = parseProfileRouteState({
    email: me.primaryEmail ?? undefined,
    action: 'changePassword',
  });
  return (
    <Card title={t('sections.password')}>
      <dl className={styles.rows}>
        <ProfileRow
          label={t('password.label')}
          value={me.hasPassword ? <span>{maskedPassword}</span> : <span className={styles.muted}>{t('not_set')}</span>}
          action={
            <Button
              size="small"
              aria-label={me.hasPassword ? t('password.change_title') : t('password.set_title')}
              onClick={() => navigate(me.hasPassword ? toVerifyPassword() : toChangePassword(), { state })}
            >
              {t('change')}
            </Button>
          }
        />
      </dl>
    </Card>
  );
}
