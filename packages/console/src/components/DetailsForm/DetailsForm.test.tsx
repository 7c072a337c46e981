// @vitest-environment happy-dom
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { FormTextInput } from '../form/bound/FormTextInputs.tsx';
import { ConfirmProvider } from '../Modal/ConfirmProvider.tsx';
import { Tabs } from '../Tabs/Tabs.tsx';
import { renderWithI18n } from '../testing/render.tsx';
import { DetailsForm } from './DetailsForm.tsx';

function SettingsTab({ onSave }: { onSave: (values: { name: string }) => Promise<void> }) {
  const { control, handleSubmit, reset, formState } = useForm({ defaultValues: { name: 'Shop' } });
  return (
    <>
      <Tabs
        aria-label={'Application'}
        items={[
          { to: '/apps/a1/settings', label: 'Settings' },
          { to: '/apps/a1/roles', label: 'Roles' },
        ]}
      />
      <DetailsForm
        isDirty={formState.isDirty}
        isSubmitting={formState.isSubmitting}
        onSubmit={handleSubmit(async (values) => {
          await onSave(values);
          reset(values);
        })}
        onDiscard={() => reset()}
      >
        <FormTextInput name="name" control={control} label={'Name'} />
      </DetailsForm>
      <Link to="/apps/a1/settings?tab=advanced">{'Same page'}</Link>
    </>
  );
}

function setup(onSave = vi.fn(() => Promise.resolve())) {
  const router = createMemoryRouter(
    [
      { path: '/apps/a1/settings', element: <SettingsTab onSave={onSave} /> },
      { path: '/apps/a1/roles', element: <p>{'Roles tab'}</p> },
    ],
    { initialEntries: ['/apps/a1/settings'] },
  );
  renderWithI18n(
    <ConfirmProvider>
      <RouterProvider router={router} />
    </ConfirmProvider>,
  );
  return { router, onSave, user: userEvent.setup() };
}

const saveBar = () => screen.queryByRole('region', { name: 'Unsaved changes' });

describe('DetailsForm', () => {
  it('shows the save bar only while the form is dirty, and Discard restores the values', async () => {
    const { user } = setup();
    expect(saveBar()).toBeNull();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), ' 2');
    expect(saveBar()).not.toBeNull();
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect(saveBar()).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveProperty('value', 'Shop');
  });

  it('saves with the save bar', async () => {
    const { user, onSave } = setup();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), ' 2');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(onSave).toHaveBeenCalledWith({ name: 'Shop 2' });
    expect(saveBar()).toBeNull();
  });

  it('keeps room for the bar while it shows: what is scrolled into view stays above it (issue 40, 8)', async () => {
    // happy-dom has no layout: the bar is given a height; the browser does the scrolling with the padding.
    const barHeight = 58;
    const measure = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (
      this: HTMLElement,
    ) {
      const height = this.getAttribute('aria-label') === 'Unsaved changes' ? barHeight : 20;
      return { x: 0, y: 0, top: 0, left: 0, right: 100, bottom: height, width: 100, height, toJSON: () => ({}) };
    });
    const scrolled = vi.spyOn(HTMLElement.prototype, 'scrollIntoView');
    try {
      const { user } = setup();
      const root = document.documentElement;
      expect(root.style.getPropertyValue('--save-bar-space')).toBe('');
      const name = screen.getByRole('textbox', { name: 'Name' });
      await user.type(name, ' 2');
      expect(saveBar()).not.toBeNull();
      // theme.css: the document's scroll padding at the bottom is the bar's height and a little room.
      expect(root.style.getPropertyValue('--save-bar-space')).toBe(`${barHeight + 8}px`);
      // The field that made the form dirty is brought above the bar that just appeared (if the bar covers it).
      expect(scrolled.mock.contexts).toContain(name);
      expect(scrolled).toHaveBeenCalledWith({ block: 'nearest' });
      await user.click(screen.getByRole('button', { name: 'Discard' }));
      expect(saveBar()).toBeNull();
      expect(root.style.getPropertyValue('--save-bar-space'), 'no room kept once the bar is gone').toBe('');
    } finally {
      measure.mockRestore();
      scrolled.mockRestore();
    }
  });

  it('marks the current tab', () => {
    setup();
    expect(screen.getByRole('link', { name: 'Settings' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Roles' }).hasAttribute('aria-current')).toBe(false);
  });
});

describe('useUnsavedChangesGuard', () => {
  it('asks before leaving with unsaved changes; Stay keeps the page and the edits', async () => {
    const { user, router } = setup();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), ' 2');
    await user.click(screen.getByRole('link', { name: 'Roles' }));
    expect((await screen.findByRole('alertdialog')).textContent).toContain('You have unsaved changes.');
    await user.click(screen.getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/apps/a1/settings');
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveProperty('value', 'Shop 2');
  });

  it('leaves when the user confirms', async () => {
    const { user, router } = setup();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), ' 2');
    await user.click(screen.getByRole('link', { name: 'Roles' }));
    await user.click(screen.getByRole('button', { name: 'Leave' }));
    expect(router.state.location.pathname).toBe('/apps/a1/roles');
    expect(screen.getByText('Roles tab')).toBeTruthy();
  });

  it('does not ask for a clean form or for a change of only the query', async () => {
    const { user, router } = setup();
    await user.click(screen.getByRole('link', { name: 'Roles' }));
    expect(router.state.location.pathname).toBe('/apps/a1/roles');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await act(() => router.navigate('/apps/a1/settings'));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), ' 2');
    await user.click(screen.getByRole('link', { name: 'Same page' }));
    expect(router.state.location.search).toBe('?tab=advanced');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('asks the browser to confirm closing the tab only while dirty', async () => {
    const { user } = setup();
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), ' 2');
    expect(unload()).toBe(true);
  });
});
