import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader/PageHeader.tsx';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './SocialDemoCallbackPage.module.css';

/** The query parameter a demo provider returns with; the page drops it from the address (spec §2.11). */
export const demoCodeParam = 'code';

/**
 * Spec §2.11: the page a demo social connector returns to. It says the round trip worked and removes the `code`
 * query parameter from the address (replacing the history entry), so the code is not kept in history or bookmarks.
 */
export function SocialDemoCallbackPage() {
  const { t } = useTranslation('connectors');
  useDocumentTitle(t('social_demo_callback.title'));
  const [params, setParams] = useSearchParams();
  const hasCode = params.has(demoCodeParam);

  useEffect(() => {
    if (!hasCode) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(demoCodeParam);
        return next;
      },
      { replace: true },
    );
  }, [hasCode, setParams]);

  return (
    <main className={styles.page}>
      <PageHeader title={t('social_demo_callback.title')} subtitle={t('social_demo_callback.description')} />
    </main>
  );
}
