import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Sku } from '@gatehouse/schemas';
import { z } from 'zod';
import {
  type CheckoutSessionRow,
  type PaymentEvent,
  type PaymentProvider,
  WebhookVerificationError,
} from './provider.ts';

/**
 * The built-in sandbox provider (the default): its checkout and customer-portal pages are served by Gatehouse
 * itself under {@link SANDBOX_BASE_PATH} (sandbox-pages.ts), so the whole payment flow runs on one machine and no
 * money moves. As with a hosted checkout page of a real provider, the unguessable session id in the URL is the
 * capability to pay or cancel; portal links carry an HMAC-signed token. Its webhook takes the same events a real
 * provider would send, signed with PAYMENT_WEBHOOK_SECRET (`Sandbox-Signature: t=<unix seconds>,v1=<hex HMAC>`).
 */

export const SANDBOX_BASE_PATH = '/sandbox-payments';
export const SANDBOX_SIGNATURE_HEADER = 'Sandbox-Signature';
/** A webhook signed longer ago than this is refused (replayed captures). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/** How long a customer-portal link works. */
export const PORTAL_TOKEN_TTL_MS = 30 * 60 * 1000;

const hmac = (secret: string, purpose: string, message: string) =>
  createHmac('sha256', secret).update(`${purpose}.${message}`).digest();

const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/** The `Sandbox-Signature` header value for a webhook body (tests and scripts that play the provider use it). */
export function signSandboxWebhook(secret: string, rawBody: string, at: Date = new Date()): string {
  const timestamp = Math.floor(at.getTime() / 1000);
  return `t=${timestamp},v1=${hmac(secret, 'webhook', `${timestamp}.${rawBody}`).toString('hex')}`;
}

/** Verifies a `Sandbox-Signature` header; false for anything malformed, wrong or outside the tolerance. */
export function verifySandboxSignature(secret: string, rawBody: string, header: string | null, now = new Date()) {
  const parts = Object.fromEntries(
    (header ?? '').split(',').map((part) => {
      const index = part.indexOf('=');
      return [part.slice(0, index).trim(), part.slice(index + 1).trim()];
    }),
  );
  const timestamp = Number(parts.t);
  const signature = parts.v1 ?? '';
  if (!Number.isInteger(timestamp) || !/^[0-9a-f]{64}$/.test(signature)) return false;
  if (Math.abs(now.getTime() / 1000 - timestamp) > WEBHOOK_TOLERANCE_SECONDS) return false;
  return sameBytes(Buffer.from(signature, 'hex'), hmac(secret, 'webhook', `${timestamp}.${rawBody}`));
}

/** The sandbox webhook body: one event. */
export const sandboxWebhookSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('checkout.completed'), sessionId: z.string().min(1).max(64) }),
  z.strictObject({
    type: z.enum(['invoice.paid', 'invoice.payment_failed']),
    tenantId: z.string().min(1).max(64),
    invoiceId: z.string().min(1).max(64),
  }),
  z.strictObject({
    type: z.literal('invoice.created'),
    tenantId: z.string().min(1).max(64),
    invoiceId: z.string().min(1).max(64),
    planId: z.string().min(1).max(32),
    amountDue: z.number().int().nonnegative(),
    periodStart: z.coerce.date(),
    periodEnd: z.coerce.date(),
  }),
]);

export type PortalToken = { tenantId: string; callbackUrl: string; expiresAt: number };

/** A customer-portal token: the tenant, where to return and until when, signed. */
export function signPortalToken(secret: string, token: PortalToken): string {
  const payload = Buffer.from(JSON.stringify([token.tenantId, token.callbackUrl, token.expiresAt])).toString(
    'base64url',
  );
  return `${payload}.${hmac(secret, 'portal', payload).toString('base64url')}`;
}

const portalPayloadSchema = z.tuple([z.string().min(1).max(64), z.string().max(2048), z.number().int()]);

/** The token's content when its signature is right and it has not expired; undefined otherwise. */
export function verifyPortalToken(secret: string, value: string, now = Date.now()): PortalToken | undefined {
  const [payload = '', signature = '', extra] = value.split('.');
  if (extra !== undefined || !sameBytes(Buffer.from(signature, 'base64url'), hmac(secret, 'portal', payload)))
    return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = portalPayloadSchema.safeParse(decoded);
  if (!parsed.success) return undefined;
  const [tenantId, callbackUrl, expiresAt] = parsed.data;
  return expiresAt > now ? { tenantId, callbackUrl, expiresAt } : undefined;
}

export class SandboxPaymentProvider implements PaymentProvider {
  readonly id = 'sandbox';
  readonly name = 'Sandbox';
  readonly #publicUrl: string;
  readonly #secret: string;

  constructor(publicUrl: string, secret: string) {
    this.#publicUrl = publicUrl;
    this.#secret = secret;
  }

  async createCheckout(session: CheckoutSessionRow, _sku: Sku) {
    return {
      redirectUri: `${this.#publicUrl}${SANDBOX_BASE_PATH}/checkout/${encodeURIComponent(session.id)}`,
      providerSessionId: session.id,
    };
  }

  async customerPortalUrl(tenant: { id: string }, callbackUrl: string) {
    const token = signPortalToken(this.#secret, {
      tenantId: tenant.id,
      callbackUrl,
      expiresAt: Date.now() + PORTAL_TOKEN_TTL_MS,
    });
    return `${this.#publicUrl}${SANDBOX_BASE_PATH}/portal/${token}`;
  }

  /** The sandbox keeps no subscription of its own: there is nothing to stop charging. */
  async cancelSubscription(_tenant: { id: string }) {}

  async parseWebhook(rawBody: string, headers: Headers): Promise<PaymentEvent[]> {
    if (!verifySandboxSignature(this.#secret, rawBody, headers.get(SANDBOX_SIGNATURE_HEADER)))
      throw new WebhookVerificationError('bad or stale signature');
    let json: unknown;
    try {
      json = JSON.parse(rawBody);
    } catch {
      throw new WebhookVerificationError('body is not JSON');
    }
    const parsed = sandboxWebhookSchema.safeParse(json);
    if (!parsed.success) throw new WebhookVerificationError('unknown event');
    return [parsed.data];
  }

  /** The portal token's content (sandbox portal page). */
  readPortalToken(value: string): PortalToken | undefined {
    return verifyPortalToken(this.#secret, value);
  }
}
