import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { applyPaymentEvent } from '../../billing/payments.ts';
import { WebhookVerificationError } from '../../billing/provider.ts';
import { ApiError } from '../../http/errors.ts';
import { createRouter, errorResponse } from '../../http/route-kit.ts';
import { type CloudDeps, tags } from './shared.ts';

/**
 * `POST /api/payment-webhooks/{providerId}`: the payment provider's events. No bearer token: the provider's own
 * signature (checked by its `parseWebhook`) is the authentication; an unverified request applies nothing.
 */
const webhookRoute = createRoute({
  method: 'post',
  path: '/payment-webhooks/{providerId}',
  tags,
  summary: 'Payment events from the payment provider (signed by the provider; no bearer token)',
  security: [],
  request: { params: z.object({ providerId: z.string().min(1).max(32) }) },
  responses: {
    204: { description: 'Verified and applied (a replayed event changes nothing).' },
    400: errorResponse('Missing or wrong signature, or an unreadable event (`guard.invalid_input`).'),
    404: errorResponse('Not the configured provider (`route.not_found`).'),
  },
});

export function cloudPaymentWebhookRoutes({ db, payments }: CloudDeps) {
  return createRouter({ undeclaredKeys: 'refuse' }).openapi(webhookRoute, async (c) => {
    if (c.req.valid('param').providerId !== payments.id) throw new ApiError(404, 'route.not_found');
    const rawBody = await c.req.text();
    let events: Awaited<ReturnType<typeof payments.parseWebhook>>;
    try {
      events = await payments.parseWebhook(rawBody, c.req.raw.headers);
    } catch (error) {
      if (error instanceof WebhookVerificationError) {
        c.get('log').warn({ provider: payments.id, reason: error.message }, 'payment webhook refused');
        throw new ApiError(400, 'guard.invalid_input');
      }
      throw error;
    }
    for (const event of events) await applyPaymentEvent(db, payments.id, event, { requestId: c.get('requestId') });
    return c.body(null, 204);
  });
}
