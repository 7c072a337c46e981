import { signInExperienceSchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { createRouter, errorResponses, jsonResponse } from '../http/route-kit.ts';
import { signInStrings } from '../i18n/sign-in.ts';
import { phrasesForPage, readSignInExperience } from '../services/sign-in-experience.ts';
import { listSsoConnectorsForSignIn } from '../services/sso-connectors.ts';
import { ssoConnectorMetadata } from '../services/sso-sign-in.ts';

/**
 * What a sign-in UI of the tenant's own needs before anyone signs in (reference `/api/.well-known/sign-in-exp` and
 * `/api/.well-known/phrases`): the sign-in experience and the page strings with the tenant's custom phrases. Public,
 * like the pages that show them; nothing in them is secret.
 */

const tags = ['Sign-in experience'];

const publicSignInExperienceSchema = signInExperienceSchema.extend({
  forgotPassword: z.object({ email: z.boolean(), phone: z.boolean() }),
  socialConnectors: z.array(z.unknown()),
  /** Reference `SsoConnectorMetadata`: what a sign-in UI shows of each enterprise connector (never its config). */
  ssoConnectors: z.array(
    z.object({ id: z.string(), connectorName: z.string(), logo: z.string(), darkLogo: z.string().optional() }),
  ),
});

const getPublicSignInExperience = createRoute({
  method: 'get',
  path: '/.well-known/sign-in-exp',
  tags,
  summary: 'The sign-in experience, for sign-in pages (public, no token)',
  security: [],
  responses: {
    200: jsonResponse(publicSignInExperienceSchema, 'The settings, with which forgot-password methods work.'),
    ...errorResponses,
  },
});

const getPhrases = createRoute({
  method: 'get',
  path: '/.well-known/phrases',
  tags,
  summary: "The sign-in pages' strings in one language, the tenant's custom phrases applied (public, no token)",
  security: [],
  request: { query: z.object({ lng: z.string().max(35).optional() }) },
  responses: { 200: jsonResponse(z.record(z.string(), z.string()), 'Key → text.'), ...errorResponses },
});

export const signInExperiencePublicRoutes = createRouter()
  .openapi(getPublicSignInExperience, async (c) => {
    const experience = await readSignInExperience(c.get('tenant'));
    const { email: mail } = await c.get('delivery').senders(c.get('tenant'));
    c.header('Cache-Control', 'no-cache');
    return c.json(
      {
        ...experience,
        forgotPassword: {
          email: mail && (experience.forgotPasswordMethods?.includes('EmailVerificationCode') ?? true),
          phone: false,
        },
        socialConnectors: [],
        // Only while the sign-in experience offers SSO, as the reference does.
        ssoConnectors: experience.singleSignOnEnabled
          ? (await listSsoConnectorsForSignIn(c.get('tenant'))).map(ssoConnectorMetadata)
          : [],
      },
      200,
    );
  })
  .openapi(getPhrases, async (c) => {
    const asked = c.req.valid('query').lng;
    const experience = await readSignInExperience(c.get('tenant'));
    // As the sign-in pages: a tag with custom phrases shows them over its built-in language, else the fallback one.
    const { language, tag, phrases } = await phrasesForPage(
      c.get('tenant'),
      asked ? [asked] : [],
      experience.languageInfo.fallbackLanguage,
    );
    c.header('Content-Language', tag);
    return c.json({ ...signInStrings[language], ...phrases }, 200);
  });
