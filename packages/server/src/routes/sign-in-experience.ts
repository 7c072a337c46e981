import {
  applicationSignInExperienceInputSchema,
  applicationSignInExperienceSchema,
  canonicalLanguageTag,
  checkPasswordBodySchema,
  checkPasswordResultSchema,
  customPhraseSchema,
  phraseLanguageTagSchema,
  signInExperiencePatchSchema,
  signInExperienceSchema,
  signInPreviewBodySchema,
  signInPreviewResultSchema,
  usernameCaseConflictsQuerySchema,
  usernameCaseConflictsSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import { ApiError } from '../http/errors.ts';
import { pathIdSchema } from '../http/params.ts';
import {
  createRouter,
  errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  notFoundResponse,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { signInKeys } from '../i18n/sign-in.ts';
import {
  getApplicationSignInExperience,
  putApplicationSignInExperience,
} from '../services/application-sign-in-experience.ts';
import { pwnedPasswordCheck } from '../services/pwned-passwords.ts';
import * as signInExperience from '../services/sign-in-experience.ts';
import { createSignInPreview } from '../services/sign-in-preview.ts';
import { findUser } from '../services/users.ts';
import type { AppEnv } from '../shared/app-env.ts';

/** The sign-in experience of the tenant (`/sign-in-exp`) and its custom phrases (`/custom-phrases`), issue 20. */

const tags = ['Sign-in experience'];
const senders = (c: Context<AppEnv>) => c.get('delivery').senders(c.get('tenant'));

const getSignInExperience = createRoute({
  method: 'get',
  path: '/sign-in-exp',
  tags,
  summary: "The tenant's sign-in experience",
  description: 'The defaults of spec §9 until something is saved.',
  responses: { 200: jsonResponse(signInExperienceSchema, 'The sign-in experience.'), ...errorResponses },
});

const patchSignInExperience = createRoute({
  method: 'patch',
  path: '/sign-in-exp',
  tags,
  summary: 'Change the sign-in experience',
  description:
    'Any subset of the fields. Each replaces the stored one, except `color` and `passwordPolicy`, which are ' +
    'merged into the stored ones. URLs and the support email take `""` or null for none. The ' +
    'result is checked as a whole: a sign-up identifier must be a sign-in method, a username needs a password, ' +
    'codes need a sender (`sign_in_experiences.*`, 400).',
  request: { body: jsonBody(signInExperiencePatchSchema) },
  responses: {
    200: jsonResponse(signInExperienceSchema, 'The sign-in experience after the change.'),
    ...errorResponses,
  },
});

const checkPassword = createRoute({
  method: 'post',
  path: '/sign-in-exp/default/check-password',
  tags,
  summary: "Check a password against the tenant's password policy",
  description:
    "With `userId`, the user-info rule compares with that user's identifiers and name. The pwned check runs when " +
    'the policy has it on and the rest passed.',
  request: { body: jsonBody(checkPasswordBodySchema) },
  responses: {
    200: jsonResponse(checkPasswordResultSchema, '`{result: true}`, or `{result: false, issues}` with each rule.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const caseSensitivityConflicts = createRoute({
  method: 'get',
  path: '/sign-in-exp/username-policy/case-sensitivity-conflicts',
  tags,
  summary: 'Usernames that collide whatever their case',
  description:
    'Groups of usernames equal but for their case, with the number of groups and up to `limit` of them. Usernames ' +
    'are unique whatever their case in Gatehouse, so the answer is always `{totalConflicts: 0, samples: []}`.',
  request: { query: usernameCaseConflictsQuerySchema },
  responses: {
    200: jsonResponse(usernameCaseConflictsSchema, 'The number of colliding groups and a sample of them.'),
    ...errorResponses,
  },
});

const preview = createRoute({
  method: 'post',
  path: '/sign-in-exp/preview',
  tags,
  summary: 'A live preview of unsaved settings',
  description:
    'Answers a page address, valid 10 minutes, that renders the real sign-in pages with the saved settings and ' +
    'these changes (query `screen`: sign_in, register, identifier, forgot_password, verification_code; `lang`; ' +
    '`theme`: light or dark). Nothing is saved.',
  request: { body: jsonBody(signInPreviewBodySchema) },
  responses: { 201: jsonResponse(signInPreviewResultSchema, 'The preview address.'), ...errorResponses },
});

const languageParams = z.object({ languageTag: phraseLanguageTagSchema });
/** The path's language tag in its canonical form, as custom phrases are stored (`en-us` → `en-US`). */
const phraseTag = (tag: string) => canonicalLanguageTag(tag) ?? tag;

const listPhrases = createRoute({
  method: 'get',
  path: '/custom-phrases',
  tags,
  summary: "The tenant's custom phrases, one entry per language (not paginated)",
  responses: { 200: jsonResponse(z.array(customPhraseSchema), 'The custom phrases.'), ...errorResponses },
});

const getPhrase = createRoute({
  method: 'get',
  path: '/custom-phrases/{languageTag}',
  tags,
  summary: 'The custom phrases of one language',
  request: { params: languageParams },
  responses: { 200: jsonResponse(customPhraseSchema, 'The phrases.'), ...errorResponses, ...notFoundResponse },
});

const putPhrase = createRoute({
  method: 'put',
  path: '/custom-phrases/{languageTag}',
  tags,
  summary: 'Set the custom phrases of one language',
  description:
    'The language is any well-formed BCP 47 tag (`fr`, `en-US`, `vi-VN`), stored in its canonical form; the sign-in ' +
    'pages show a tag no built-in language serves over English, as the reference. ' +
    'Keys are the sign-in page strings (nested objects are read as dotted keys: `{"rejected": {"too_short": …}}`); ' +
    'an unknown key is `localization.invalid_translation_structure` (422). 201 whether created or replaced (reference).',
  request: {
    params: languageParams,
    body: jsonBody(z.record(z.string().max(128), z.unknown())),
  },
  responses: {
    201: jsonResponse(customPhraseSchema, 'The language has these phrases now (created or replaced).'),
    ...errorResponses,
    422: errorResponse(
      'A key the sign-in pages do not have (`localization.invalid_translation_structure`, data.keys).',
    ),
  },
});

const deletePhrase = createRoute({
  method: 'delete',
  path: '/custom-phrases/{languageTag}',
  tags,
  summary: 'Remove the custom phrases of one language',
  request: { params: languageParams },
  responses: {
    204: { description: 'Removed.' },
    ...errorResponses,
    ...notFoundResponse,
    409: errorResponse('The fallback language keeps its phrases (`localization.cannot_delete_default_language`).'),
  },
});

const applicationParams = z.object({ applicationId: pathIdSchema });

const getApplicationExperience = createRoute({
  method: 'get',
  path: '/applications/{applicationId}/sign-in-experience',
  tags,
  summary: "A third-party application's consent-page branding",
  request: { params: applicationParams },
  responses: {
    200: jsonResponse(applicationSignInExperienceSchema, 'The branding.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const putApplicationExperience = createRoute({
  method: 'put',
  path: '/applications/{applicationId}/sign-in-experience',
  tags,
  summary: "Set a third-party application's consent-page branding",
  description:
    'The name, logos, colours and terms links its consent page shows. First-party applications use the ' +
    "tenant's sign-in experience (`application.third_party_application_only`, 400).",
  request: { params: applicationParams, body: jsonBody(applicationSignInExperienceInputSchema) },
  responses: {
    200: jsonResponse(applicationSignInExperienceSchema, 'Replaced.'),
    201: jsonResponse(applicationSignInExperienceSchema, 'Created.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const knownPhraseKeys: ReadonlySet<string> = new Set(signInKeys);

export const signInExperienceRoutes = createRouter()
  .openapi(getSignInExperience, async (c) => c.json(await signInExperience.readSignInExperience(c.get('tenant')), 200))
  .openapi(patchSignInExperience, async (c) =>
    c.json(await signInExperience.patchSignInExperience(writeContext(c), c.req.valid('json'), await senders(c)), 200),
  )
  .openapi(caseSensitivityConflicts, (c) => c.json(signInExperience.usernameCaseConflicts(), 200))
  .openapi(checkPassword, async (c) => {
    const { password, userId } = c.req.valid('json');
    const tenant = c.get('tenant');
    const user = userId ? await findUser(tenant, userId) : undefined;
    const { passwordPolicy } = await signInExperience.readSignInExperienceSettings(tenant);
    // The reference's checker cannot apply the user-info rule without a user: 400 rather than a check that skips it.
    if (!user && passwordPolicy.rejects.userInfo) {
      throw new ApiError(400, 'request.invalid_input', {
        message: 'User information data is required to check user information.',
      });
    }
    const pwned = pwnedPasswordCheck(c.get('config').pwnedPasswordsUrl, c.get('log'));
    const rejections = await signInExperience.passwordRejections(tenant, password, user ?? {}, pwned);
    if (rejections.length === 0) return c.json({ result: true as const }, 200);
    const interpolation = { min: passwordPolicy.length.min, max: passwordPolicy.length.max };
    return c.json(
      {
        result: false as const,
        issues: rejections.map((code) =>
          code === 'password_rejected.too_short' || code === 'password_rejected.too_long'
            ? { code, interpolation }
            : code === 'password_rejected.character_types'
              ? { code, interpolation: { min: passwordPolicy.characterTypes.min } }
              : { code },
        ),
      },
      200,
    );
  })
  .openapi(preview, async (c) => {
    const tenant = c.get('tenant');
    const { token, expiresAt } = await createSignInPreview(tenant, c.req.valid('json').settings);
    return c.json({ url: `/sign-in-preview/${tenant.tenantId}/${token}`, expiresAt }, 201);
  })
  .openapi(getApplicationExperience, async (c) =>
    c.json(await getApplicationSignInExperience(c.get('tenant'), c.req.valid('param').applicationId), 200),
  )
  .openapi(putApplicationExperience, async (c) => {
    const { experience, created } = await putApplicationSignInExperience(
      writeContext(c),
      c.req.valid('param').applicationId,
      c.req.valid('json'),
    );
    return created ? c.json(experience, 201) : c.json(experience, 200);
  })
  .openapi(listPhrases, async (c) => c.json(await signInExperience.listCustomPhrases(c.get('tenant')), 200))
  .openapi(getPhrase, async (c) =>
    c.json(await signInExperience.getCustomPhrase(c.get('tenant'), phraseTag(c.req.valid('param').languageTag)), 200),
  )
  .openapi(putPhrase, async (c) => {
    const { languageTag } = c.req.valid('param');
    const { phrase } = await signInExperience.putCustomPhrase(
      writeContext(c),
      phraseTag(languageTag),
      c.req.valid('json'),
      knownPhraseKeys,
    );
    // 201 whether it created or replaced the phrases, as the reference answers.
    return c.json(phrase, 201);
  })
  .openapi(deletePhrase, async (c) => {
    await signInExperience.deleteCustomPhrase(writeContext(c), phraseTag(c.req.valid('param').languageTag));
    return c.body(null, 204);
  });
