import { useEffect } from 'react';
import { useConfirm } from '../components/Modal/confirm-context.ts';
import { useTranslation } from '../i18n/react.tsx';
import { registerForbiddenAlert } from './session-errors.ts';

/** Lets the API client (its string is in `common`, which the shell has already loaded) show the `auth.forbidden` alert (spec §8) with the console's own modal. */
export function ForbiddenAlert() {
  const confirm = useConfirm();
  const { t } = useTranslation();
  useEffect(
    () => registerForbiddenAlert(() => confirm({ variant: 'alert', content: t('errors.forbidden') })),
    [confirm, t],
  );
  return null;
}
