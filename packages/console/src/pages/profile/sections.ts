import type { ComponentType } from 'react';
import { DeleteAccountSection } from './delete-account/DeleteAccountSection.tsx';
import type { EditionScoped } from './edition-scope.ts';
import { LinkedAccountsSection } from './linked-accounts/LinkedAccountsSection.tsx';
import { PasswordSection } from './password/PasswordSection.tsx';
import type { ProfileSectionProps } from './section-props.ts';
import { SecuritySection } from './security/SecuritySection.tsx';
import { SettingsSection } from './settings/SettingsSection.tsx';

export type { ProfileSectionProps } from './section-props.ts';

export type ProfileSection = EditionScoped & { key: string; Section: ComponentType<ProfileSectionProps> };

/**
 * The profile's sections in page order, filtered by edition where the page renders them. The cloud-only ones of
 * spec §2.12 join this list with `editions: ['cloud']`: linked accounts after settings, delete account last.
 */
export const profileSections: readonly ProfileSection[] = [
  { key: 'settings', Section: SettingsSection },
  { key: 'linked-accounts', Section: LinkedAccountsSection, editions: ['cloud'] },
  { key: 'password', Section: PasswordSection },
  { key: 'mfa', Section: SecuritySection },
  { key: 'delete-account', Section: DeleteAccountSection, editions: ['cloud'] },
];
