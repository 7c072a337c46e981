import { domainCreateSchema, domainStatuses } from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';
import { DOMAIN_POLL_MS, domainsPollInterval } from '../../../api/domains.ts';
import { domainProblem, domainStatusTag } from './domain-form.ts';

/** The problem the add form names for what a user typed, through the same schema the server applies. */
function problemOf(domain: string) {
  const result = domainCreateSchema.safeParse({ domain });
  if (result.success) return result.data.domain;
  const [issue] = result.error.issues;
  return domainProblem(domain, issue?.code ?? '');
}

describe('domain add form', () => {
  it('accepts host names, trimmed and lower-cased as the server stores them', () => {
    expect(problemOf('  Auth.Example.COM ')).toBe('auth.example.com');
    expect(problemOf('a-b.c-d.example')).toBe('a-b.c-d.example');
  });

  it('names what is wrong', () => {
    expect(problemOf('')).toBe('required');
    expect(problemOf('   ')).toBe('required');
    expect(problemOf(`${'a.'.repeat(127)}com`)).toBe('too_long');
    expect(problemOf('https://auth.example.com')).toBe('url');
    expect(problemOf('auth.example.com/login')).toBe('url');
    expect(problemOf('localhost')).toBe('invalid');
    expect(problemOf('a..b')).toBe('invalid');
    expect(problemOf(`${'x'.repeat(64)}.com`)).toBe('invalid');
    expect(problemOf('-auth.example.com')).toBe('invalid');
  });
});

describe('domain status', () => {
  it('gives every status its own tag colour', () => {
    expect(domainStatuses.map((status) => domainStatusTag[status])).toEqual(['warning', 'info', 'success', 'error']);
  });

  it('polls every 10 s while a domain is not Active, and not at all otherwise', () => {
    expect(DOMAIN_POLL_MS).toBe(10_000);
    expect(domainsPollInterval(undefined)).toBe(false);
    expect(domainsPollInterval([])).toBe(false);
    expect(domainsPollInterval([{ status: 'Active' }])).toBe(false);
    for (const status of ['PendingVerification', 'PendingSsl', 'Error'] as const) {
      expect(domainsPollInterval([{ status }])).toBe(10_000);
    }
  });
});
