import { useEffect } from 'react';
import { useTranslation } from '../i18n/react.tsx';

/** The '%s - Gatehouse' template: the page comes first so browser tabs stay distinguishable. */
export function formatDocumentTitle(page: string, appName: string): string {
  return `${page} - ${appName}`;
}

export function useDocumentTitle(page: string): void {
  const { t } = useTranslation('common');
  const appName = t('app_name');
  useEffect(() => {
    document.title = formatDocumentTitle(page, appName);
  }, [page, appName]);
}
