import type { TenantRegion, TenantTag } from '@gatehouse/schemas';
import { useState } from 'react';
import { useCreateCheckoutSession } from '../../api/billing.ts';
import { useToast } from '../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import { generateCheckoutState, saveStoredCheckout, successCallbackUrl } from './checkout-storage.ts';

/** Whose plan the checkout changes: an existing tenant, or a new one created once the payment completes. */
export type CheckoutTarget =
  | { tenantId: string }
  | { tenantName: string; tenantTag: TenantTag; tenantRegionName: TenantRegion };

export type CheckoutOptions = {
  /** An in-app path (under the console basename) to return to after success, instead of the tenant's page. */
  callbackPage?: string;
  /** Words the success toast as a downgrade. */
  isDowngrade?: boolean;
};

/**
 * Spec §4 checkout: creates a checkout session whose success URL carries a fresh random state, keeps
 * {state, sessionId, callbackPage?, isDowngrade?} in session storage for the callback page, and sends the browser to
 * the provider's page. `processingSkuId` is the plan being started (other plan buttons disable on it); it stays set
 * while the browser leaves. API errors are toasted by the query client; an empty redirect is 'unknown error'.
 */
export function useCheckout() {
  const { t } = useTranslation('plans');
  const toast = useToast();
  const mutation = useCreateCheckoutSession();
  const [processingSkuId, setProcessingSkuId] = useState<string | undefined>();

  const start = async (skuId: string, target: CheckoutTarget, options: CheckoutOptions = {}): Promise<void> => {
    setProcessingSkuId(skuId);
    try {
      const state = generateCheckoutState();
      const { redirectUri, sessionId } = await mutation.mutateAsync({
        skuId,
        successCallbackUrl: successCallbackUrl(window.location.origin, import.meta.env.BASE_URL, state),
        ...target,
      });
      if (!redirectUri) {
        toast.error(t('checkout.unknown_error'));
        setProcessingSkuId(undefined);
        return;
      }
      saveStoredCheckout({ state, sessionId, ...options });
      window.location.assign(redirectUri);
    } catch {
      // Already toasted by the query client's mutation handler; the buttons come back.
      setProcessingSkuId(undefined);
    }
  };

  return { start, processingSkuId };
}
