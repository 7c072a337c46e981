// @vitest-environment happy-dom
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithI18n } from '../testing/render.tsx';
import { type EmailChip, EmailChipInput } from './EmailChipInput.tsx';
import { isEmail } from './email.ts';

function Harness({ initial = [] }: { initial?: EmailChip[] }) {
  const [chips, setChips] = useState<EmailChip[]>(initial);
  return <EmailChipInput values={chips} onChange={setChips} aria-label={'Collaborators'} />;
}

const chipTexts = () =>
  screen.queryByRole('list')
    ? within(screen.getByRole('list'))
        .getAllByRole('listitem')
        .map((li) => li.textContent)
    : [];

describe('isEmail (spec §5)', () => {
  it.each(['a@b.co', 'first.last+tag@example.org', 'x@y.z'])('accepts %s', (value) => {
    expect(isEmail(value)).toBe(true);
  });
  it.each(['plain', 'a@b', '@b.co', 'a@.co', 'a @b.co', 'a@b.'])('rejects %s', (value) => {
    expect(isEmail(value)).toBe(false);
  });
});

describe('EmailChipInput', () => {
  it('commits the text as a chip on Space, on Enter and on blur', async () => {
    const user = userEvent.setup();
    renderWithI18n(<Harness />);
    const input = screen.getByRole('textbox', { name: 'Collaborators' });
    await user.type(input, 'a@example.com ');
    await user.type(input, 'b@example.com{Enter}');
    await user.type(input, 'c@example.com');
    await user.tab();
    expect(chipTexts()).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
    expect((input as HTMLInputElement).value).toBe('');
  });

  it('rejects an invalid address: no chip, the text stays, and the error is announced', async () => {
    const user = userEvent.setup();
    renderWithI18n(<Harness />);
    const input = screen.getByRole('textbox', { name: 'Collaborators' });
    await user.type(input, 'not-an-email{Enter}');
    expect(chipTexts()).toEqual([]);
    expect((input as HTMLInputElement).value).toBe('not-an-email');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const error = document.getElementById(input.getAttribute('aria-describedby') ?? '');
    expect(error?.textContent).toBe('Not a valid email address: not-an-email');
  });

  it('does not add the same address twice', async () => {
    const user = userEvent.setup();
    renderWithI18n(<Harness />);
    const input = screen.getByRole('textbox', { name: 'Collaborators' });
    await user.type(input, 'a@example.com A@Example.com ');
    expect(chipTexts()).toEqual(['a@example.com']);
  });

  it('selects the last chip on the first Backspace and removes it on the second', async () => {
    const user = userEvent.setup();
    renderWithI18n(
      <Harness
        initial={[
          { id: '1', value: 'a@example.com' },
          { id: '2', value: 'b@example.com' },
        ]}
      />,
    );
    const input = screen.getByRole('textbox', { name: 'Collaborators' });
    await user.click(input);
    await user.keyboard('{Backspace}');
    const items = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(items[1]?.hasAttribute('data-selected')).toBe(true);
    expect(chipTexts()).toHaveLength(2);
    expect(screen.getByText('b@example.com selected. Press Backspace again to remove it.')).toBeTruthy();
    await user.keyboard('{Backspace}');
    expect(chipTexts()).toEqual(['a@example.com']);
  });

  it('only removes chips with Backspace when the input is empty', async () => {
    const user = userEvent.setup();
    renderWithI18n(<Harness initial={[{ id: '1', value: 'a@example.com' }]} />);
    const input = screen.getByRole('textbox', { name: 'Collaborators' });
    await user.type(input, 'ab{Backspace}{Backspace}');
    expect(document.querySelector('[data-selected]')).toBeNull();
    await user.keyboard('{Backspace}{Backspace}');
    expect(chipTexts()).toEqual([]);
  });

  it('marks chips that come with an error status', () => {
    renderWithI18n(<Harness initial={[{ id: '1', value: 'bounced@example.com', status: 'error' }]} />);
    const chip = within(screen.getByRole('list')).getByRole('listitem');
    expect(chip.getAttribute('data-status')).toBe('error');
    expect(chip.textContent).toContain('(invalid)');
  });

  it('leaves Enter on an empty input alone, so it still submits the form', () => {
    renderWithI18n(<Harness />);
    const input = screen.getByRole('textbox', { name: 'Collaborators' });
    expect(fireEvent.keyDown(input, { key: 'Enter' }), 'empty: not prevented').toBe(true);
    fireEvent.change(input, { target: { value: 'a@example.com' } });
    expect(fireEvent.keyDown(input, { key: 'Enter' }), 'with text: prevented, it commits').toBe(false);
    expect(chipTexts()).toEqual(['a@example.com']);
  });

  it('removes a chip with its remove button', async () => {
    const user = userEvent.setup();
    renderWithI18n(<Harness initial={[{ id: '1', value: 'a@example.com' }]} />);
    await user.click(screen.getByRole('button', { name: 'Remove a@example.com' }));
    expect(chipTexts()).toEqual([]);
  });
});
