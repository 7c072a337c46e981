import type { User } from '@gatehouse/schemas';
import { Avatar } from '../../components/Avatar/Avatar.tsx';
import { EmailText } from '../../components/EmailText.tsx';
import { UserText } from '../../components/UserText.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './Users.module.css';
import { userDisplayName, userSecondaryParts } from './user-display.ts';

type Props = {
  user: Pick<User, 'id' | 'name' | 'username' | 'primaryEmail' | 'primaryPhone' | 'avatar'>;
  /** False where the row shows the email in a column of its own (each value once a row). */
  withEmail?: boolean;
};

/** A user as rows show them: avatar, the name (or first identifier) and the other identifiers under it. */
export function UserIdentity({ user, withEmail = true }: Props) {
  const { t } = useTranslation('users');
  const { username, email } = userSecondaryParts(user, { withEmail });
  return (
    <span className={styles.identity}>
      <Avatar src={user.avatar} name={user.name} username={user.username} email={user.primaryEmail} size="small" />
      <span className={styles.stack}>
        <span className={styles.displayName}>
          <UserText>{userDisplayName(user) ?? t('unnamed')}</UserText>
        </span>
        {(username || email) && (
          <span className={styles.secondary}>
            {username && <UserText>{username}</UserText>}
            {username && email && <span aria-hidden="true"> · </span>}
            {email && <EmailText>{email}</EmailText>}
          </span>
        )}
      </span>
    </span>
  );
}
