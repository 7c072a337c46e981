// @vitest-environment happy-dom
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithI18n } from '../testing/render.tsx';
import { CardRadio } from './CardRadio.tsx';
import { FormField } from './FormField.tsx';
import { NumberInput } from './NumberInput.tsx';
import { Switch } from './Switch.tsx';
import { TextInput } from './TextInput.tsx';

describe('FormField', () => {
  it('labels its control and links the description and the error to it', () => {
    renderWithI18n(
      <FormField name="name" label={'Name'} description={'Shown to users'} error={'Required'} isRequired>
        <TextInput />
      </FormField>,
    );
    const input = screen.getByRole('textbox', { name: /Name/ });
    expect(input).toBe(screen.getByTestId('name'));
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-required')).toBe('true');
    const describedBy = (input.getAttribute('aria-describedby') ?? '').split(' ');
    const texts = describedBy.map((id) => document.getElementById(id)?.textContent);
    expect(texts).toEqual(['Shown to users', 'Required']);
    expect(screen.getByTestId('name-error').textContent).toBe('Required');
  });

  it('shows a note under the control and links it between the description and the error', () => {
    renderWithI18n(
      <FormField name="secret" label={'Secret'} description={'Kept masked'} note={'Type it again'} error={'Required'}>
        <TextInput />
      </FormField>,
    );
    const input = screen.getByRole('textbox', { name: 'Secret' });
    const texts = (input.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);
    expect(texts).toEqual(['Kept masked', 'Type it again', 'Required']);
    expect(screen.getByTestId('secret-note').textContent).toBe('Type it again');
  });

  it('leaves a valid control unmarked', () => {
    renderWithI18n(
      <FormField name="description" label={'Description'}>
        <TextInput />
      </FormField>,
    );
    const input = screen.getByRole('textbox', { name: 'Description' });
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(input.hasAttribute('aria-describedby')).toBe(false);
  });

  it('names a radio-card group by the field label', () => {
    function Choice() {
      const [value, setValue] = useState<'spa' | 'native'>('spa');
      return (
        <FormField name="type" label={'Application type'} isGroup>
          <CardRadio
            value={value}
            onChange={setValue}
            options={[
              { value: 'spa', title: 'SPA' },
              { value: 'native', title: 'Native' },
            ]}
          />
        </FormField>
      );
    }
    renderWithI18n(<Choice />);
    expect(screen.getByRole('radiogroup', { name: 'Application type' })).toBe(screen.getByTestId('type'));
    fireEvent.click(screen.getByRole('radio', { name: 'Native' }));
    expect(screen.getByRole('radio', { name: 'Native' })).toHaveProperty('checked', true);
    expect(screen.getByRole('radio', { name: 'SPA' })).toHaveProperty('checked', false);
  });
});

describe('TextInput', () => {
  it('masks a confidential value until the show button is pressed', async () => {
    const user = userEvent.setup();
    renderWithI18n(
      <FormField name="secret" label={'Secret'}>
        <TextInput isConfidential defaultValue="s3cr3t" />
      </FormField>,
    );
    const input = screen.getByLabelText('Secret');
    expect(input.getAttribute('type')).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Show value' }));
    expect(input.getAttribute('type')).toBe('text');
    await user.click(screen.getByRole('button', { name: 'Hide value' }));
    expect(input.getAttribute('type')).toBe('password');
    expect((input as HTMLInputElement).value).toBe('s3cr3t');
  });
});

describe('NumberInput', () => {
  it('lets go of the focus on a wheel turn, so the browser cannot step the value', () => {
    renderWithI18n(
      <FormField name="ttl" label={'Token lifetime'}>
        <NumberInput defaultValue={3600} />
      </FormField>,
    );
    const input = screen.getByRole('spinbutton', { name: 'Token lifetime' }) as HTMLInputElement;
    input.focus();
    expect(document.activeElement).toBe(input);
    fireEvent.wheel(input, { deltaY: -100 });
    expect(document.activeElement).not.toBe(input);
    expect(input.value).toBe('3600');
  });
});

describe('Switch', () => {
  it('is a switch that Space toggles', async () => {
    const user = userEvent.setup();
    renderWithI18n(<Switch label={'Enabled'} />);
    const control = screen.getByRole('switch', { name: 'Enabled' });
    control.focus();
    await user.keyboard(' ');
    expect(control).toHaveProperty('checked', true);
  });
});
