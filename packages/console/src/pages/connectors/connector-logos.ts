import { Building2, FileKey2, type IconNode, KeyRound, Mail, MessageSquareText, Webhook } from 'lucide';
import { type SimpleIcon, siDiscord, siGithub, siGitlab, siGoogle, siMailgun, siOkta, siOpenid } from 'simple-icons';

/**
 * How a connector factory's logo file (`public/connectors/{name}.svg`, the factory's `logo` URL, shown by the console
 * and the sign-in page) is drawn: a brand's mark from simple-icons (CC0) on the brand's colour; or, where the kind is
 * no brand (SMTP, HTTP, plain OAuth 2.0) or simple-icons has no mark for it (Microsoft, Twilio, SendGrid and
 * Postmark are not in it), a generic lucide icon (ISC) on a colour of our choosing.
 */
export type LogoSource = { brand: SimpleIcon } | { generic: IconNode; colour: string };

/** One entry per logo file; `connector-logos.test.ts` writes the files from it and checks they match. */
export const connectorLogos = {
  discord: { brand: siDiscord },
  github: { brand: siGithub },
  gitlab: { brand: siGitlab },
  google: { brand: siGoogle },
  http: { generic: Webhook, colour: '#5c5c70' },
  mailgun: { brand: siMailgun },
  microsoft: { generic: Building2, colour: '#3a7bd5' },
  oauth2: { generic: KeyRound, colour: '#2f6f4f' },
  oidc: { brand: siOpenid },
  okta: { brand: siOkta },
  postmark: { generic: Mail, colour: '#8a6508' },
  saml: { generic: FileKey2, colour: '#6b3fa0' },
  sendgrid: { generic: Mail, colour: '#1a6fc0' },
  smtp: { generic: Mail, colour: '#2f6f9f' },
  twilio: { generic: MessageSquareText, colour: '#c8102e' },
} satisfies Record<string, LogoSource>;

export type ConnectorLogoName = keyof typeof connectorLogos;

/** Relative luminance of WCAG 2 for `#rrggbb`. */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((start) => Number.parseInt(hex.slice(start, start + 2), 16) / 255);
  const [r = 0, g = 0, b = 0] = channels.map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * White, as brands draw their mark on their colour, unless the tile is too light for it (under WCAG's 3:1 for
 * graphics): then black.
 */
export function markColour(tile: string): '#fff' | '#000' {
  return 1.05 / (luminance(tile) + 0.05) >= 3 ? '#fff' : '#000';
}

const escapeXml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

function shapes(icon: IconNode): string {
  return icon
    .map(([tag, attrs]) => {
      const list = Object.entries(attrs)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => ` ${key}="${escapeXml(String(value))}"`)
        .join('');
      return `<${tag}${list}/>`;
    })
    .join('');
}

/**
 * The logo file: a 40×40 rounded tile (the size the console shows it; the sign-in page scales it down) with the mark
 * in a 24×24 square in its middle, in white, or black on a light tile. The title names the file.
 */
export function connectorLogoSvg(name: string, source: LogoSource): string {
  const tile = 'brand' in source ? `#${source.brand.hex.toLowerCase()}` : source.colour;
  const ink = markColour(tile);
  const mark =
    'brand' in source
      ? `<path fill="${ink}" d="${source.brand.path}"/>`
      : `<g fill="none" stroke="${ink}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${shapes(source.generic)}</g>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><title>${escapeXml(name)}</title><rect width="40" height="40" rx="8" fill="${tile}"/><g transform="translate(8 8)">${mark}</g></svg>\n`;
}
