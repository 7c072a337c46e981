import { avatarSchema, type User, type UserPatch, type UserProfile, userProfileSchema } from '@gatehouse/schemas';
import { z } from 'zod';
import { type CustomDataProblem, customDataText, parseCustomData } from '../../../../components/form/custom-data.ts';
import { isSameJson } from '../../../../components/form/json-equal.ts';
import type { IssueWording } from '../../../../components/form/schema-resolver.ts';
import { type UserFormMessages, userWording } from '../../create/create-user-form.ts';
import { checkIdentifier, type IdentifierField, type IdentifierValues, userFieldsSchema } from '../../user-rules.ts';

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

/**
 * The settings tab's rules, those of PATCH /users/{id}: spec §5 identifier formats (shared schemas), one identifier
 * kept, an http(s) avatar URL, the profile claims' lengths (the shared profile schema, on the profile the form sends)
 * and custom data that is one JSON object (its issue names the problem). The resolver submits the values as typed
 * (`raw`); `toSettingsPatch` makes the body.
 */
const textRecord = <K extends string>(fields: readonly K[]) =>
  z.object(Object.fromEntries(fields.map((field) => [field, z.string()])) as Record<K, z.ZodString>);

export const settingsFormSchema = userFieldsSchema
  .extend({
    avatar: z.preprocess(
      (value) => (typeof value === 'string' ? value.trim() || undefined : value),
      avatarSchema.optional(),
    ),
    profile: textRecord(profileTextFields)
      .extend({ address: textRecord(addressFields) })
      .transform(toProfile)
      .pipe(userProfileSchema),
    customData: z.string().superRefine((text, context) => {
      const customData = parseCustomData(text);
      if (!customData.ok) context.addIssue({ code: 'custom', message: customData.problem });
    }),
  })
  .superRefine(checkIdentifier);

const customDataProblems: readonly string[] = ['invalid_json', 'not_object', 'too_large'] satisfies CustomDataProblem[];
const isCustomDataProblem = (message: string): message is CustomDataProblem => customDataProblems.includes(message);

/** The settings tab's words for its schema's issues: the users forms' own, then the avatar, profile and custom data. */
export function settingsWording(messages: SettingsFormMessages): IssueWording {
  const userWords = userWording(messages);
  return (issue) => {
    const [field] = issue.path;
    if (field === 'avatar') return messages.avatarInvalid;
    if (field === 'customData' && isCustomDataProblem(issue.message)) return messages.customData(issue.message);
    if (field === 'profile') {
      const claim = String(issue.path.at(-1)) as ProfileTextField | AddressField;
      return messages.profileTooLong(claim, issue.code === 'too_big' ? Number(issue.maximum) : 0);
    }
    return userWords(issue);
  };
}
