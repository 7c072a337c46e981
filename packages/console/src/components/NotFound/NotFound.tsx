import { Link } from 'react-router';
import { useTranslation } from '../../i18n/react.tsx';
import { useLandingPath } from '../routing/landing-path.ts';
import { useDocumentTitle } from '../use-document-title.ts';
import styles from './Message.module.css';

export function NotFound() {
  const { t } = useTranslation();
  useDocumentTitle(t('errors.page_not_found'));
  return (
    <section className={styles.message} aria-labelledby="page-not-found-title">
      <h1 id="page-not-found-title">{t('errors.page_not_found')}</h1>
      <p>{t('errors.page_not_found_description')}</p>
      <Link to={useLandingPath()}>{t('back_home')}</Link>
    </section>
  );
}
