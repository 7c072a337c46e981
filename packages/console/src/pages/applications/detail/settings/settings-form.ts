import {
  type Application,
  type ApplicationPatch,
  applicationDescriptionSchema,
  applicationNameSchema,
  customClientMetadataSchema,
  ID_TOKEN_TTL_SECONDS,
  REFRESH_TOKEN_TTL_DAYS,
  redirectUriKind,
  refreshTokenLifetimeSeconds,
} from '@gatehouse/schemas';
import { z } from 'zod';
import { type ApplicationTraits, traitsOf } from '../../application-types.ts';
import {
  addListIssues,
  alwaysRefine,
  cleanList,
  listProblems,
  originCheck,
  type RuleMessages,
  redirectUriCheck,
  webUrlProblem,
} from '../../form/rules.ts';

/** The settings tab's form: the API's nested metadata flattened into fields (Logto's toLocalForm habit). */
export type SettingsFormValues = {
  name: string;
  description: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  corsAllowedOrigins: string[];
  backchannelLogoutUri: string;
  idTokenTtl: number | null;
  refreshTokenTtlInDays: number | null;
  alwaysIssueRefreshToken: boolean;
  rotateRefreshToken: boolean;
};

/** Spec §9 defaults where the application has no value of its own: ID token 1 hour, refresh 14 days, rotation on. */
export function toSettingsForm(application: Application): SettingsFormValues {
  const oidc = application.oidcClientMetadata;
  const custom = application.customClientMetadata;
  return {
    name: application.name,
    description: application.description ?? '',
    redirectUris: oidc.redirectUris,
    postLogoutRedirectUris: oidc.postLogoutRedirectUris,
    corsAllowedOrigins: custom.corsAllowedOrigins ?? [],
    backchannelLogoutUri: oidc.backchannelLogoutUri ?? '',
    idTokenTtl: custom.idTokenTtl ?? ID_TOKEN_TTL_SECONDS.default,
    // The lifetime the server applies (days win over seconds), shown in whole days.
    refreshTokenTtlInDays: Math.round(
      (refreshTokenLifetimeSeconds(custom) ?? REFRESH_TOKEN_TTL_DAYS.default * 86_400) / 86_400,
    ),
    alwaysIssueRefreshToken: custom.alwaysIssueRefreshToken ?? false,
    rotateRefreshToken: custom.rotateRefreshToken ?? true,
  };
}

const custom = customClientMetadataSchema.shape;

/** The shared rules (name, description, TTL ranges) and, per row, the redirect-URI and origin rules of the type. */
export function settingsFormSchema(application: Pick<Application, 'type'>, messages: RuleMessages) {
  const traits = traitsOf(application.type);
  return z
    .object({
      name: applicationNameSchema,
      description: applicationDescriptionSchema,
      redirectUris: z.array(z.string()),
      postLogoutRedirectUris: z.array(z.string()),
      corsAllowedOrigins: z.array(z.string()),
      backchannelLogoutUri: z.string(),
      // An emptied number input is null (FormNumberInput); the shared range then refuses it.
      idTokenTtl: z.number().nullable().pipe(custom.idTokenTtl.unwrap()),
      refreshTokenTtlInDays: z.number().nullable().pipe(custom.refreshTokenTtlInDays.unwrap()),
      alwaysIssueRefreshToken: z.boolean(),
      rotateRefreshToken: z.boolean(),
    })
    .superRefine((values, ctx) => {
      if (traits.redirectUris) {
        const check = redirectUriCheck(redirectUriKind(application.type), messages);
        addListIssues(ctx, 'redirectUris', listProblems(values.redirectUris, check, messages));
        addListIssues(ctx, 'postLogoutRedirectUris', listProblems(values.postLogoutRedirectUris, check, messages));
      }
      if (traits.corsOrigins) {
        addListIssues(
          ctx,
          'corsAllowedOrigins',
          listProblems(values.corsAllowedOrigins, originCheck(messages), messages),
        );
      }
      const backchannel = traits.backchannelLogout && webUrlProblem(values.backchannelLogoutUri, messages);
      if (backchannel) ctx.addIssue({ code: 'custom', message: backchannel, path: ['backchannelLogoutUri'] });
    }, alwaysRefine);
}

export type SettingsFormOutput = z.output<ReturnType<typeof settingsFormSchema>>;

/** The PATCH for saved settings: only what the type has; the server merges metadata key by key. */
export function toApplicationPatch(values: SettingsFormOutput, traits: ApplicationTraits): ApplicationPatch {
  const oidc = {
    ...(traits.redirectUris && {
      redirectUris: cleanList(values.redirectUris),
      postLogoutRedirectUris: cleanList(values.postLogoutRedirectUris),
    }),
    ...(traits.backchannelLogout && { backchannelLogoutUri: values.backchannelLogoutUri.trim() || null }),
  };
  const customMetadata = {
    ...(traits.corsOrigins && { corsAllowedOrigins: cleanList(values.corsAllowedOrigins) }),
    ...(traits.userTokens && {
      idTokenTtl: values.idTokenTtl,
      refreshTokenTtlInDays: values.refreshTokenTtlInDays,
      alwaysIssueRefreshToken: values.alwaysIssueRefreshToken,
      rotateRefreshToken: values.rotateRefreshToken,
    }),
  };
  return {
    name: values.name.trim(),
    description: values.description.trim() || null,
    ...(Object.keys(oidc).length > 0 && { oidcClientMetadata: oidc }),
    ...(Object.keys(customMetadata).length > 0 && { customClientMetadata: customMetadata }),
  };
}

/** API field paths of PATCH /applications/{id} → the settings form's paths. */
export function settingsFormPath(apiPath: string): string | undefined {
  const [head, field, index] = apiPath.split('.');
  if (head === 'name' || head === 'description') return head;
  if ((head === 'oidcClientMetadata' || head === 'customClientMetadata') && field) {
    return index === undefined ? field : `${field}.${index}`;
  }
  return undefined;
}
