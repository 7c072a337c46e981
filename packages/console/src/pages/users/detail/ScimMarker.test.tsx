// @vitest-environment happy-dom
import type { UserScimProvisioning } from '@gatehouse/schemas';
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../../components/testing/render-page.tsx';
import users from '../../../i18n/locales/en/users.json';
import { ScimMarker } from './ScimMarker.tsx';

// Which connection provisioned the user (issue 45): `GET /users/{id}/scim`, answered here.
let provisioning: UserScimProvisioning['provisioning'] = null;

vi.mock('../../../api/scim-connections.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../api/scim-connections.ts')>()),
  useUserScimProvisioning: () => ({ data: provisioning }),
}));

beforeEach(() => {
  provisioning = null;
});

describe("a user's SCIM marker", () => {
  it('names the connection and links to its SSO connector’s provisioning tab', async () => {
    provisioning = {
      connectionId: 'scim1',
      connectionName: 'Acme directory',
      ssoConnectorId: 'sso1',
      userName: 'ada@acme.test',
      externalId: null,
      createdAt: 0,
      updatedAt: 0,
    };
    renderPage(<ScimMarker userId="user1" />, { path: '/users/user1', namespaces: { users } });
    const marker = await screen.findByRole('link', { name: 'Provisioned by SCIM: Acme directory' });
    expect(marker.getAttribute('href')).toBe('/enterprise-sso/sso1/provisioning');
  });

  it('shows nothing for a user no directory provisioned', async () => {
    const { container } = renderPage(<ScimMarker userId="user1" />, { path: '/users/user1', namespaces: { users } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(container.querySelector('[data-testid="scim-marker"]')).toBeNull();
  });
});
