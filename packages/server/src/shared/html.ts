import type { Language } from '@gatehouse/schemas';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * The one way the server writes HTML (sign-in pages, sandbox payment pages, OIDC error page, HTML emails): the
 * `html` tag escapes every interpolated value unless it is already {@link SafeHtml}, so markup is escaped by
 * construction and a forgotten escape cannot happen. Values go between tags or inside quoted attributes; an unquoted
 * attribute value is refused when the template runs.
 */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const SPECIAL = /[&<>"']/g;

let wrap: (markup: string) => SafeHtml;

/** Markup that may be sent as it is: every piece of it was escaped or is trusted markup. Only this module makes one. */
export class SafeHtml {
  readonly #markup: string;
  private constructor(markup: string) {
    this.#markup = markup;
  }
  toString(): string {
    return this.#markup;
  }
  static {
    wrap = (markup) => new SafeHtml(markup);
  }
}

/** What a template takes: text and numbers (escaped), markup (as is), lists (joined); null, undefined and false are nothing. */
export type HtmlValue = SafeHtml | string | number | false | null | undefined | readonly HtmlValue[];

function markupOf(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.toString();
  if (Array.isArray(value)) return value.map(markupOf).join('');
  return String(value).replace(SPECIAL, (char) => ENTITIES[char] ?? char);
}

/** `name=${value}` without quotes: escaping cannot keep a space or `>` from ending the value there. */
const UNQUOTED_ATTRIBUTE = /\s[\w:-]+=$/;

/** The tagged template: html`<p class="error">${message}</p>`. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let markup = strings[0] ?? '';
  for (const [index, value] of values.entries()) {
    const before = strings[index] ?? '';
    if (UNQUOTED_ATTRIBUTE.test(before)) {
      throw new Error(`html: quote the attribute value after "${before.slice(-40)}"`);
    }
    markup += markupOf(value) + (strings[index + 1] ?? '');
  }
  return wrap(markup);
}

/**
 * The escape hatch, named to stand out in review: markup taken as it is. Only for constants of our own code (the
 * sign-out page's hashed script) and markup a trusted library made (oidc-provider's sign-out form); never for text
 * that came with a request, from the database or from a translation.
 */
export function dangerouslyTrustHtml(markup: string): SafeHtml {
  return wrap(markup);
}

export type PageOptions = {
  language: Language;
  /** The tab title and the page's heading. */
  title: string;
  /** Stylesheet files, in order: the CSP allows no inline style without the response's nonce, and pages need none. */
  stylesheet: string | readonly string[];
  /** Pages behind capability URLs (the sandbox payment pages) are kept out of search indexes. */
  noindex?: boolean;
  /** `data-theme` of the root element (sign-in pages): auto follows the system, light and dark force one. */
  theme?: 'auto' | 'light' | 'dark';
  /** The tab icon; the product's by default. */
  icon?: string | undefined;
  /** Above the heading (a logo). */
  header?: SafeHtml | undefined;
  /** Below the main content (support links, "powered by"). */
  footer?: SafeHtml | undefined;
  body: SafeHtml;
  /** Script files of our origin, deferred (the CSP allows no inline script). */
  scripts?: readonly string[] | undefined;
};

/** The frame every server-rendered page shares: language, direction, icon, stylesheet, a main landmark, the heading. */
export function page({
  language,
  title,
  stylesheet,
  noindex = false,
  theme,
  icon,
  header,
  footer,
  body,
  scripts = [],
}: PageOptions): SafeHtml {
  const dir = language === 'ar' ? 'rtl' : 'ltr';
  const stylesheets = typeof stylesheet === 'string' ? [stylesheet] : stylesheet;
  return html`<!doctype html>
<html lang="${language}" dir="${dir}"${theme && html` data-theme="${theme}"`}>
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${noindex && html`<meta name="robots" content="noindex">`}<title>${title}</title>
${icon ? html`<link rel="icon" href="${icon}">` : html`<link rel="icon" type="image/svg+xml" href="/console/favicon.svg">`}${stylesheets.map((href) => html`<link rel="stylesheet" href="${href}">`)}${scripts.map((src) => html`<script src="${src}" defer></script>`)}</head>
<body><main>
${header ?? ''}<h1>${title}</h1>
${body}
</main>${footer ?? ''}</body></html>`;
}

/**
 * Answers with a page. The security-headers middleware has already set the CSP: script only from files of our own
 * origin, inline style only with the response's nonce (`c.get('secureHeadersNonce')`), which no page uses today.
 */
export function sendHtml(c: Context, markup: SafeHtml, status?: ContentfulStatusCode): Response {
  return c.html(markup.toString(), status);
}
