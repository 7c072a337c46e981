// @vitest-environment happy-dom
import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { renderWithI18n } from '../../testing/render.tsx';
import { schemaResolver } from '../schema-resolver.ts';
import { FormCardRadio, FormSwitch } from './FormChoiceInputs.tsx';
import { FormMultiTextInput } from './FormListInputs.tsx';
import { FormNumberInput, FormTextInput } from './FormTextInputs.tsx';

const schema = z.object({
  name: z.string().min(1, 'Name is required'),
  ttl: z.number().int().min(1, 'At least 1').nullable(),
  redirectUris: z.array(z.url('Not a URL')),
  rotate: z.boolean(),
  type: z.enum(['spa', 'native']),
});
type Values = z.infer<typeof schema>;

function ApplicationForm({ onSave, defaults }: { onSave: (values: Values) => void; defaults?: Partial<Values> }) {
  const { control, handleSubmit } = useForm<Values>({
    // The console's one form resolver; without a wording, the schema's own messages.
    resolver: schemaResolver(schema),
    defaultValues: { name: '', ttl: 3600, redirectUris: [''], rotate: true, type: 'spa', ...defaults },
  });
  return (
    <form onSubmit={handleSubmit(onSave)} noValidate>
      <FormTextInput name="name" control={control} label={'Name'} isRequired />
      <FormNumberInput name="ttl" control={control} label={'Token lifetime'} />
      <FormMultiTextInput name="redirectUris" control={control} label={'Redirect URIs'} itemLabel={'Redirect URI'} />
      <FormSwitch name="rotate" control={control} label={'Rotate refresh token'} />
      <FormCardRadio
        name="type"
        control={control}
        label={'Type'}
        options={[
          { value: 'spa', title: 'SPA' },
          { value: 'native', title: 'Native' },
        ]}
      />
      <button type="submit">{'Save'}</button>
    </form>
  );
}

describe('react-hook-form-bound fields', () => {
  it('show the schema errors under their fields, with test ids from the field names', async () => {
    const onSave = vi.fn();
    renderWithI18n(<ApplicationForm onSave={onSave} defaults={{ redirectUris: ['https://ok.example', 'nope'] }} />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(onSave).not.toHaveBeenCalled();
    expect(screen.getByTestId('name-error').textContent).toBe('Name is required');
    expect(screen.getByTestId('name').getAttribute('aria-invalid')).toBe('true');
    // Per-row errors: only the bad row is marked.
    expect(screen.getByTestId('redirectUris.0').hasAttribute('aria-invalid')).toBe(false);
    expect(screen.getByTestId('redirectUris.1').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('redirectUris.1-error').textContent).toBe('Not a URL');
  });

  it('submit typed values: numbers as numbers, an emptied number as null, switches and radio cards', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    renderWithI18n(<ApplicationForm onSave={onSave} />);
    await user.type(screen.getByRole('textbox', { name: /Name/ }), 'Shop');
    await user.clear(screen.getByRole('spinbutton', { name: 'Token lifetime' }));
    await user.type(screen.getByRole('textbox', { name: 'Redirect URI 1' }), 'https://shop.example/callback');
    await user.click(screen.getByRole('button', { name: 'Add another' }));
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Redirect URI 2' }));
    await user.type(screen.getByRole('textbox', { name: 'Redirect URI 2' }), 'https://shop.example/other');
    await user.click(screen.getByRole('switch', { name: 'Rotate refresh token' }));
    await user.click(screen.getByRole('radio', { name: 'Native' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave.mock.calls[0]?.[0]).toEqual({
      name: 'Shop',
      ttl: null,
      redirectUris: ['https://shop.example/callback', 'https://shop.example/other'],
      rotate: false,
      type: 'native',
    });
  });

  it('removes a row of a list field', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    renderWithI18n(
      <ApplicationForm
        onSave={onSave}
        defaults={{ name: 'x', redirectUris: ['https://a.example', 'https://b.example'] }}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Remove Redirect URI 1' }));
    expect(screen.queryByRole('button', { name: /^Remove/ })).toBeNull(); // The last row stays.
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave.mock.calls[0]?.[0]).toMatchObject({ redirectUris: ['https://b.example'] });
  });
});
