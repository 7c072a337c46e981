/** Spec §9: the avatar palette has 12 colours (classes color0…color11 in Avatar.module.css). */
export const avatarPaletteSize = 12;

/** Spec §3: the uppercased first letter of the name, else the username, else the email. */
export function avatarLetter(...candidates: ReadonlyArray<string | null | undefined>): string | undefined {
  const source = candidates.map((candidate) => candidate?.trim()).find(Boolean);
  // Array.from splits by code point, so a name starting with an emoji or a CJK extension character stays whole.
  const first = source ? Array.from(source)[0] : undefined;
  return first?.toLocaleUpperCase();
}

/** The palette colour for a letter: its code point modulo the palette size, so a person keeps their colour. */
export function avatarColorIndex(letter: string): number {
  return (letter.codePointAt(0) ?? 0) % avatarPaletteSize;
}
