import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../api/client.ts';
import { useLinkSocialIdentity } from '../../../api/me-linked-accounts.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import own from './LinkedAccounts.module.css';
import { announceLinking, handleSocialUrl, takeLinkingConnector } from './social-linking.ts';

/**
 * What the page shows: the work in progress, then what became of it with a way to close the window (for a browser
 * that does not let the page close itself).
 */
type View = { kind: 'linking' } | { kind: 'linked' } | { kind: 'failed'; message: string };

/**
 * Route '/handle-social' (spec §2.1, §4, §7, cloud only): where the provider returns the linking popup. It reads the
 * connector id the profile stored (which removes it), posts every query parameter and its own address to
 * `link-identity`, tells the profile and closes. `user.identity_already_in_use` is an alert first (spec §8); other
 * refusals stay on the page, which the user closes.
 */
export function HandleSocialPage() {
  const { t } = useTranslation('profile');
  useDocumentTitle(t('linked_accounts.handle_social.title'));
  const confirm = useConfirm();
  const { mutateAsync: link } = useLinkSocialIdentity();
  const [view, setView] = useState<View>({ kind: 'linking' });
  // Once, even when React runs effects twice in development: the provider's code can be redeemed once.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const query = new URLSearchParams(window.location.search);
    const state = query.get('state') ?? '';
    const connectorId = takeLinkingConnector();
    if (!connectorId) {
      setView({ kind: 'failed', message: t('linked_accounts.handle_social.no_linking') });
      return;
    }
    const tell = (outcome: 'linked' | 'failed') => announceLinking({ state, connectorId, outcome });
    const connectorData = { ...Object.fromEntries(query), redirectUri: handleSocialUrl() };
    link({ connectorId, connectorData }).then(
      () => {
        tell('linked');
        setView({ kind: 'linked' });
        window.close();
      },
      async (error: unknown) => {
        if (error instanceof ApiError && error.code === 'user.identity_already_in_use') {
          await confirm({ variant: 'alert', content: error.message });
          tell('failed');
          window.close();
          return;
        }
        tell('failed');
        setView({
          kind: 'failed',
          message: error instanceof ApiError ? error.message : t('linked_accounts.handle_social.failed'),
        });
      },
    );
  }, [confirm, link, t]);

  return (
    <main className={own.landing}>
      <h1>{t('linked_accounts.handle_social.title')}</h1>
      {view.kind === 'linking' ? (
        <Loading />
      ) : (
        <>
          {view.kind === 'linked' ? (
            <p role="status">{t('linked_accounts.handle_social.linked')}</p>
          ) : (
            <p role="alert">{view.message}</p>
          )}
          <Button onClick={() => window.close()}>{t('linked_accounts.handle_social.close')}</Button>
        </>
      )}
    </main>
  );
}
