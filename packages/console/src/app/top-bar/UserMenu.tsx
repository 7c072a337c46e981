import { appearanceModes } from '@gatehouse/schemas';
import { Avatar } from '../../components/Avatar/Avatar.tsx';
import { ContrastIcon, GlobeIcon, PersonIcon, SignOutIcon } from '../../components/icons.tsx';
import { MenuButton } from '../../components/Menu/MenuButton.tsx';
import type { MenuEntry } from '../../components/Menu/menu-entries.ts';
import { interfaceLanguages } from '../../i18n/index.ts';
import { languageName } from '../../i18n/language-name.ts';
import { pseudoLanguage } from '../../i18n/languages.ts';
import { useTranslation } from '../../i18n/react.tsx';
import type { AccountState } from '../account.ts';
import { useConsolePreferences } from '../preferences/use-console-preferences.ts';
import styles from './UserMenu.module.css';

type Props = AccountState & {
  /** Signs out; the menu shows it as loading and ignores further clicks until the browser leaves. */
  onSignOut: () => Promise<unknown>;
};

/** Spec §2.5: avatar, name and email; profile in a new tab, language, appearance, sign out. */
export function UserMenu({ onSignOut, ...accountState }: Props) {
  const { t } = useTranslation();
  const { account } = accountState;
  const { language, appearanceMode, setLanguage, setAppearanceMode } = useConsolePreferences(accountState);
  const displayName = account?.name ?? account?.username ?? account?.id ?? '';
  const name = (value: string) => (value === pseudoLanguage ? t('user_menu.pseudo_language') : languageName(value));

  const entries: MenuEntry[] = [
    {
      kind: 'link',
      id: 'profile',
      label: t('user_menu.profile'),
      icon: <PersonIcon />,
      href: `${import.meta.env.BASE_URL}profile`,
      newTab: true,
    },
    {
      kind: 'submenu',
      id: 'language',
      label: t('user_menu.language'),
      icon: <GlobeIcon />,
      hint: name(language),
      entries: interfaceLanguages.map((value) => ({
        kind: 'radio',
        id: value,
        label: name(value),
        checked: value === language,
        onSelect: () => void setLanguage(value),
      })),
    },
    {
      kind: 'submenu',
      id: 'appearance',
      label: t('user_menu.appearance'),
      icon: <ContrastIcon />,
      hint: t(`user_menu.appearance_modes.${appearanceMode}`),
      entries: appearanceModes.map((mode) => ({
        kind: 'radio',
        id: mode,
        label: t(`user_menu.appearance_modes.${mode}`),
        checked: mode === appearanceMode,
        onSelect: () => void setAppearanceMode(mode),
      })),
    },
    { kind: 'separator', id: 'separator' },
    { kind: 'action', id: 'sign-out', label: t('user_menu.sign_out'), icon: <SignOutIcon />, onSelect: onSignOut },
  ];

  const avatar = (size: 'small' | 'medium') => (
    <Avatar
      size={size}
      src={account?.avatar}
      name={account?.name}
      username={account?.username}
      email={account?.email}
    />
  );

  return (
    <MenuButton
      label={t('user_menu.label')}
      entries={entries}
      header={
        <div className={styles.header}>
          {avatar('medium')}
          <div className={styles.identity}>
            <span className={styles.name}>{displayName}</span>
            {account?.email && <span className={styles.email}>{account.email}</span>}
          </div>
        </div>
      }
    >
      {avatar('small')}
    </MenuButton>
  );
}
