import { type ApplicationType, canBeThirdParty } from '@gatehouse/schemas';
import { Bot, FileBadge, Globe, type IconNode, Lock, PanelsTopLeft, Smartphone } from 'lucide';
import type { GuideId } from './guides/guides.ts';

/** What an application of one type has, so forms and tabs follow data instead of `if (type === …)` everywhere. */
export type ApplicationTraits = {
  /** Redirect and post sign-out redirect URIs (their scheme rule depends on the type, spec §5). */
  redirectUris: boolean;
  corsOrigins: boolean;
  backchannelLogout: boolean;
  /** ID token and refresh token settings: types whose users sign in. */
  userTokens: boolean;
  /** Named client secrets: confidential clients only (the API refuses the others). */
  secrets: boolean;
  /** Machine-to-machine roles (spec §2.2: the roles tab). */
  roles: boolean;
  thirdParty: boolean;
  samlConfig: boolean;
  /** Integration guides offered for this type, the first being the one opened after creation. */
  guides: readonly GuideId[];
};

const none: ApplicationTraits = {
  redirectUris: false,
  corsOrigins: false,
  backchannelLogout: false,
  userTokens: false,
  secrets: false,
  roles: false,
  thirdParty: false,
  samlConfig: false,
  guides: [],
};

const traitsByType: Record<ApplicationType, ApplicationTraits> = {
  Native: { ...none, redirectUris: true, backchannelLogout: true, userTokens: true, guides: ['native'] },
  SPA: {
    ...none,
    redirectUris: true,
    corsOrigins: true,
    backchannelLogout: true,
    userTokens: true,
    guides: ['react'],
  },
  Traditional: {
    ...none,
    redirectUris: true,
    corsOrigins: true,
    backchannelLogout: true,
    userTokens: true,
    secrets: true,
    guides: ['express'],
  },
  MachineToMachine: { ...none, secrets: true, roles: true, guides: ['m2m'] },
  // The API has no protected-app metadata (host, origin, page rules) yet: a protected app is a confidential web app.
  Protected: { ...none, redirectUris: true, backchannelLogout: true, userTokens: true, secrets: true },
  SAML: { ...none, samlConfig: true },
};

export function traitsOf(type: ApplicationType): ApplicationTraits {
  const traits = traitsByType[type];
  return { ...traits, thirdParty: canBeThirdParty(type) };
}

/** The order of the type picker: the common cases first. */
export const applicationTypeOrder: readonly ApplicationType[] = [
  'SPA',
  'Traditional',
  'Native',
  'MachineToMachine',
  'Protected',
  'SAML',
];

/**
 * Each type's icon (issue 26), from the sidebar's set (lucide): a type is a kind of platform, not a brand, so no brand
 * mark fits. Third party is a flag of a type, not a type: such an application shows its type's icon and a tag.
 */
export const applicationTypeIcons: Record<ApplicationType, IconNode> = {
  SPA: PanelsTopLeft,
  Traditional: Globe,
  Native: Smartphone,
  MachineToMachine: Bot,
  Protected: Lock,
  SAML: FileBadge,
};
