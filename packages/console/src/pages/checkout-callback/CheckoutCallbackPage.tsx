import { CHECKOUT_STATE_PARAM } from '@gatehouse/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { billingKeys, fetchCheckoutSession, fetchSubscription } from '../../api/billing.ts';
import { fetchTenants } from '../../api/tenants.ts';
import { clearStoredCheckout, readStoredCheckout, safeCallbackPage } from '../../cloud/checkout/checkout-storage.ts';
import { planLabel } from '../../cloud/checkout/plan-name.ts';
import { type CheckoutOutcome, watchCheckout } from '../../cloud/checkout/watch-checkout.ts';
import { useTenants } from '../../cloud/tenants/TenantsProvider.tsx';
import { AppLoading } from '../../components/AppLoading/AppLoading.tsx';
import { useToast } from '../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../i18n/react.tsx';

/**
 * Spec §2.8, §4 checkout: the provider's return page. It shows the loading screen while it polls the checkout
 * session and the tenant's subscription, then moves on: to the tenant (or the stored callback page) with a success
 * toast, back where the checkout started when it was cancelled, or to the root on a foreign state or a timeout.
 */
export function CheckoutCallbackPage() {
  const { t } = useTranslation('plans');
  const [params] = useSearchParams();
  const urlState = params.get(CHECKOUT_STATE_PARAM);
  const navigate = useNavigate();
  const toast = useToast();
  const { tenants, updateTenant, resetTenants } = useTenants();
  const client = useQueryClient();

  const handle = async (outcome: CheckoutOutcome) => {
    switch (outcome.kind) {
      case 'invalid':
        // A forged or stale link: the stored copy (if any) stays for the real return.
        navigate('/', { replace: true });
        return;
      case 'timeout':
        clearStoredCheckout();
        toast.error(t('checkout.timeout'));
        navigate('/', { replace: true });
        return;
      case 'closed':
        clearStoredCheckout();
        navigate(safeCallbackPage(outcome.stored.callbackPage) ?? '/', { replace: true });
        return;
      case 'complete': {
        clearStoredCheckout();
        const { session, subscription, stored } = outcome;
        const tenantId = session.tenantId ?? '';
        const plan = t(`name.${planLabel(subscription.planId)}`);
        toast.success(stored.isDowngrade ? t('checkout.downgraded', { plan }) : t('checkout.upgraded', { plan }));
        if (tenants.some((tenant) => tenant.id === tenantId)) {
          updateTenant(tenantId, { planId: subscription.planId, subscription });
          client.setQueryData(billingKeys.subscription(tenantId), subscription);
          void client.invalidateQueries({ queryKey: billingKeys.usage(tenantId) });
        }
        // Read the list again: a tenant the payment created appears, and a changed plan brings its MAU and token
        // limits (the status tags read them), which the subscription alone does not carry.
        resetTenants(await fetchTenants());
        navigate(safeCallbackPage(stored.callbackPage) ?? `/${encodeURIComponent(tenantId)}`, { replace: true });
        return;
      }
    }
  };
  // The latest handler, so the effect below runs once per visit and never restarts on the tenant list it changes.
  const handleRef = useRef(handle);
  handleRef.current = handle;

  useEffect(() => {
    return watchCheckout({
      urlState,
      stored: readStoredCheckout(),
      fetchSession: fetchCheckoutSession,
      fetchSubscription,
      onOutcome: (outcome) => {
        handleRef.current(outcome).catch(() => navigate('/', { replace: true }));
      },
    });
  }, [urlState, navigate]);

  return <AppLoading />;
}
