import { z } from 'zod';
import { quotaKeys, quotaValueSchema } from './plans.ts';
import { tenantIdSchema, tenantNameSchema, tenantRegions, tenantTags } from './tenant.ts';

/**
 * Checkout, invoices and the customer portal of the cloud edition (spec §3 checkout session, §4 checkout,
 * §7 checkout-session and customer-portal rows). The payment provider behind them is pluggable on the server;
 * the built-in sandbox provider serves its own checkout page.
 */

/** Spec §9: the random state put in the success callback URL, and the query parameter carrying it. */
export const CHECKOUT_STATE_LENGTH = 6;
export const CHECKOUT_STATE_PARAM = 'state';
/** Spec §9: the callback page polls every second and gives up after ten. */
export const CHECKOUT_POLL_INTERVAL_MS = 1000;
export const CHECKOUT_TIMEOUT_MS = 10_000;
/** Spec §3 browser storage keys: the session-stored checkout copy. */
export const CHECKOUT_SESSION_STORAGE_KEY = 'gatehouse:checkout-session';
/** How long a checkout session can be confirmed on the provider page. */
export const CHECKOUT_SESSION_TTL_MS = 30 * 60 * 1000;

/** `open` until confirmed (`complete`), cancelled on the provider page (`canceled`) or past its TTL (`expired`). */
export const checkoutSessionStatuses = ['open', 'complete', 'canceled', 'expired'] as const;
export type CheckoutSessionStatus = (typeof checkoutSessionStatuses)[number];

/**
 * `POST /api/checkout-session` (spec §7). Either `tenantId` (change the plan of an existing tenant) or
 * `tenantName` (create a new tenant on the plan once paid) must be given. `successCallbackUrl` must be on the
 * console's own origin (no open redirect through the provider).
 */
export const checkoutSessionCreateSchema = z
  .strictObject({
    skuId: z.string().min(1).max(32),
    successCallbackUrl: z.url().max(2048),
    tenantId: tenantIdSchema.optional(),
    tenantName: tenantNameSchema.optional(),
    tenantTag: z.enum(tenantTags).optional(),
    tenantRegionName: z.enum(tenantRegions).optional(),
  })
  .refine((body) => (body.tenantId === undefined) !== (body.tenantName === undefined), {
    message: 'Give either tenantId or tenantName',
    path: ['tenantId'],
  });
export type CheckoutSessionCreate = z.infer<typeof checkoutSessionCreateSchema>;

/** Spec §7: the create response. The console sends the browser to `redirectUri`. */
export const checkoutSessionCreatedSchema = z.object({ redirectUri: z.string(), sessionId: z.string() });
export type CheckoutSessionCreated = z.infer<typeof checkoutSessionCreatedSchema>;

/** Spec §3: a checkout session; `tenantId` is null until a new tenant is created by the completed payment. */
export const checkoutSessionSchema = z.object({
  id: z.string(),
  status: z.enum(checkoutSessionStatuses),
  tenantId: z.string().nullable(),
  skuId: z.string(),
  createdAt: z.number().int(),
});
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

/** Spec §3, §8: the copy kept in the browser's session storage while the provider page is open. */
export const storedCheckoutSessionSchema = z.object({
  state: z.string().length(CHECKOUT_STATE_LENGTH),
  sessionId: z.string().min(1),
  callbackPage: z.string().optional(),
  isDowngrade: z.boolean().optional(),
});
export type StoredCheckoutSession = z.infer<typeof storedCheckoutSessionSchema>;

/** Spec §7: `POST /api/tenants/{id}/{provider}-customer-portal`. `callbackUrl` must be on the console's origin. */
export const customerPortalRequestSchema = z.strictObject({ callbackUrl: z.url().max(2048) });
export const customerPortalResponseSchema = z.object({ redirectUri: z.string() });

/**
 * The `data` of a `subscription.downgrade_blocked` error: each quota the tenant's usage does not fit on the target
 * plan, with that plan's limit and the usage now.
 */
export const downgradeBlockedDataSchema = z.object({
  planId: z.string(),
  quota: z.partialRecord(
    z.enum(quotaKeys),
    z.object({ limit: quotaValueSchema, usage: z.number().int().nonnegative() }),
  ),
});
export type DowngradeBlockedData = z.infer<typeof downgradeBlockedDataSchema>;

/**
 * `GET /api/payment-provider`: which payment provider the server runs (`sandbox` unless configured). The console
 * builds the customer-portal path of spec §7 (`/api/tenants/{id}/{provider}-customer-portal`) from its id.
 */
export const paymentProviderSchema = z.object({ id: z.string().regex(/^[a-z][a-z0-9-]*$/), name: z.string() });
export type PaymentProvider = z.infer<typeof paymentProviderSchema>;
