import type { SignInExperience, SignInExperiencePatch } from '@gatehouse/schemas';
import { toNestErrors } from '@hookform/resolvers';
import { useCallback } from 'react';
import type { FieldError, Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ServerErrorMapping } from '../../components/submit/server-errors.ts';

/**
 * The security page's form over two parts of the sign-in experience: the lockout (`sentinelPolicy`) and the email
 * blocklist (`emailBlocklistPolicy`). The lists are edited as text, one entry per line. A save sends both objects
 * whole, as the PATCH replaces them.
 */
export type SecurityForm = {
  sentinelPolicy: { maxAttempts: number | null; lockoutDuration: number | null };
  emailBlocklistPolicy: {
    blockDisposableAddresses: boolean;
    blockSubaddressing: boolean;
    customBlocklist: string;
    customAllowlist: string;
  };
};

/** What an unset lockout means: the server's `LOCKOUT` (services/account-lockout.ts). */
export const LOCKOUT_DEFAULTS = { maxAttempts: 5, lockoutDuration: 15 } as const;
/** The schema's ranges (signInExperienceSchema's `sentinelPolicy`). */
export const MAX_ATTEMPTS_RANGE = { min: 1, max: 100 } as const;
export const LOCKOUT_DURATION_RANGE = { min: 1, max: 1440 } as const;
/** The schema's limits of each list (signInExperienceSchema's `emailBlocklistPolicy`). */
export const MAX_LIST_ENTRIES = 500;
export const MAX_ENTRY_LENGTH = 256;

export const emailLists = ['customBlocklist', 'customAllowlist'] as const;
export type EmailList = (typeof emailLists)[number];

export function securityToForm(sie: SignInExperience): SecurityForm {
  const { sentinelPolicy, emailBlocklistPolicy } = sie;
  return {
    sentinelPolicy: {
      maxAttempts: sentinelPolicy.maxAttempts ?? LOCKOUT_DEFAULTS.maxAttempts,
      lockoutDuration: sentinelPolicy.lockoutDuration ?? LOCKOUT_DEFAULTS.lockoutDuration,
    },
    emailBlocklistPolicy: {
      blockDisposableAddresses: emailBlocklistPolicy.blockDisposableAddresses ?? false,
      blockSubaddressing: emailBlocklistPolicy.blockSubaddressing ?? false,
      customBlocklist: (emailBlocklistPolicy.customBlocklist ?? []).join('\n'),
      customAllowlist: (emailBlocklistPolicy.customAllowlist ?? []).join('\n'),
    },
  };
}

/** A list's entries as typed: one per line, trimmed, blank lines left out. */
export function listEntries(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Only called with values the resolver accepted, so both numbers are set. */
export function formToPatch(values: SecurityForm): SignInExperiencePatch {
  const { sentinelPolicy, emailBlocklistPolicy } = values;
  return {
    sentinelPolicy: {
      maxAttempts: sentinelPolicy.maxAttempts ?? LOCKOUT_DEFAULTS.maxAttempts,
      lockoutDuration: sentinelPolicy.lockoutDuration ?? LOCKOUT_DEFAULTS.lockoutDuration,
    },
    emailBlocklistPolicy: {
      blockDisposableAddresses: emailBlocklistPolicy.blockDisposableAddresses,
      blockSubaddressing: emailBlocklistPolicy.blockSubaddressing,
      customBlocklist: listEntries(emailBlocklistPolicy.customBlocklist),
      customAllowlist: listEntries(emailBlocklistPolicy.customAllowlist),
    },
  };
}

/** A domain name: dot-separated labels of letters, digits and inner hyphens (one label names a top-level domain). */
const domainPattern =
  /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)*[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u;
/** The part of an address before its `@`: no spaces, no second `@`. */
const localPartPattern = /^[^\s@]+$/;

/**
 * Whether a trimmed entry is one the server reads (services/email-blocklist.ts): a whole address
 * (`someone@example.com`), `@example.com` (that domain and its subdomains) or a bare domain (`example.com`).
 */
export function isListEntry(entry: string): boolean {
  const at = entry.indexOf('@');
  if (at === -1) return domainPattern.test(entry);
  if (at !== entry.lastIndexOf('@')) return false;
  const domain = entry.slice(at + 1);
  return (at === 0 || localPartPattern.test(entry.slice(0, at))) && domainPattern.test(domain);
}

/** The first problem of a list's text, with the line it is on (1-based, blank lines counted as the user sees them). */
export type ListProblem =
  | { kind: 'entry_invalid'; line: number; entry: string }
  | { kind: 'entry_too_long'; line: number }
  | { kind: 'too_many_entries'; count: number };

export function listProblem(text: string): ListProblem | undefined {
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const entry = raw.trim();
    if (entry === '') continue;
    if (entry.length > MAX_ENTRY_LENGTH) return { kind: 'entry_too_long', line: index + 1 };
    if (!isListEntry(entry)) return { kind: 'entry_invalid', line: index + 1, entry };
  }
  const count = listEntries(text).length;
  return count > MAX_LIST_ENTRIES ? { kind: 'too_many_entries', count } : undefined;
}

