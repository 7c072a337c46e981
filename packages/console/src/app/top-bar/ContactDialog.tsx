import type { ReactNode } from 'react';
import { CalendarIcon, ChatIcon, CodeIcon, MailIcon } from '../../components/icons.tsx';
import { Modal } from '../../components/Modal/Modal.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import { type ContactRowKey, contactRows } from '../external-links.ts';
import styles from './ContactDialog.module.css';

const icons: Record<ContactRowKey, ReactNode> = {
  community: <ChatIcon />,
  code: <CodeIcon />,
  email: <MailIcon />,
  meeting: <CalendarIcon />,
};

/** Spec §2.11: the ways to reach the team (those configured), each opening an external link in a new tab. */
const rows = contactRows().map((row) => ({ ...row, icon: icons[row.key] }));

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
