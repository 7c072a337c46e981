import { emailRegex } from '@gatehouse/schemas';

/** Spec §5 (shared with the server): loose on purpose, the mail server is the real judge; this catches typos. */
export const emailPattern = emailRegex;

export function isEmail(value: string): boolean {
  return emailPattern.test(value);
}
