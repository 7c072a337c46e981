/**
 * The development pseudo-locale: every translated string comes out accented and bracketed ('[Ŝîĝñ õûţ ·]'), so text
 * that is still English and unbracketed on screen was never translated, and a layout that cuts the longer strings
 * shows where translations will not fit. Loaded only in development builds.
 */
const accents: Record<string, string> = {
  a: 'á',
  b: 'ƀ',
  c: 'ç',
  d: 'ð',
  e: 'é',
  f: 'ƒ',
  g: 'ĝ',
  h: 'ĥ',
  i: 'î',
  j: 'ĵ',
  k: 'ķ',
  l: 'ļ',
  m: 'ɱ',
  n: 'ñ',
  o: 'õ',
  p: 'þ',
  q: 'ǫ',
  r: 'ŕ',
  s: 'š',
  t: 'ţ',
  u: 'û',
  v: 'ṽ',
  w: 'ŵ',
  x: 'ẋ',
  y: 'ý',
  z: 'ž',
  A: 'Å',
  B: 'Ɓ',
  C: 'Ç',
  D: 'Ð',
  E: 'É',
  F: 'Ƒ',
  G: 'Ĝ',
  H: 'Ĥ',
  I: 'Î',
  J: 'Ĵ',
  K: 'Ķ',
  L: 'Ļ',
  M: 'Ṁ',
  N: 'Ñ',
  O: 'Õ',
  P: 'Þ',
  Q: 'Ǫ',
  R: 'Ŕ',
  S: 'Š',
  T: 'Ţ',
  U: 'Û',
  V: 'Ṽ',
  W: 'Ŵ',
  X: 'Ẋ',
  Y: 'Ý',
  Z: 'Ž',
};

/** Accents the letters outside `{{placeholders}}` and pads by about a third, as translations often run longer. */
export function pseudoTranslate(text: string): string {
  const accented = text
    .split(/(\{\{[^}]*\}\})/)
    .map((part) => (part.startsWith('{{') ? part : part.replace(/[A-Za-z]/g, (letter) => accents[letter] ?? letter)))
    .join('');
  const padding = '·'.repeat(Math.ceil(text.length / 3));
  return `[${accented} ${padding}]`;
}

function pseudoValue(value: unknown): unknown {
  if (typeof value === 'string') return pseudoTranslate(value);
  if (typeof value !== 'object' || value === null) return value;
  return pseudoResources(value);
}

/** Applies pseudoTranslate to every string of a namespace's resources. */
export function pseudoResources(resources: object): object {
  return Object.fromEntries(Object.entries(resources).map(([key, value]) => [key, pseudoValue(value)]));
}
