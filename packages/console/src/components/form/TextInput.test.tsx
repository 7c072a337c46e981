// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SearchBox } from '../Table/SearchBox.tsx';
import { renderWithI18n } from '../testing/render.tsx';
import { EmailChipInput } from './EmailChipInput.tsx';
import { FormField } from './FormField.tsx';
import { TextInput } from './TextInput.tsx';

// Issue 26: what users type (Latin names in an Arabic console, Arabic in an English one) takes its own direction,
// set once here in the kit's text controls rather than on each page's fields.
describe('text direction of typed text', () => {
  it('is automatic in text inputs, confidential ones too', () => {
    renderWithI18n(
      <>
        <FormField name="name" label={'Name'}>
          <TextInput />
        </FormField>
        <FormField name="secret" label={'Secret'}>
          <TextInput isConfidential />
        </FormField>
      </>,
    );
    expect(screen.getByRole('textbox', { name: 'Name' }).getAttribute('dir')).toBe('auto');
    expect(screen.getByLabelText('Secret').getAttribute('dir')).toBe('auto');
  });

  it('can still be fixed by a caller', () => {
    renderWithI18n(<TextInput aria-label={'Endpoint'} dir="ltr" />);
    expect(screen.getByRole('textbox', { name: 'Endpoint' }).getAttribute('dir')).toBe('ltr');
  });

  it('stays automatic when a caller passes an undefined dir (the user page fixes it for some fields only)', () => {
    renderWithI18n(<TextInput aria-label={'Given name'} dir={undefined} />);
    expect(screen.getByRole('textbox', { name: 'Given name' }).getAttribute('dir')).toBe('auto');
  });

  it('is automatic in the list search box', () => {
    renderWithI18n(<SearchBox defaultValue="" onSearch={() => undefined} />);
    expect(screen.getByRole('searchbox').getAttribute('dir')).toBe('auto');
  });

  it('is automatic in the email chip input and its chips', () => {
    renderWithI18n(
      <EmailChipInput
        aria-label={'Emails'}
        values={[{ id: 'c1', value: 'ada@example.com' }]}
        onChange={() => undefined}
      />,
    );
    expect(screen.getByRole('textbox', { name: 'Emails' }).getAttribute('dir')).toBe('auto');
    expect(screen.getByText('ada@example.com').getAttribute('dir')).toBe('auto');
  });
});
