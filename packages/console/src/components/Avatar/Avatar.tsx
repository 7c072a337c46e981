import { useState } from 'react';
import { useTranslation } from '../../i18n/react.tsx';
import { classNames } from '../class-names.ts';
import { PersonIcon } from '../icons.tsx';
import styles from './Avatar.module.css';
import { avatarColorIndex, avatarLetter } from './avatar-letter.ts';

export type AvatarProps = {
  src?: string | null;
  name?: string | null;
  username?: string | null;
  email?: string | null;
  size?: 'small' | 'medium' | 'large';
  className?: string;
};

/** Spec §3: the image if set; a theme-coloured placeholder if it fails; else a coloured initial. */
export function Avatar({ src, name, username, email, size = 'medium', className }: AvatarProps) {
  const { t } = useTranslation('components');
  // Remembers which source failed, so a new src gets its own chance to load.
  const [failedSrc, setFailedSrc] = useState<string>();
  const label = [name, username, email].map((value) => value?.trim()).find(Boolean) ?? t('avatar.placeholder');
  const classes = (...extra: Array<string | undefined>) => classNames(styles.avatar, styles[size], ...extra, className);

  if (src && src !== failedSrc) {
    return <img className={classes(styles.image)} src={src} alt={label} onError={() => setFailedSrc(src)} />;
  }
  const letter = src ? undefined : avatarLetter(name, username, email);
  if (!letter) {
    return (
      <span role="img" aria-label={label} className={classes(styles.placeholder)} data-testid="avatar-placeholder">
        <PersonIcon />
      </span>
    );
  }
  const colorIndex = avatarColorIndex(letter);
  return (
    <span role="img" aria-label={label} className={classes(styles[`color${colorIndex}`])} data-color-index={colorIndex}>
      <span aria-hidden="true">{letter}</span>
    </span>
  );
}
