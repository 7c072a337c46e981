import { type ReactElement, useState } from 'react';
import { Avatar } from '../../../components/Avatar/Avatar.tsx';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { forEdition } from '../edition-scope.ts';
import styles from '../Profile.module.css';
import { ProfileRow } from '../ProfileRow.tsx';
import type { ProfileSectionProps } from '../section-props.ts';
import { AvatarModal } from './AvatarModal.tsx';
import { NameModal } from './NameModal.tsx';
import { type SettingsRowKey, settingsRows } from './settings-rows.ts';
import { UsernameModal } from './UsernameModal.tsx';

const rows = forEdition(settingsRows, import.meta.env.GATEHOUSE_EDITION);

/** Spec §2.12: avatar, name and (OSS) username, each with its change action. */
export function SettingsSection({ me }: ProfileSectionProps) {
  const { t } = useTranslation('profile');
  const [editing, setEditing] = useState<SettingsRowKey>();
  const close = () => setEditing(undefined);
  const notSet = <span className={styles.muted}>{t('not_set')}</span>;

  function changeButton(key: SettingsRowKey, label: string, text = t('change')) {
    return (
      <Button size="small" aria-label={label} onClick={() => setEditing(key)}>
        {text}
      </Button>
    );
  }

  const content: Record<SettingsRowKey, () => ReactElement> = {
    avatar: () => (
      <ProfileRow
        key="avatar"
        label={t('avatar.label')}
        value={<Avatar src={me.avatar} name={me.name} username={me.username} email={me.primaryEmail} size="large" />}
        action={changeButton('avatar', t('avatar.title'))}
      />
    ),
    name: () => (
      <ProfileRow
        key="name"
        label={t('name.label')}
        value={me.name ?? notSet}
        // Spec §2.12: the action reads 'set name' while there is none.
        action={me.name ? changeButton('name', t('name.title')) : changeButton('name', t('name.set'), t('name.set'))}
      />
    ),
    username: () => (
      <ProfileRow
        key="username"
        label={t('username.label')}
        value={me.username ?? notSet}
        action={changeButton('username', t('username.title'))}
      />
    ),
  };

  return (
    <Card title={t('sections.settings')}>
      <dl className={styles.rows}>{rows.map((row) => content[row.key]())}</dl>
      {editing === 'avatar' && <AvatarModal me={me} onClose={close} />}
      {editing === 'name' && <NameModal me={me} onClose={close} />}
      {editing === 'username' && <UsernameModal me={me} onClose={close} />}
    </Card>
  );
}
