import { type DomainCreate, type DomainStatus, domainCreateSchema } from '@gatehouse/schemas';
import { useMemo } from 'react';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import type { TagStatus } from '../../../components/Tag/Tag.tsx';
import { useTranslation } from '../../../i18n/react.tsx';

/** Spec §4 statuses as tags: waiting is a warning, the certificate step is progress, Error needs the owner. */
export const domainStatusTag: Record<DomainStatus, TagStatus> = {
  PendingVerification: 'warning',
  PendingSsl: 'info',
  Active: 'success',
  Error: 'error',
};

export type DomainProblem = 'required' | 'too_long' | 'url' | 'invalid';

/** Which message a rejected domain gets: a pasted URL is common enough to be told apart. */
export function domainProblem(value: unknown, code: string): DomainProblem {
  const text = typeof value === 'string' ? value.trim() : '';
  if (text === '') return 'required';
  if (code === 'too_big') return 'too_long';
  if (/^[a-z][a-z0-9+.-]*:\/\/|\//i.test(text)) return 'url';
  return 'invalid';
}

/** The add form: the shared create schema (trims and lower-cases), its messages in the interface language. */
export function useDomainResolver() {
  const { t } = useTranslation('domains');
  return useMemo(
    () =>
      schemaResolver(domainCreateSchema, (issue) =>
        t(`form.errors.${domainProblem(issue.input, issue.code)}`, { max: 253 }),
      ),
    [t],
  );
}

export type DomainForm = DomainCreate;
