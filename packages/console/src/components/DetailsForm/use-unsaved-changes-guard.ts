import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { useTranslation } from '../../i18n/react.tsx';
import { useConfirm } from '../Modal/confirm-context.ts';

/**
 * While `isDirty`, leaving the page asks first: in-app navigation through the confirm modal, closing or reloading
 * the tab through the browser's own prompt. Changes of only the query or hash stay on the page and pass, and so do
 * paths `staysOnPage` accepts (the tabs of one form that spans them, as the sign-in experience's).
 */
export function useUnsavedChangesGuard(isDirty: boolean, staysOnPage?: (pathname: string) => boolean): void {
  const { t } = useTranslation('components');
  const confirm = useConfirm();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      isDirty && currentLocation.pathname !== nextLocation.pathname && !staysOnPage?.(nextLocation.pathname),
  );

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    let isCurrent = true;
    void confirm({
      content: t('unsaved_changes.message'),
      confirmText: t('unsaved_changes.leave'),
      cancelText: t('unsaved_changes.stay'),
      ownsHistoryEntry: false,
    }).then((leave) => {
      // A newer render may already have asked again; only the latest answer may move the blocker.
      if (!isCurrent) return;
      if (leave) blocker.proceed();
      else blocker.reset();
    });
    return () => {
      isCurrent = false;
    };
  }, [blocker, confirm, t]);

  useEffect(() => {
    if (!isDirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [isDirty]);
}
