// @vitest-environment happy-dom
import type { Application, ApplicationSignInExperienceInput } from '@gatehouse/schemas';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../../../components/testing/render-page.tsx';
import applications from '../../../../i18n/locales/en/applications.json';
import { BrandingTab } from './BrandingTab.tsx';

// What the form refuses and sends is under test, not the API (the server tests cover the PUT's rules).
const sent: ApplicationSignInExperienceInput[] = [];
vi.mock('../../../../api/applications.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../../api/applications.ts')>()),
  // Nothing set yet: the API's 404, which the hook turns into null.
  useApplicationBranding: () => ({ data: null, isPending: false, isError: false, refetch: () => {} }),
  useSaveApplicationBranding: () => ({
    mutateAsync: async (input: ApplicationSignInExperienceInput) => {
      sent.push(input);
      return {
        tenantId: 'default',
        applicationId: 'app1',
        displayName: input.displayName || null,
        color: input.color ?? {},
        branding: input.branding ?? {},
        termsOfUseUrl: input.termsOfUseUrl || null,
        privacyPolicyUrl: input.privacyPolicyUrl || null,
      };
    },
  }),
}));
const application = { id: 'app1', name: 'Partner portal', type: 'Traditional', isThirdParty: true } as Application;
vi.mock('../ApplicationDetailPage.tsx', () => ({ useApplicationOutlet: () => ({ application }) }));

function setup() {
  const user = userEvent.setup();
  renderPage(<BrandingTab />, { path: '/applications/app1/branding', namespaces: { applications } });
  return user;
}

beforeEach(() => {
  sent.length = 0;
});

describe('application branding (spec §2.2, §5)', () => {
  it('starts empty when nothing is set yet', () => {
    setup();
    expect(screen.getByLabelText('Display name')).toHaveProperty('value', '');
    expect(screen.getByLabelText('Primary color')).toHaveProperty('value', '');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('refuses a colour that is not hex and a URL that is not http(s), with nothing sent', async () => {
    const user = setup();
    await user.type(screen.getByLabelText('Primary color'), 'purple');
    await user.type(screen.getByLabelText('Dark mode primary color'), '#12345');
    await user.type(screen.getByLabelText('Logo URL'), 'javascript:alert(1)');
    await user.type(screen.getByLabelText('Terms of use URL'), 'ftp://example.com/terms');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const colorError = 'Enter a hex color such as #6139F6 or #fff.';
    const urlError = 'Enter a web address starting with http:// or https://.';
    expect((await screen.findByTestId('primaryColor-error')).textContent).toBe(colorError);
    expect(screen.getByTestId('darkPrimaryColor-error').textContent).toBe(colorError);
    expect(screen.getByTestId('logoUrl-error').textContent).toBe(urlError);
    expect(screen.getByTestId('termsOfUseUrl-error').textContent).toBe(urlError);
    expect(sent, 'nothing is sent').toEqual([]);
  });

  it('sends good values, leaving empty fields out', async () => {
    const user = setup();
    await user.type(screen.getByLabelText('Display name'), 'Partner');
    await user.type(screen.getByLabelText('Primary color'), '#0a0');
    await user.type(screen.getByLabelText('Logo URL'), 'https://cdn.example.com/logo.png');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Branding saved.')).toBeTruthy();
    expect(sent).toEqual([
      {
        displayName: 'Partner',
        color: { primaryColor: '#0a0' },
        branding: { logoUrl: 'https://cdn.example.com/logo.png' },
        termsOfUseUrl: '',
        privacyPolicyUrl: '',
      },
    ]);
  });
});
