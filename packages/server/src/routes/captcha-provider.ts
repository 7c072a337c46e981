import { captchaProviderPutSchema, captchaProviderSchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { createRouter, errorResponses, jsonBody, jsonResponse, notFoundResponse } from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as captcha from '../services/captcha.ts';

/** The tenant's captcha provider (reference `/captcha-provider`; docs/areas/security.md "Captcha"). */

const tags = ['Captcha provider'];

const getProvider = createRoute({
  method: 'get',
  path: '/captcha-provider',
  tags,
  summary: 'The captcha provider',
  description: 'The secret key is answered as `********`. 404 when none is set.',
  responses: { 200: jsonResponse(captchaProviderSchema, 'The provider.'), ...errorResponses, ...notFoundResponse },
});

const putProvider = createRoute({
  method: 'put',
  path: '/captcha-provider',
  tags,
  summary: 'Set the captcha provider',
  description:
    'Turnstile or reCAPTCHA Enterprise. The secret key is stored encrypted; `********` keeps the stored key of the ' +
    "same type. The sign-in pages use it while the sign-in experience's `captchaPolicy.enabled` is on.",
  request: { body: jsonBody(captchaProviderPutSchema) },
  responses: { 200: jsonResponse(captchaProviderSchema, 'The provider.'), ...errorResponses },
});

const deleteProvider = createRoute({
  method: 'delete',
  path: '/captcha-provider',
  tags,
  summary: 'Remove the captcha provider',
  description: 'The sign-in pages stop asking for a captcha, whatever `captchaPolicy` says.',
  responses: { 204: { description: 'Removed.' }, ...errorResponses, ...notFoundResponse },
});

export const captchaProviderRoutes = createRouter()
  .openapi(getProvider, async (c) => c.json(await captcha.getCaptchaProvider(c.get('tenant')), 200))
  .openapi(putProvider, async (c) =>
    c.json(await captcha.putCaptchaProvider(writeContext(c), c.req.valid('json')), 200),
  )
  .openapi(deleteProvider, async (c) => {
    await captcha.deleteCaptchaProvider(writeContext(c));
    return c.body(null, 204);
  });
