import type { RuleMessages } from './rules.ts';

/** Messages that name the rule and its values, so tests can tell which rule refused a value. */
export const testMessages: RuleMessages = {
  required: (field) => `required:${field}`,
  tooLong: (field, max) => `too_long:${field}:${max}`,
  redirectUri: (problem, kind) => `redirect:${kind}:${problem}`,
  origin: () => 'origin',
  webUrl: () => 'web_url',
  range: (min, max) => `range:${min}-${max}`,
  certificate: () => 'certificate',
  duplicate: () => 'duplicate',
};
