// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { createTestI18n } from '../../components/testing/render.tsx';
import auditLogs from '../../i18n/locales/en/audit_logs.json';
import { I18nProvider } from '../../i18n/react.tsx';
import { Combobox, type ComboboxOption } from './Combobox.tsx';

const keys: ComboboxOption[] = ['Admin.Role.Created', 'Admin.Role.Updated', 'Admin.User.Created'].map((key) => ({
  value: key,
  label: key,
}));

/** The log-key filter's way of using it: local filtering, and a typed key usable as it is. */
function KeyFilter({ onSelect }: { onSelect: (value: string | undefined) => void }) {
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<ComboboxOption>();
  return (
    <Combobox
      label="Log key"
      placeholder="All log keys"
      selected={selected}
      onSelect={(option) => {
        setSelected(option);
        onSelect(option?.value);
      }}
      options={keys.filter((option) => option.label.toLowerCase().includes(query.toLowerCase()))}
      onQueryChange={setQuery}
      emptyText="No log key matches."
      customOption={(text) => ({ value: text, label: `Use “${text}”` })}
    />
  );
}

function renderFilter() {
  const i18n = createTestI18n();
  i18n.addResourceBundle('en', 'audit_logs', auditLogs);
  const onSelect = vi.fn();
  render(
    <I18nProvider i18n={i18n}>
      <KeyFilter onSelect={onSelect} />
    </I18nProvider>,
  );
  return { onSelect, box: screen.getByRole('combobox', { name: 'Log key' }) };
}

describe('Combobox', () => {
  it('narrows the options as you type and picks one with the arrows and Enter', async () => {
    const user = userEvent.setup();
    const { onSelect, box } = renderFilter();
    await user.type(box, 'role');
    expect(box.getAttribute('aria-expanded')).toBe('true');
    const options = screen.getAllByRole('option').map((option) => option.textContent);
    expect(options).toEqual(['Admin.Role.Created', 'Admin.Role.Updated', 'Use “role”']);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onSelect).toHaveBeenLastCalledWith('Admin.Role.Updated');
    expect(box).toHaveProperty('value', 'Admin.Role.Updated');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('offers the typed text when nothing matches, and clears the choice with its button', async () => {
    const user = userEvent.setup();
    const { onSelect, box } = renderFilter();
    await user.type(box, 'Custom.Key');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Use “Custom.Key”']);
    await user.keyboard('{Enter}');
    expect(onSelect).toHaveBeenLastCalledWith('Custom.Key');
    await user.click(screen.getByRole('button', { name: 'Clear Log key' }));
    expect(onSelect).toHaveBeenLastCalledWith(undefined);
    expect(box).toHaveProperty('value', '');
  });

  it('closes on Escape and puts the chosen label back', async () => {
    const user = userEvent.setup();
    const { box } = renderFilter();
    await user.type(box, 'user');
    expect(screen.getByRole('listbox', { name: 'Log key' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box).toHaveProperty('value', '');
  });
});
