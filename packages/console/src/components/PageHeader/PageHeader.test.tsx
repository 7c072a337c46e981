// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithI18n } from '../testing/render.tsx';
import { PageHeader } from './PageHeader.tsx';

const longSubtitle = [
  'The APIs your applications call with access tokens from this tenant:',
  'their identifiers, permissions and token lifetimes.',
].join(' ');

// happy-dom has no layout: this checks the flex rules that place the action; shell.spec.ts measures every list page.
describe('PageHeader (issue 40, item 6)', () => {
  it('keeps the primary action at the end of the title line however long the subtitle is', () => {
    renderWithI18n(
      <PageHeader
        title={'API resources'}
        subtitle={longSubtitle}
        actions={<button type="button">{'Create'}</button>}
      />,
    );
    const heading = screen.getByRole('heading', { level: 1, name: 'API resources' });
    const text = heading.parentElement as HTMLElement;
    const actions = screen.getByRole('button', { name: 'Create' }).parentElement as HTMLElement;
    expect(text.contains(screen.getByText(longSubtitle))).toBe(true);
    // The text's share of the line is a fixed basis that grows, not its whole width (a long subtitle's width pushed
    // the actions onto a line of their own, at the start).
    const textStyle = getComputedStyle(text);
    expect(textStyle.flexBasis).toBe('20rem');
    expect(textStyle.flexGrow).toBe('1');
    expect(Number.parseFloat(textStyle.minWidth)).toBe(0);
    // At the end of the line, also when it wraps under the text on a phone.
    expect(getComputedStyle(actions).marginInlineStart).toBe('auto');
    expect(getComputedStyle(text.parentElement as HTMLElement).alignItems).toBe('flex-start');
  });
});
