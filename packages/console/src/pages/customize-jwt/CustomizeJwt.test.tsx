// @vitest-environment happy-dom
import { defaultIdTokenConfig, type IdTokenConfig, type JwtCustomizerResponse } from '@gatehouse/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../components/testing/render-page.tsx';
import strings from '../../i18n/locales/en/customize_jwt.json';
import { CustomizeJwtPage } from './CustomizeJwtPage.tsx';

const saved: JwtCustomizerResponse = { script: 'x', environmentVariables: {}, blockIssuanceOnError: false };
const state: { list: { key: 'jwt.accessToken' | 'jwt.clientCredentials'; value: JwtCustomizerResponse }[] } & {
  deleted: string[];
  idToken: IdTokenConfig[];
} = { list: [], deleted: [], idToken: [] };

vi.mock('../../api/jwt-customizer.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/jwt-customizer.ts')>()),
  useJwtCustomizers: () => ({ isPending: false, isError: false, data: state.list }),
  useDeleteJwtCustomizer: (tokenType: string) => ({
    mutateAsync: async () => {
      state.deleted.push(tokenType);
    },
  }),
  useIdTokenConfig: () => ({ isPending: false, isError: false, data: defaultIdTokenConfig }),
  useUpdateIdTokenConfig: () => ({
    mutateAsync: async (config: IdTokenConfig) => {
      state.idToken.push(config);
      return config;
    },
  }),
}));

beforeEach(() => {
  state.list = [{ key: 'jwt.clientCredentials', value: saved }];
  state.deleted = [];
  state.idToken = [];
});

function open() {
  const user = userEvent.setup();
  renderPage(<CustomizeJwtPage />, { path: '/customize-jwt', namespaces: { customize_jwt: strings } });
  return user;
}

const card = (name: string) => screen.getByRole('region', { name });

describe('the customize-jwt index', () => {
  it('offers Add for a token type without a script, Edit and Delete for one with', () => {
    open();
    const user = card('User access token');
    expect(within(user).getByRole('link', { name: 'Add script' }).getAttribute('href')).toBe(
      '/customize-jwt/access-token/create',
    );
    expect(within(user).queryByRole('button', { name: 'Delete script' })).toBeNull();
    const m2m = card('Machine-to-machine access token');
    expect(within(m2m).getByRole('link', { name: 'Edit script' }).getAttribute('href')).toBe(
      '/customize-jwt/client-credentials/edit',
    );
    expect(within(m2m).getByText('Active')).toBeTruthy();
  });

  it('deletes a script only after the confirmation', async () => {
    const user = open();
    const m2m = card('Machine-to-machine access token');
    await user.click(within(m2m).getByRole('button', { name: 'Delete script' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this script?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(state.deleted).toEqual([]);

    await user.click(within(m2m).getByRole('button', { name: 'Delete script' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(state.deleted).toEqual(['client-credentials']));
    expect(await screen.findByText('Script “Machine-to-machine access token” deleted.')).toBeTruthy();
  });

  it('saves the ID token claims that stay checked', async () => {
    const user = open();
    const claims = card('ID token extended claims');
    const roles = within(claims).getByRole('checkbox', { name: /Include roles in ID tokens/ });
    expect(roles).toHaveProperty('checked', true);
    await user.click(roles);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(state.idToken).toEqual([
        { enabledExtendedClaims: ['custom_data', 'identities', 'organizations', 'organization_roles'] },
      ]),
    );
  });
});
