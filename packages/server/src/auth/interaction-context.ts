import type { CaptchaConfig, SignInExperienceSettings } from '@gatehouse/schemas';
import type { HttpBindings } from '@hono/node-server';
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import type { TenantDb } from '../db/tenant-db.ts';
import type { AppEnv } from '../shared/app-env.ts';
import type { SignInLook } from './sign-in-look.ts';
import type { SocialLink } from './sign-in-page.ts';
import type { Senders } from './sign-in-screens.ts';

/** The interaction a step belongs to, found and checked once by the `interaction` guard. */
export type OpenInteraction = {
  provider: Provider;
  details: Interaction;
  tenantId: string;
  tenant: TenantDb;
  /** The sign-in page of the interaction, `/interaction/{tenantId}/{uid}`; its steps are below it. */
  page: string;
  settings: SignInExperienceSettings;
  /** The tenant's look for this request: language and phrases, theme, logo, terms, footer. */
  look: SignInLook;
  /** The application asking (absent for built-in clients such as the console). */
  application: { name: string; isThirdParty: boolean } | undefined;
  /** Who can send this tenant's codes: email (its connector, else SMTP) and SMS (its connector). */
  senders: Senders;
  /** The social connectors the sign-in experience shows, in its order. */
  social: SocialLink[];
  /** The captcha the forms carry and the server checks: the tenant's provider while `captchaPolicy.enabled` is on. */
  captcha: CaptchaConfig | undefined;
};
export type Env = { Bindings: HttpBindings; Variables: AppEnv['Variables'] & { interaction: OpenInteraction } };
