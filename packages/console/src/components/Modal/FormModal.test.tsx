// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../testing/render.tsx';
import { FormModal } from './FormModal.tsx';

describe('FormModal', () => {
  it('is a dialog named by its title whose Enter and footer button submit the form, and Cancel closes', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    const onClose = vi.fn();
    renderWithI18n(
      <FormModal
        title="Rename"
        description="A new name."
        submitText="Save"
        isSubmitting={false}
        onSubmit={onSubmit}
        onClose={onClose}
      >
        <input aria-label="Name" />
      </FormModal>,
    );
    const dialog = within(screen.getByRole('dialog', { name: 'Rename' }));
    expect(dialog.getByText('A new name.')).toBeTruthy();
    await user.type(dialog.getByLabelText('Name'), 'x{Enter}');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledTimes(2);
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('asks a typed confirmation as an alert dialog with a danger button kept disabled', () => {
    renderWithI18n(
      <FormModal
        role="alertdialog"
        title="Delete tenant"
        submitText="Delete"
        isDanger
        isSubmitDisabled
        isSubmitting={false}
        onSubmit={vi.fn()}
        onClose={vi.fn()}
      >
        <input aria-label="Tenant name" />
      </FormModal>,
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Delete tenant' });
    expect((within(dialog).getByRole('button', { name: 'Delete' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('keeps focus in the dialog through a send: back on the button after it, and Esc still closes (issue 40, 4)', async () => {
    const onClose = vi.fn();
    const dialogOf = (isSubmitting: boolean) => (
      <FormModal title="Send a test" submitText="Send" isSubmitting={isSubmitting} onSubmit={vi.fn()} onClose={onClose}>
        <input aria-label="Email address" />
      </FormModal>
    );
    const { rerender } = renderWithI18n(dialogOf(false));
    const send = screen.getByRole('button', { name: 'Send' });
    send.focus();
    // What a browser does when the focused button turns disabled for the send: focus falls to <body>.
    send.blur();
    rerender(dialogOf(true));
    expect(document.activeElement, 'held by the dialog while sending').toBe(screen.getByRole('dialog'));
    rerender(dialogOf(false));
    expect(document.activeElement, 'back on the button').toBe(screen.getByRole('button', { name: 'Send' }));
    await userEvent.setup().keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledOnce();
  });
});
