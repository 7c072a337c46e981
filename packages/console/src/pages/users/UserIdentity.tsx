import type { User } from '@gatehouse/schemas';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components/Avatar/Avatar.tsx';
import { UserText } from '../../components/UserText.tsx';
import styles from './Users.module.css';
import { userDisplayName, userSecondaryText } from './user-display.ts';

type Props = { user: Pick<User, 'id' | 'name' | 'username' | 'primaryEmail' | 'primaryPhone' | 'avatar'> };

/** A user as rows show them: avatar, the name (or first identifier) and the other identifiers under it. */
export function UserIdentity({ user }: Props) {
  const { t } = useTranslation('users');
  const secondary = userSecondaryText(user);
  return (
    <span className={styles.identity}>
      <Avatar src={user.avatar} name={user.name} username={user.username} email={user.primaryEmail} size="small" />
      <span className={styles.stack}>
        <span className={styles.displayName}>
          <UserText>{userDisplayName(user) ?? t('unnamed')}</UserText>
        </span>
        {secondary && (
          <span className={styles.secondary}>
            <UserText>{secondary}</UserText>
          </span>
        )}
      </span>
    </span>
  );
}
