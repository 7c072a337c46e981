// Zod-free (console-preferences.ts re-exports these), so the console's first page (appearance, the user menu) reads
// them without downloading zod.

/** Spec §4: the console follows the OS (system) or a fixed light or dark appearance. */
export const appearanceModes = ['system', 'light', 'dark'] as const;
export type AppearanceMode = (typeof appearanceModes)[number];

/** Spec §3: the key of the console's preferences inside the user's custom data. */
export const consolePreferencesKey = 'adminConsolePreferences';
