import { createHash } from 'node:crypto';
import type { SignInExperienceSettings } from '@gatehouse/schemas';

/**
 * The CSS of a tenant's sign-in pages: its colours as custom properties, then its custom CSS. Served as a file
 * (`/interaction/{tenantId}/theme.css`), because the pages' CSP allows style only from files of our origin; custom
 * CSS can restyle the page but never run script, and `@import` or fonts from elsewhere are refused by the same CSP.
 */

type Rgb = [number, number, number];

function rgbOf(hex: string): Rgb {
  const digits = hex.slice(1);
  const full = digits.length === 3 ? [...digits].map((digit) => digit + digit).join('') : digits;
  return [0, 2, 4].map((at) => Number.parseInt(full.slice(at, at + 2), 16)) as Rgb;
}

const hexOf = (rgb: Rgb) => `#${rgb.map((part) => Math.round(part).toString(16).padStart(2, '0')).join('')}`;

/** WCAG 2 relative luminance. */
function luminance([r, g, b]: Rgb): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrastRatio(a: string, b: string): number {
  const [high, low] = [luminance(rgbOf(a)), luminance(rgbOf(b))].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

/** Black or white text, whichever reads better on `background` (one of them always reaches 4.5:1). */
export function textOn(background: string): string {
  return contrastRatio(background, '#ffffff') >= contrastRatio(background, '#111111') ? '#ffffff' : '#111111';
}

/**
 * The brand colour as link and focus colour on a card: mixed toward black (light card) or white (dark card) just
 * enough to reach 4.5:1, so a pale yellow brand still gives readable links. An admin's colour never makes text fail
 * WCAG AA.
 */
export function readableOn(color: string, card: string, minimum = 4.5): string {
  const base = rgbOf(color);
  const target: Rgb = luminance(rgbOf(card)) > 0.5 ? [0, 0, 0] : [255, 255, 255];
  for (let step = 0; step <= 20; step++) {
    const mixed = base.map((part, index) => part + ((target[index] ?? 0) - part) * (step / 20)) as Rgb;
    const candidate = hexOf(mixed);
    if (contrastRatio(candidate, card) >= minimum) return candidate;
  }
  return hexOf(target);
}

/** The card colours of the base stylesheet (`sign-in-page.ts`), light and dark. */
export const CARD = { light: '#ffffff', dark: '#1e1e28' } as const;

const variables = (primary: string, card: string) =>
  `--primary:${primary};--on-primary:${textOn(primary)};--link:${readableOn(primary, card)}`;

export type ThemeColors = Pick<SignInExperienceSettings['color'], 'primaryColor' | 'darkPrimaryColor'>;

export function themeStylesheet(color: ThemeColors, customCss: string | null | undefined): string {
  const light = variables(color.primaryColor, CARD.light);
  const dark = variables(color.darkPrimaryColor, CARD.dark);
  return [
    `:root{${light}}`,
    `:root[data-theme=dark]{${dark}}`,
    `@media (prefers-color-scheme:dark){:root:not([data-theme=light]){${dark}}}`,
    customCss ? `/* custom CSS */\n${customCss}` : '',
  ].join('\n');
}

/** A short fingerprint of a stylesheet, for its URL: the file can be cached for long and changes with the settings. */
export const stylesheetVersion = (css: string) => createHash('sha256').update(css).digest('base64url').slice(0, 12);
