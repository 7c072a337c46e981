import { z } from 'zod';

/** Spec §5: a username starts with a letter or underscore, then letters, digits or underscores. */
export const usernameRegex = /^[A-Z_a-z]\w*$/;
export const usernameSchema = z.string().max(128).regex(usernameRegex);

/** Spec §5: email is non-space text, '@', non-space text, '.', non-space text. */
export const emailRegex = /^\S+@\S+\.\S+$/;

/** Minimum password length of the default password policy (spec §5). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