function isIntegerIn(value: number | null, range: { min: number; max: number }): boolean {
  return value !== null && Number.isInteger(value) && value >= range.min && value <= range.max;
}

/** The schema's rules, said in the interface language before anything is sent. */
export function useSecurityFormResolver(): Resolver<SecurityForm> {
  const { t } = useTranslation('security');
  return useCallback<Resolver<SecurityForm>>(
    async (values, _context, options) => {
      const errors: Record<string, FieldError> = {};
      const { maxAttempts, lockoutDuration } = values.sentinelPolicy;
      if (!isIntegerIn(maxAttempts, MAX_ATTEMPTS_RANGE)) {
        errors['sentinelPolicy.maxAttempts'] = { type: 'range', message: t('errors.max_attempts', MAX_ATTEMPTS_RANGE) };
      }
      if (!isIntegerIn(lockoutDuration, LOCKOUT_DURATION_RANGE)) {
        errors['sentinelPolicy.lockoutDuration'] = {
          type: 'range',
          message: t('errors.lockout_duration', LOCKOUT_DURATION_RANGE),
        };
      }
      for (const list of emailLists) {
        const problem = listProblem(values.emailBlocklistPolicy[list]);
        if (!problem) continue;
        const message =
          problem.kind === 'entry_invalid'
            ? t('errors.entry_invalid', { line: problem.line, entry: problem.entry })
            : problem.kind === 'entry_too_long'
              ? t('errors.entry_too_long', { line: problem.line, max: MAX_ENTRY_LENGTH })
              : t('errors.too_many_entries', { entries: problem.count, max: MAX_LIST_ENTRIES });
        errors[`emailBlocklistPolicy.${list}`] = { type: problem.kind, message };
      }
      if (Object.keys(errors).length === 0) return { values, errors: {} };
      return { values: {}, errors: toNestErrors(errors, options as never) as never };
    },
    [t],
  );
}

/** The server's refusals of a save (a 400 listing API paths such as `emailBlocklistPolicy.customBlocklist.3`). */
export const securityServerErrors: ServerErrorMapping<SecurityForm> = {
  paths: (apiPath) => {
    const [head, field] = apiPath.split('.');
    if (head === 'sentinelPolicy') {
      return field === 'lockoutDuration' ? 'sentinelPolicy.lockoutDuration' : 'sentinelPolicy.maxAttempts';
    }
    if (head === 'emailBlocklistPolicy') {
      if (field === 'blockDisposableAddresses' || field === 'blockSubaddressing' || field === 'customAllowlist') {
        return `emailBlocklistPolicy.${field}`;
      }
      return 'emailBlocklistPolicy.customBlocklist';
    }
    return undefined;
  },
};
