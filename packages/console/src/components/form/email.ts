/**
 * Spec §5: non-space text, '@', non-space text, '.', non-space text. Loose on purpose: the mail server is the real
 * judge, this only catches typos. Belongs in @gatehouse/schemas once that package exports the validation rules.
 */
export const emailPattern = /^\S+@\S+\.\S+$/u;

export function isEmail(value: string): boolean {
  return emailPattern.test(value);
}
