// @vitest-environment happy-dom
import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../../components/testing/render.tsx';
import connectors from '../../i18n/locales/en/connectors.json';
import { I18nProvider } from '../../i18n/react.tsx';
import { SocialDemoCallbackPage } from './SocialDemoCallbackPage.tsx';

function setup(url: string) {
  const i18n = createTestI18n();
  i18n.addResourceBundle('en', 'connectors', connectors);
  const router = createMemoryRouter([{ path: '/social-demo-callback', element: <SocialDemoCallbackPage /> }], {
    initialEntries: [url],
  });
  render(
    <I18nProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nProvider>,
  );
  return router;
}

describe('SocialDemoCallbackPage (spec §2.11)', () => {
  it('shows a title and a description, and removes the code from the address in place', async () => {
    const router = setup('/social-demo-callback?code=secret-code&state=s1');
    expect(screen.getByRole('heading', { level: 1, name: 'Demo sign-in completed' })).toBeTruthy();
    expect(screen.getByText(/The social connector sent you back here/)).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe('?state=s1'));
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('leaves an address without a code as it is', () => {
    const router = setup('/social-demo-callback');
    expect(router.state.location.search).toBe('');
    expect(router.state.historyAction).toBe('POP');
  });
});
