// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithI18n } from '../testing/render.tsx';
import { CardRadio } from './CardRadio.tsx';

const described = [
  { value: 'spa', title: 'Single-page app', description: 'A web app that runs in the browser and keeps no secret.' },
  { value: 'native', title: 'Native app', description: 'A mobile or desktop app that signs in through the browser.' },
] as const;
const short = [
  { value: 'generate', title: 'Generate one' },
  { value: 'set', title: 'Set one' },
] as const;

function columnsOf(name: string): string {
  return getComputedStyle(screen.getByRole('radiogroup', { name })).gridTemplateColumns;
}

// happy-dom has no layout: this checks the grid the cards are laid out on; the applications and MFA e2e specs measure
// the descriptions' lines at 1440 px.
describe('CardRadio layout (issue 40, item 7)', () => {
  it('gives options with a description columns of at least 24rem, so a description takes about three lines', () => {
    renderWithI18n(<CardRadio aria-label={'Type'} options={described} value={undefined} onChange={() => {}} />);
    expect(columnsOf('Type')).toContain('24rem');
    expect(columnsOf('Type')).toContain('min(100%');
  });

  it('keeps short options (a title alone) in narrower columns', () => {
    renderWithI18n(<CardRadio aria-label={'Password'} options={short} value={undefined} onChange={() => {}} />);
    expect(columnsOf('Password')).toContain('12rem');
  });
});
