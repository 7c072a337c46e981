import type { Sku } from '@gatehouse/schemas';
import type { checkoutSessions } from '../db/tables.ts';

/**
 * The payment provider seam of the cloud edition (issue 9). Everything provider-specific lives behind this
 * interface in src/billing; the rest of the server only sees verified {@link PaymentEvent}s, which
 * {@link import('./events.ts').applyPaymentEvent} applies the same way whether they came from a webhook or from the
 * built-in sandbox's own checkout page. A real provider (e.g. Stripe) is one more implementation: see
 * docs/areas/billing.md 'Payment providers, checkout and cancellation'.
 */

export type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;

/** What a provider reports, after its signature was verified. Ids are Gatehouse's own (the provider maps them). */
export type PaymentEvent =
  /** The person paid on the provider's checkout page. */
  | { type: 'checkout.completed'; sessionId: string }
  /** The provider opened an invoice (a renewal of the tenant's plan for the next period), not yet charged. */
  | {
      type: 'invoice.created';
      tenantId: string;
      invoiceId: string;
      planId: string;
      amountDue: number;
      periodStart: Date;
      periodEnd: Date;
    }
  /** A (renewal) invoice was paid: the invoice is paid, the subscription active again (and on the invoice's period). */
  | { type: 'invoice.paid'; tenantId: string; invoiceId: string }
  /** Charging an invoice failed: the invoice stays open, the subscription is past due. */
  | { type: 'invoice.payment_failed'; tenantId: string; invoiceId: string };

/** Thrown by {@link PaymentProvider.parseWebhook} for a missing, wrong or stale signature or an unreadable body. */
export class WebhookVerificationError extends Error {}

export interface PaymentProvider {
  /** Lower-case id; the customer-portal route is `/api/tenants/{id}/{provider id}-customer-portal` (spec §7). */
  readonly id: string;
  /** Shown to people (the console's billing pages). */
  readonly name: string;
  /** Opens the provider's checkout for a stored, open session; answers where to send the browser. */
  createCheckout(session: CheckoutSessionRow, sku: Sku): Promise<{ redirectUri: string; providerSessionId: string }>;
  /** A URL of the provider's customer portal for the tenant, returning to `callbackUrl` (already checked). */
  customerPortalUrl(tenant: { id: string }, callbackUrl: string): Promise<string>;
  /** Stops billing the tenant's paid subscription at the provider (before Gatehouse moves it to Free). */
  cancelSubscription(tenant: { id: string }): Promise<void>;
  /** Verifies a webhook request and reads its events; throws {@link WebhookVerificationError} when it is not genuine. */
  parseWebhook(rawBody: string, headers: Headers): Promise<PaymentEvent[]>;
}
