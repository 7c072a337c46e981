import type { Tenant } from '@gatehouse/schemas';
import { beforeEach, describe, expect, it } from 'vitest';
import { tenantFixture } from '../tenants/tenant-fixture.ts';
import {
  amountDueInDollars,
  claimNotice,
  resetShownNotices,
  tenantNoticeModal,
  tenantStatusTag,
} from './tenant-status.ts';

const invoice = (amountDue: number): Tenant['openInvoices'][number] => ({
  id: `in_${amountDue}`,
  status: 'open',
  planId: 'Pro202411',
  amountDue,
  amountPaid: 0,
  periodStart: 0,
  periodEnd: 1,
  createdAt: 0,
});

/** A production tenant on Free, under both limits. */
const free = (overrides: Partial<Tenant> = {}) =>
  tenantFixture('p', {
    tag: 'production',
    planId: 'Free',
    quota: { mauLimit: 50_000, tokenLimit: 500_000 },
    usage: { activeUsers: 10, tokenUsage: 10 },
    ...overrides,
  });
const atMau = { usage: { activeUsers: 50_000, tokenUsage: 10 } };
const atTokens = { usage: { activeUsers: 10, tokenUsage: 500_000 } };
const atBoth = { usage: { activeUsers: 60_000, tokenUsage: 600_000 } };

describe('tenant status tag (spec §4, first match wins)', () => {
  it('is none for a tenant under its limits without open invoices', () => {
    expect(tenantStatusTag(free())).toBe('none');
    expect(tenantStatusTag(free({ usage: { activeUsers: 49_999, tokenUsage: 499_999 } }))).toBe('none');
  });
  it('puts suspended before everything else', () => {
    expect(tenantStatusTag(free({ ...atBoth, isSuspended: true, openInvoices: [invoice(100)] }))).toBe('suspended');
  });
  it('puts overdue (any open invoice) before the usage tags', () => {
    expect(tenantStatusTag(free({ ...atBoth, openInvoices: [invoice(100)] }))).toBe('overdue');
  });
  it('puts MAU exceeded before token exceeded, and counts reaching the limit as exceeded', () => {
    expect(tenantStatusTag(free(atBoth))).toBe('mau_exceeded');
    expect(tenantStatusTag(free(atMau))).toBe('mau_exceeded');
    expect(tenantStatusTag(free(atTokens))).toBe('token_exceeded');
  });
  it('treats null limits as unlimited', () => {
    expect(tenantStatusTag(free({ ...atBoth, quota: { mauLimit: null, tokenLimit: null } }))).toBe('none');
  });
  it('skips token exceeded on paid-model plans, but not MAU exceeded', () => {
    const pro = { planId: 'Pro202411', quota: { mauLimit: 50_000, tokenLimit: 500_000 } };
    expect(tenantStatusTag(free({ ...pro, ...atTokens }))).toBe('none');
    expect(tenantStatusTag(free({ ...pro, planId: 'Pro', ...atTokens }))).toBe('none');
    expect(tenantStatusTag(free({ ...pro, ...atMau }))).toBe('mau_exceeded');
  });
});

describe('quota and overdue modals (spec §4)', () => {
  it('opens the notice of the first matching status in cloud', () => {
    expect(tenantNoticeModal(free({ ...atBoth, openInvoices: [invoice(1)] }), 'cloud')).toBe('overdue');
    expect(tenantNoticeModal(free(atBoth), 'cloud')).toBe('mau_exceeded');
    expect(tenantNoticeModal(free(atTokens), 'cloud')).toBe('token_exceeded');
    expect(tenantNoticeModal(free(), 'cloud')).toBeUndefined();
  });
  it('never opens for development tenants, in OSS, without a tenant, or on a suspended tenant', () => {
    expect(tenantNoticeModal(free({ ...atBoth, tag: 'development', openInvoices: [invoice(1)] }), 'cloud')).toBe(
      undefined,
    );
    expect(tenantNoticeModal(free(atBoth), 'oss')).toBeUndefined();
    expect(tenantNoticeModal(undefined, 'cloud')).toBeUndefined();
    expect(tenantNoticeModal(free({ ...atBoth, isSuspended: true }), 'cloud')).toBeUndefined();
  });
  it('opens the token modal only when the limit is not null and the plan is not paid-model', () => {
    expect(tenantNoticeModal(free({ ...atTokens, quota: { mauLimit: 50_000, tokenLimit: null } }), 'cloud')).toBe(
      undefined,
    );
    expect(tenantNoticeModal(free({ ...atTokens, planId: 'Pro202411' }), 'cloud')).toBeUndefined();
  });
  it('opens the MAU modal only when the limit is not null', () => {
    expect(tenantNoticeModal(free({ ...atMau, quota: { mauLimit: null, tokenLimit: 500_000 } }), 'cloud')).toBe(
      undefined,
    );
  });
});

describe('once per page view', () => {
  beforeEach(resetShownNotices);
  it('claims each tenant and kind once, until the page loads again', () => {
    expect(claimNotice('a', 'mau_exceeded')).toBe(true);
    expect(claimNotice('a', 'mau_exceeded')).toBe(false);
    expect(claimNotice('a', 'overdue')).toBe(true);
    expect(claimNotice('b', 'mau_exceeded')).toBe(true);
    resetShownNotices();
    expect(claimNotice('a', 'mau_exceeded')).toBe(true);
  });
});

describe('amounts (spec §9)', () => {
  it('sums the open invoices in cents and shows dollars with two decimals', () => {
    expect(amountDueInDollars({ openInvoices: [invoice(1600), invoice(250)] }, 'en')).toBe('$18.50');
    expect(amountDueInDollars({ openInvoices: [invoice(1600)] }, 'de')).toMatch(/^16,00\s\$$/);
  });
});
