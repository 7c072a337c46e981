// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../../components/testing/render-page.tsx';
import applications from '../../../i18n/locales/en/applications.json';
import { CreateApplicationPage } from './CreateApplicationPage.tsx';

// What the page sends is under test, not the API (the server tests cover it): every create is recorded here.
const created: unknown[] = [];
vi.mock('../../../api/applications.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../api/applications.ts')>()),
  useCreateApplication: () => ({
    mutateAsync: async (input: unknown) => {
      created.push(input);
      return { id: 'app1' };
    },
  }),
}));

function open() {
  const user = userEvent.setup();
  const view = renderPage(<CreateApplicationPage />, { path: '/applications/create', namespaces: { applications } });
  return { user, ...view };
}

const fieldError = (field: string) => screen.findByTestId(`${field}-error`);
const nameField = () => screen.getByLabelText(/^Application name/);
const redirectUri = () => screen.getByRole('textbox', { name: 'Redirect URI 1' });
const submit = () => screen.getByRole('button', { name: 'Create application' });

async function chooseType(user: ReturnType<typeof userEvent.setup>, card: RegExp) {
  await user.click(screen.getByRole('radio', { name: card }));
}

describe('create application: the type picker (issue 26)', () => {
  it('shows each type with a decorative icon, its name and description staying the radio’s name', () => {
    open();
    const radios = screen.getAllByRole('radio');
    expect(radios).toHaveLength(6);
    for (const radio of radios) {
      const icon = radio.closest('label')?.querySelector('svg');
      expect(icon?.getAttribute('aria-hidden')).toBe('true');
      expect(icon?.querySelector('path, rect, circle')).not.toBeNull();
    }
    expect(screen.getByRole('radio', { name: /^Single-page app/ })).toBeTruthy();
  });
});

describe('create application: refusals beside the field, nothing sent (spec §5)', () => {
  beforeEach(() => {
    created.length = 0;
  });

  it('refuses an empty name and a 257-character name', async () => {
    const { user, router } = open();
    await chooseType(user, /^Single-page app/);
    await user.click(submit());
    expect((await fieldError('name')).textContent).toBe('Application name is required.');

    await user.type(nameField(), `e2e-long-${'x'.repeat(248)}`);
    await user.tab();
    await waitFor(async () =>
      expect((await fieldError('name')).textContent).toBe('Application name must be at most 256 characters.'),
    );
    await user.click(submit());
    await waitFor(async () => expect((await fieldError('name')).textContent).toMatch(/at most 256/));
    expect(created, 'nothing is sent').toEqual([]);
    expect(router.state.location.pathname, 'the form stays open').toBe('/applications/create');
  });

  it('refuses an http redirect URI on a native app and a custom scheme on a SPA before submit', async () => {
    const { user } = open();
    await chooseType(user, /^Native app/);
    await user.type(nameField(), 'Bad native');
    await user.type(redirectUri(), 'https://native.example.com/callback');
    await user.tab();
    expect((await fieldError('redirectUris.0')).textContent).toBe(
      'Native redirect URIs must use a custom scheme, such as com.example.app://callback, not http:// or https://.',
    );
    await user.click(submit());

    await chooseType(user, /^Single-page app/);
    await user.clear(redirectUri());
    await user.type(redirectUri(), 'com.example.app://callback');
    await user.tab();
    await waitFor(async () =>
      expect((await fieldError('redirectUris.0')).textContent).toBe('Web redirect URIs must use http:// or https://.'),
    );
    await user.click(submit());
    await waitFor(async () => expect((await fieldError('redirectUris.0')).textContent).toMatch(/http/));
    expect(created, 'nothing is sent').toEqual([]);
  });
});
