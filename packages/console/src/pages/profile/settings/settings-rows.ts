import type { EditionScoped } from '../edition-scope.ts';

export type SettingsRowKey = 'avatar' | 'name' | 'username';

/** Spec §2.12: the settings rows in order; only OSS accounts have a username to change (spec §6). */
export const settingsRows: ReadonlyArray<EditionScoped & { key: SettingsRowKey }> = [
  { key: 'avatar' },
  { key: 'name' },
  { key: 'username', editions: ['oss'] },
];
