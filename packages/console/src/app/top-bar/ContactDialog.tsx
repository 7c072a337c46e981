import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CalendarIcon, ChatIcon, CodeIcon, MailIcon } from '../../components/icons.tsx';
import { Modal } from '../../components/Modal/Modal.tsx';
import { externalLinks } from '../external-links.ts';
import styles from './ContactDialog.module.css';

type Row = { key: 'community' | 'code' | 'email' | 'meeting'; icon: ReactNode; href: string };

/** Spec §2.11: four ways to reach the team, each opening an external link in a new tab. */
const rows: readonly Row[] = [
  { key: 'community', icon: <ChatIcon />, href: externalLinks.communityChat },
  { key: 'code', icon: <CodeIcon />, href: externalLinks.codeHost },
  { key: 'email', icon: <MailIcon />, href: `mailto:${externalLinks.supportEmail}` },
  { key: 'meeting', icon: <CalendarIcon />, href: externalLinks.meeting },
];

export function ContactDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal isOpen={isOpen} onClose={onClose} title={t('contact.title')}>
      <p className={styles.intro}>{t('contact.description')}</p>
      <ul className={styles.rows}>
        {rows.map((row) => (
          <li key={row.key} className={styles.row}>
            <span className={styles.icon}>{row.icon}</span>
            <div className={styles.text}>
              <h3 id={`contact-${row.key}`} className={styles.title}>
                {t(`contact.${row.key}_title`)}
              </h3>
              <p className={styles.description}>{t(`contact.${row.key}_description`)}</p>
            </div>
            <a
              className={styles.action}
              href={row.href}
              target="_blank"
              rel="noopener noreferrer"
              aria-describedby={`contact-${row.key}`}
            >
              {t(`contact.${row.key}_action`)}
            </a>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
