// @vitest-environment happy-dom
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithI18n } from '../testing/render.tsx';
import { Avatar } from './Avatar.tsx';
import { avatarColorIndex, avatarLetter, avatarPaletteSize } from './avatar-letter.ts';

describe('avatar letter and colour (spec §3, §9)', () => {
  it('has a palette of 12 colours', () => {
    expect(avatarPaletteSize).toBe(12);
  });

  it.each([
    ['A', 65 % 12], // 5
    ['J', 74 % 12], // 2
    ['Z', 90 % 12], // 6
    ['7', 55 % 12], // 7
    ['张', 0x5f20 % 12],
  ])('gives %s the colour at its code point modulo 12 (%i)', (letter, index) => {
    expect(avatarColorIndex(letter)).toBe(index);
  });

  it('takes the uppercased first letter of name, else username, else email', () => {
    expect(avatarLetter('ada', 'lovelace', 'a@b.co')).toBe('A');
    expect(avatarLetter('  ', 'bob', 'a@b.co')).toBe('B');
    expect(avatarLetter(null, undefined, 'carol@example.com')).toBe('C');
    expect(avatarLetter(null, null, null)).toBeUndefined();
    expect(avatarLetter('😀 smile')).toBe('😀'); // A whole code point, not half a surrogate pair.
  });
});

describe('Avatar', () => {
  it('shows the image when there is one', () => {
    renderWithI18n(<Avatar src="https://cdn.example/ada.png" name="Ada" />);
    expect(screen.getByRole('img', { name: 'Ada' }).getAttribute('src')).toBe('https://cdn.example/ada.png');
  });

  it('falls back to the generic placeholder when the image fails to load', () => {
    renderWithI18n(<Avatar src="https://cdn.example/broken.png" name="Ada" />);
    fireEvent.error(screen.getByRole('img', { name: 'Ada' }));
    expect(screen.getByTestId('avatar-placeholder').getAttribute('aria-label')).toBe('Ada');
    expect(screen.queryByText('A')).toBeNull();
  });

  it('shows the initial on the palette colour of its letter without an image', () => {
    renderWithI18n(<Avatar username="jdoe" email="j@example.com" />);
    const avatar = screen.getByRole('img', { name: 'jdoe' });
    expect(avatar.textContent).toBe('J');
    expect(avatar.getAttribute('data-color-index')).toBe(String(74 % 12));
  });

  it('shows the placeholder with a translated name when nothing identifies the user', () => {
    renderWithI18n(<Avatar />);
    expect(screen.getByRole('img', { name: 'Avatar' })).toBe(screen.getByTestId('avatar-placeholder'));
  });
});
