// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { FormField } from '../form/FormField.tsx';
import { renderWithI18n } from '../testing/render.tsx';
import { CodeEditor } from './CodeEditor.tsx';

function Controlled({ initial }: { initial: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <FormField name="script" label={'Script'} error={'Bad JSON'}>
        <CodeEditor value={value} onChange={setValue} language="json" />
      </FormField>
      <button type="button" onClick={() => setValue('{"b": 2}')}>
        {'Replace'}
      </button>
    </>
  );
}

describe('CodeEditor', () => {
  it('shows a loading state, then the editor named by its field, with the value', async () => {
    renderWithI18n(<Controlled initial={'{"a": 1}'} />);
    expect(screen.getByRole('status').textContent).toBe('Loading editor…');
    const editor = await screen.findByRole('textbox', { name: 'Script' });
    expect(editor.textContent).toContain('"a": 1');
    expect(editor.getAttribute('aria-invalid')).toBe('true');
    expect(editor.getAttribute('aria-describedby')).toBeTruthy();
    expect(editor.getAttribute('data-testid')).toBe('script');
  });

  it('follows a new value from outside', async () => {
    renderWithI18n(<Controlled initial={'{"a": 1}'} />);
    const editor = await screen.findByRole('textbox', { name: 'Script' });
    screen.getByRole('button', { name: 'Replace' }).click();
    await waitFor(() => expect(editor.textContent).toContain('"b": 2'));
  });

  it('is not editable when read-only', async () => {
    renderWithI18n(<CodeEditor value={'x'} isReadOnly aria-label={'Output'} />);
    const editor = await screen.findByRole('textbox', { name: 'Output' });
    expect(editor.getAttribute('contenteditable')).toBe('false');
  });
});
