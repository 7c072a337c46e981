import { useEffect, useRef, useState } from 'react';
import { useSocialAuthorizationUri, useSocialLinked } from '../../../api/me-linked-accounts.ts';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import {
  clearLinkingConnector,
  generateLinkingState,
  handleSocialUrl,
  popupFeatures,
  storeLinkingConnector,
  watchLinking,
} from './social-linking.ts';

/** The popup's window name: a second Connect reuses the window rather than opening another. */
const popupName = 'gatehouse-social-linking';

/**
 * The profile's side of linking a social account (spec §4, §7): the connector id goes to sessionStorage before the
 * popup opens, the popup goes to the provider, and the profile waits for the landing page's word, then reads the list
 * and the account again (also when the popup reads as closed). Answers `connect` and the connector being linked.
 */
export function useSocialLinking() {
  const { t } = useTranslation('profile');
  const toast = useToast();
  const { mutateAsync: authorizationUri } = useSocialAuthorizationUri();
  const refresh = useSocialLinked();
  const [linkingId, setLinkingId] = useState<string>();
  const stopWatching = useRef<() => void>(undefined);
  useEffect(() => () => stopWatching.current?.(), []);

  async function connect(connectorId: string, name: string): Promise<void> {
    stopWatching.current?.();
    const state = generateLinkingState();
    storeLinkingConnector(connectorId);
    setLinkingId(connectorId);
    const end = () => {
      clearLinkingConnector();
      setLinkingId(undefined);
    };
    let redirectTo: string;
    try {
      ({ redirectTo } = await authorizationUri({ connectorId, state, redirectUri: handleSocialUrl() }));
    } catch (error) {
      end();
      // The global toast said why (an unreachable provider, a connector gone).
      if (!handleSubmitError(error, toast)) throw error;
      return;
    }
    const popup = window.open(redirectTo, popupName, popupFeatures(window));
    if (!popup) {
      end();
      toast.error(t('linked_accounts.popup_blocked'));
      return;
    }
    popup.focus();
    stopWatching.current = watchLinking({
      state,
      popup,
      // Closed, or only cut off from this page by the provider's pages: Connect works again, the landing page's word
      // is still awaited.
      onClosed: () => {
        end();
        void refresh();
      },
      onDone: (outcome) => {
        end();
        if (outcome === 'linked') toast.success(t('linked_accounts.social_added', { name }));
        void refresh();
      },
    });
  }

  return { connect, linkingId };
}
