// @vitest-environment happy-dom
import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../testing/render.tsx';
import { ConfirmProvider } from './ConfirmProvider.tsx';
import { type Confirm, type ConfirmOptions, useConfirm } from './confirm-context.ts';

/** Renders the provider and hands out its confirm function, the way a page would call it. */
function setup() {
  let confirm: Confirm = () => Promise.reject(new Error('not rendered'));
  function Page() {
    confirm = useConfirm();
    return <button type="button">{'Delete user'}</button>;
  }
  renderWithI18n(
    <ConfirmProvider>
      <Page />
    </ConfirmProvider>,
  );
  /** Asks, and waits for the dialog (its module loads on the first confirm), as a user would before answering. */
  const open = async (options: ConfirmOptions) => {
    let answer!: Promise<boolean>;
    act(() => {
      answer = confirm(options);
    });
    await screen.findByRole('alertdialog');
    return { answer };
  };
  return { open };
}

describe('useConfirm', () => {
  it("asks with the 'Reminder' title and resolves true on Confirm", async () => {
    const { open } = setup();
    const { answer } = await open({ content: 'Delete this user?' });
    const dialog = screen.getByRole('alertdialog', { name: 'Reminder' });
    expect(dialog.textContent).toContain('Delete this user?');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(answer).resolves.toBe(true);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('resolves false on Cancel', async () => {
    const { open } = setup();
    const { answer } = await open({ content: 'Delete?' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Cancel' }));
    await expect(answer).resolves.toBe(false);
  });

  it('resolves false on Escape', async () => {
    const { open } = setup();
    const { answer } = await open({ content: 'Delete?' });
    await userEvent.setup().keyboard('{Escape}');
    await expect(answer).resolves.toBe(false);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  // happy-dom keeps no session history (pushState does not add to its length, back() does not pop), so these tests
  // play the browser's part by hand; the e2e shell spec presses the real Back button.
  it('marks a history entry of its own at the same address, and Back to the entry beneath cancels it', async () => {
    const { open } = setup();
    const href = window.location.href;
    const beneath = window.history.state;
    const { answer } = await open({ content: 'Delete?' });
    expect(window.history.state).toMatchObject({ gatehouseConfirm: expect.any(Number) });
    expect(window.location.href).toBe(href);
    act(() => {
      window.history.replaceState(beneath, '');
      window.dispatchEvent(new PopStateEvent('popstate', { state: beneath }));
    });
    await expect(answer).resolves.toBe(false);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('gives its history entry back when answered with a button, and answers once it is gone', async () => {
    const { open } = setup();
    const back = vi.spyOn(window.history, 'back').mockImplementation(() => {
      window.history.replaceState(null, '');
      window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
    });
    const { answer } = await open({ content: 'Delete?' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(answer).resolves.toBe(true);
    expect(back).toHaveBeenCalledTimes(1);
    back.mockRestore();
  });

  it('leaves the history alone for a confirm a blocked navigation opened', async () => {
    const { open } = setup();
    const length = window.history.length;
    const { answer } = await open({ content: 'Leave?', ownsHistoryEntry: false });
    expect(window.history.length).toBe(length);
    await userEvent.setup().keyboard('{Escape}');
    await expect(answer).resolves.toBe(false);
  });

  it('cancels the previous confirm when a second one opens', async () => {
    const { open } = setup();
    const { answer: first } = await open({ content: 'First question' });
    const { answer: second } = await open({ content: 'Second question' });
    await expect(first).resolves.toBe(false);
    expect(screen.getAllByRole('alertdialog')).toHaveLength(1);
    expect(screen.getByRole('alertdialog').textContent).toContain('Second question');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(second).resolves.toBe(true);
  });

  it("shows an alert with a single 'Got it' button", async () => {
    const { open } = setup();
    const { answer } = await open({ content: 'Mail is not configured.', variant: 'alert' });
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Got it' }));
    await expect(answer).resolves.toBe(true);
  });

  it('moves the focus in, keeps Tab inside, and gives the focus back when it closes', async () => {
    const user = userEvent.setup();
    const { open } = setup();
    const opener = screen.getByRole('button', { name: 'Delete user' });
    opener.focus();
    const { answer } = await open({ content: 'Delete?' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Confirm' }));
    await user.tab(); // From the last button back to the first element of the dialog.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Confirm' }));
    fireEvent.keyDown(screen.getByRole('alertdialog'), { key: 'Escape' });
    await answer;
    expect(document.activeElement).toBe(opener);
  });

  it('starts on Cancel for a destructive action', async () => {
    const { open } = setup();
    await open({ content: 'Delete?', isDanger: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
  });
});
