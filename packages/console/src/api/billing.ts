import {
  type CheckoutSessionCreate,
  CLOUD_API_RESOURCE,
  checkoutSessionCreatedSchema,
  checkoutSessionSchema,
  customerPortalResponseSchema,
  invoiceSchema,
  paymentProviderSchema,
  type SkuType,
  skuSchema,
  subscriptionSchema,
  subscriptionUsageSchema,
} from '@gatehouse/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { request, requestJson } from './client.ts';
import { cloudKeys } from './tenants.ts';

/**
 * The cloud API's billing rows (spec §7): plans, a tenant's subscription, usage and invoices, checkout sessions and
 * the payment provider's customer portal. Every call carries a token for the cloud API.
 */
const seg = encodeURIComponent;
const cloud = { resource: CLOUD_API_RESOURCE } as const;

/** Query keys, under the tenant list's key so deleting or switching tenants never mixes two tenants' figures. */
export const billingKeys = {
  skus: (type?: SkuType) => ['cloud', 'skus', type ?? 'all'] as const,
  availableSkus: (tenantId: string) => [...cloudKeys.tenants, tenantId, 'available-skus'] as const,
  subscription: (tenantId: string) => [...cloudKeys.tenants, tenantId, 'subscription'] as const,
  usage: (tenantId: string) => [...cloudKeys.tenants, tenantId, 'subscription-usage'] as const,
  invoices: (tenantId: string) => [...cloudKeys.tenants, tenantId, 'invoices'] as const,
  checkoutSession: (sessionId: string) => ['cloud', 'checkout-session', sessionId] as const,
  paymentProvider: ['cloud', 'payment-provider'] as const,
};

// ---- plain calls (the checkout callback polls them outside React Query's cache) ----

export function fetchSubscription(tenantId: string, signal?: AbortSignal) {
  return requestJson(`/api/tenants/${seg(tenantId)}/subscription`, subscriptionSchema, { ...cloud, signal });
}

export function fetchCheckoutSession(sessionId: string, signal?: AbortSignal) {
  return requestJson(`/api/checkout-session/${seg(sessionId)}`, checkoutSessionSchema, { ...cloud, signal });
}

export function createCheckoutSession(body: CheckoutSessionCreate) {
  return requestJson('/api/checkout-session', checkoutSessionCreatedSchema, { ...cloud, method: 'POST', json: body });
}

// ---- hooks ----

export function useSkus(type?: SkuType) {
  return useQuery({
    queryKey: billingKeys.skus(type),
    queryFn: ({ signal }) =>
      requestJson(`/api/skus${type ? `?type=${type}` : ''}`, z.array(skuSchema), { ...cloud, signal }),
    staleTime: 5 * 60_000,
  });
}

export function useAvailableSkus(tenantId: string | undefined) {
  return useQuery({
    queryKey: billingKeys.availableSkus(tenantId ?? ''),
    queryFn: ({ signal }) =>
      requestJson(`/api/tenants/${seg(tenantId ?? '')}/available-skus?type=Basic`, z.array(skuSchema), {
        ...cloud,
        signal,
      }),
    enabled: tenantId !== undefined,
  });
}

export function useSubscription(tenantId: string | undefined) {
  return useQuery({
    queryKey: billingKeys.subscription(tenantId ?? ''),
    queryFn: ({ signal }) => fetchSubscription(tenantId ?? '', signal),
    enabled: tenantId !== undefined,
  });
}

export function useSubscriptionUsage(tenantId: string | undefined) {
  return useQuery({
    queryKey: billingKeys.usage(tenantId ?? ''),
    queryFn: ({ signal }) =>
      requestJson(`/api/tenants/${seg(tenantId ?? '')}/subscription-usage`, subscriptionUsageSchema, {
        ...cloud,
        signal,
      }),
    enabled: tenantId !== undefined,
  });
}

export function useInvoices(tenantId: string | undefined) {
  return useQuery({
    queryKey: billingKeys.invoices(tenantId ?? ''),
    queryFn: ({ signal }) =>
      requestJson(`/api/tenants/${seg(tenantId ?? '')}/invoices`, z.array(invoiceSchema), { ...cloud, signal }),
    enabled: tenantId !== undefined,
  });
}

export function useCreateCheckoutSession() {
  return useMutation({ mutationFn: createCheckoutSession });
}

/**
 * Spec §4 cancelling: DELETE the subscription, then re-read it and the usage; the caller updates the tenant's plan
 * and subscription in the tenant context with the re-read subscription this resolves to.
 */
export function useCancelSubscription(tenantId: string) {
  const client = useQueryClient();
  return useMutation({
    // The subscription tab shows a blocked downgrade as a modal naming each quota, not as a toast.
    meta: { silenceErrorCodes: ['subscription.downgrade_blocked'] },
    mutationFn: async () => {
      await request(`/api/tenants/${seg(tenantId)}/subscription`, { ...cloud, method: 'DELETE' });
      const subscription = await fetchSubscription(tenantId);
      client.setQueryData(billingKeys.subscription(tenantId), subscription);
      await client.invalidateQueries({ queryKey: billingKeys.usage(tenantId) });
      return subscription;
    },
  });
}

export function usePaymentProvider() {
  return useQuery({
    queryKey: billingKeys.paymentProvider,
    queryFn: ({ signal }) => requestJson('/api/payment-provider', paymentProviderSchema, { ...cloud, signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Spec §7: the provider's customer portal for the tenant; resolves to the URL the caller opens in a new window. */
export function useCustomerPortal(tenantId: string) {
  return useMutation({
    mutationFn: async ({ providerId, callbackUrl }: { providerId: string; callbackUrl: string }) => {
      const { redirectUri } = await requestJson(
        `/api/tenants/${seg(tenantId)}/${seg(providerId)}-customer-portal`,
        customerPortalResponseSchema,
        { ...cloud, method: 'POST', json: { callbackUrl } },
      );
      return redirectUri;
    },
  });
}
