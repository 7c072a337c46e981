// @vitest-environment happy-dom
import {
  freePlanQuota,
  proPlanQuota,
  type Quota,
  type QuotaKey,
  type QuotaUsage,
  quotaKeys,
  type SubscriptionUsage,
} from '@gatehouse/schemas';
import { render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/client.ts';
import { createTestI18n } from '../../../components/testing/render.tsx';
import quota from '../../../i18n/locales/en/quota.json';
import subscription from '../../../i18n/locales/en/subscription.json';
import tenants from '../../../i18n/locales/en/tenants.json';
import { I18nProvider } from '../../../i18n/react.tsx';
import { DowngradeBlockedModal, parseDowngradeBlocked } from './DowngradeBlockedModal.tsx';
import { UsageCards } from './UsageCards.tsx';

function renderEn(ui: ReactNode) {
  const i18n = createTestI18n();
  i18n.addResourceBundle('en', 'subscription', subscription);
  i18n.addResourceBundle('en', 'quota', quota);
  i18n.addResourceBundle('en', 'tenants', tenants);
  return render(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);
}

function usageOf(planQuota: Quota, used: Partial<Record<QuotaKey, number | boolean>>): SubscriptionUsage {
  const usage = Object.fromEntries(quotaKeys.map((key) => [key, used[key] ?? 0])) as QuotaUsage;
  return { quota: planQuota, basicQuota: planQuota, usage, resources: {}, roles: {} };
}

const card = (key: QuotaKey) => screen.getByTestId(`usage-card-${key}`);

describe('usage cards (spec §9)', () => {
  it('shows MAU and tokens only on Free, with separators, K/M quotas and a percentage above 0', () => {
    renderEn(<UsageCards planId="Free" usage={usageOf(freePlanQuota, { mauLimit: 1234, tokenLimit: 0 })} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    expect(card('mauLimit').textContent).toContain('Monthly active users');
    expect(card('mauLimit').textContent).toContain('1,234');
    expect(card('mauLimit').textContent).toContain('of 50K (2%)');
    expect(card('tokenLimit').textContent).toContain('of 500K');
    expect(card('tokenLimit').textContent).not.toContain('%');
  });

  it('never marks Free as exceeded', () => {
    renderEn(<UsageCards planId="Free" usage={usageOf(freePlanQuota, { mauLimit: 60_000 })} />);
    expect(within(card('mauLimit')).queryByText('Exceeded')).toBeNull();
  });

  it('shows the eight cards and tokens on a paid plan, MFA as enabled, and marks a reached quota', () => {
    const planQuota = { ...proPlanQuota, tenantMembersLimit: 3 };
    renderEn(
      <UsageCards
        planId="Pro202411"
        usage={usageOf(planQuota, { mauLimit: 12, tenantMembersLimit: 3, hooksLimit: 2, mfaEnabled: false })}
      />,
    );
    expect(screen.getAllByRole('listitem')).toHaveLength(9);
    expect(card('mfaEnabled').textContent).toContain('Enabled');
    expect(card('mauLimit').textContent).toContain('of unlimited');
    expect(within(card('tenantMembersLimit')).getByText('Exceeded')).toBeTruthy();
    expect(card('tenantMembersLimit').textContent).toContain('of 3 (100%)');
    expect(within(card('hooksLimit')).queryByText('Exceeded')).toBeNull();
  });
});

describe('a blocked downgrade (spec §4 cancelling)', () => {
  const error = new ApiError(422, 'Usage exceeds the plan.', 'subscription.downgrade_blocked', {
    planId: 'Free',
    quota: { applicationsLimit: { limit: 3, usage: 4 }, organizationsLimit: { limit: 0, usage: 1 } },
  });

  it('reads the blocking quotas from the error and ignores other errors', () => {
    expect(parseDowngradeBlocked(error)).toEqual({
      planId: 'Free',
      quotas: [
        { key: 'applicationsLimit', limit: 3, usage: 4 },
        { key: 'organizationsLimit', limit: 0, usage: 1 },
      ],
    });
    expect(parseDowngradeBlocked(new ApiError(422, 'No.', 'subscription.not_cancelable'))).toBeUndefined();
    expect(parseDowngradeBlocked(new Error('network'))).toBeUndefined();
  });

  it('names each blocking quota with the limit and the usage', () => {
    const blocked = parseDowngradeBlocked(error);
    if (!blocked) throw new Error('expected a blocked downgrade');
    renderEn(<DowngradeBlockedModal blocked={blocked} onClose={() => undefined} />);
    const dialog = screen.getByRole('alertdialog', { name: 'This tenant does not fit the Free plan' });
    const items = within(dialog).getAllByRole('listitem');
    expect(items[0]?.textContent).toContain('Applications');
    expect(items[0]?.textContent).toContain('Free limit: 3 · in use: 4');
    expect(items[1]?.textContent).toContain('Organizations');
    expect(items[1]?.textContent).toContain('Free limit: Not included · in use: 1');
  });
});
