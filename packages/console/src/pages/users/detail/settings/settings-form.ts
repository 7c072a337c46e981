import { avatarSchema, type User, type UserPatch, type UserProfile, userProfileSchema } from '@gatehouse/schemas';
import { z } from 'zod';
import { type CustomDataProblem, customDataText, parseCustomData } from '../../../../components/form/custom-data.ts';
import { isSameJson } from '../../../../components/form/json-equal.ts';
import type { UserFormMessages } from '../../create/create-user-form.ts';
import {
  type FieldProblem,
  hasIdentifier,
  type IdentifierField,
  type IdentifierValues,
  userFieldProblems,
} from '../../user-rules.ts';

/** The profile claims the settings tab edits as text (spec §3 profile; the schema's keys, address apart). */
export const profileTextFields = [
  'givenName',
  'familyName',
  'middleName',
  'nickname',
  'preferredUsername',
  'profile',
  'website',
  'gender',
  'birthdate',
  'zoneinfo',
  'locale',
] as const;
export type ProfileTextField = (typeof profileTextFields)[number];
export const addressFields = ['formatted', 'streetAddress', 'locality', 'region', 'postalCode', 'country'] as const;
export type AddressField = (typeof addressFields)[number];

export type UserSettingsForm = IdentifierValues & {
  name: string;
  avatar: string;
  profile: Record<ProfileTextField, string> & { address: Record<AddressField, string> };
  customData: string;
};

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The user as the form holds it: every field a string ('' for none), custom data as indented JSON. */
export function toSettingsForm(user: User): UserSettingsForm {
  const profile = user.profile as UserProfile;
  const address = profile.address ?? {};
  return {
    username: user.username ?? '',
    primaryEmail: user.primaryEmail ?? '',
    primaryPhone: user.primaryPhone ?? '',
    name: user.name ?? '',
    avatar: user.avatar ?? '',
    profile: {
      ...(Object.fromEntries(profileTextFields.map((field) => [field, text(profile[field])])) as Record<
        ProfileTextField,
        string
      >),
      address: Object.fromEntries(addressFields.map((field) => [field, text(address[field])])) as Record<
        AddressField,
        string
      >,
    },
    customData: customDataText(user.customData),
  };
}

/** The profile object of the form: trimmed, empty claims left out, no address when all of it is empty. */
export function toProfile(form: UserSettingsForm['profile']): UserProfile {
  const pick = <K extends string>(fields: readonly K[], values: Record<K, string>) =>
    Object.fromEntries(fields.flatMap((field) => (values[field].trim() ? [[field, values[field].trim()]] : [])));
  const address = pick(addressFields, form.address);
  return { ...pick(profileTextFields, form), ...(Object.keys(address).length > 0 ? { address } : {}) };
}

/**
 * PATCH /users/{id} of a saved form: only what changed (an unchanged save writes no audit entry), '' clearing an
 * identifier, name or avatar (the API reads '' as none), profile and custom data replaced whole.
 */
export function toSettingsPatch(form: UserSettingsForm, user: User): UserPatch {
  const patch: UserPatch = {};
  const scalar = (field: IdentifierField | 'name' | 'avatar') => {
    const value = form[field].trim();
    if (value !== (user[field] ?? '')) patch[field] = value;
  };
  for (const field of ['username', 'primaryEmail', 'primaryPhone', 'name', 'avatar'] as const) scalar(field);
  const profile = toProfile(form.profile);
  if (!isSameJson(profile, user.profile)) patch.profile = profile;
  const customData = parseCustomData(form.customData);
  if (customData.ok && !isSameJson(customData.value, user.customData)) patch.customData = customData.value;
  return patch;
}

export type SettingsFormMessages = UserFormMessages & {
  avatarInvalid: string;
  profileTooLong: (field: ProfileTextField | AddressField, max: number) => string;
  customData: (problem: CustomDataProblem) => string;
};

function addProblem(context: z.RefinementCtx, path: (string | number)[], message: string) {
  context.addIssue({ code: 'custom', path, message });
}

/**
 * The settings tab's rules: spec §5 identifier formats (shared schemas), one identifier kept, an http(s) avatar URL,
 * the profile claims' lengths (the shared profile schema) and custom data that is one JSON object.
 */
export function settingsFormSchema(messages: SettingsFormMessages) {
  const textRecord = <K extends string>(fields: readonly K[]) =>
    z.object(Object.fromEntries(fields.map((field) => [field, z.string()])) as Record<K, z.ZodString>);
  return z
    .object({
      username: z.string(),
      primaryEmail: z.string(),
      primaryPhone: z.string(),
      name: z.string(),
      avatar: z.string(),
      profile: textRecord(profileTextFields).extend({ address: textRecord(addressFields) }),
      customData: z.string(),
    })
    .superRefine((values, context) => {
      const problems: Partial<Record<IdentifierField | 'name', FieldProblem>> = userFieldProblems(values);
      for (const [field, problem] of Object.entries(problems)) {
        addProblem(context, [field], messages.fieldProblem(field as IdentifierField | 'name', problem));
      }
      if (!hasIdentifier(values)) addProblem(context, ['root', 'identifiers'], messages.identifierRequired);
      const avatar = values.avatar.trim();
      if (avatar && !avatarSchema.safeParse(avatar).success) addProblem(context, ['avatar'], messages.avatarInvalid);
      const profile = userProfileSchema.safeParse(toProfile(values.profile));
      for (const issue of profile.success ? [] : profile.error.issues) {
        const path = issue.path.map(String);
        const field = path.at(-1) as ProfileTextField | AddressField;
        const max = issue.code === 'too_big' ? Number(issue.maximum) : 0;
        addProblem(context, ['profile', ...path], messages.profileTooLong(field, max));
      }
      const customData = parseCustomData(values.customData);
      if (!customData.ok) addProblem(context, ['customData'], messages.customData(customData.problem));
    });
}
