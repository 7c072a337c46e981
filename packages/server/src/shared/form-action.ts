/**
 * Chromium applies a page's CSP `form-action` to the redirects that follow a form submission, not only to the form's
 * own target. The sign-in and sign-out forms post to the server ('self'), whose answer redirects to the application's
 * registered redirect URI; with `form-action 'self'` alone, signing in to an application on another origin would
 * stop at that redirect. These helpers add exactly the one destination of the flow at hand.
 */

/** The CSP source for a redirect URI: its origin for http(s), its scheme for a native app's custom scheme. */
export function formActionSource(redirectUri: unknown): string | undefined {
  if (typeof redirectUri !== 'string' || redirectUri === '') return undefined;
  try {
    const url = new URL(redirectUri);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
    // A custom scheme (com.example.app:/callback): CSP matches it by scheme source.
    return /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol) ? url.protocol : undefined;
  } catch {
    return undefined;
  }
}

/** `policy` with `source` added to its `form-action` directive (unchanged without a source or a directive). */
export function withFormActionSource(policy: string, source: string | undefined): string {
  if (!source) return policy;
  return policy.replace(/(^|;\s*)form-action ([^;]*)/, (_match, start: string, sources: string) =>
    sources.split(/\s+/).includes(source)
      ? `${start}form-action ${sources}`
      : `${start}form-action ${sources} ${source}`,
  );
}

/**
 * `policy` with `sources` added to `directive`: appended when the directive is there, else the directive is added with
 * `'self'` and them (what `default-src 'self'` allowed before). For the origins a captcha widget loads from.
 */
export function withCspSources(policy: string, directive: string, sources: readonly string[]): string {
  if (sources.length === 0) return policy;
  const pattern = new RegExp(`(^|;\\s*)${directive} ([^;]*)`);
  if (!pattern.test(policy)) return `${policy}; ${directive} 'self' ${sources.join(' ')}`;
  return policy.replace(pattern, (_match, start: string, existing: string) => {
    const present = existing.split(/\s+/);
    return `${start}${directive} ${[...present, ...sources.filter((source) => !present.includes(source))].join(' ')}`;
  });
}
