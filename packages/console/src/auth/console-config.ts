/** What the server publishes at /api/.well-known/console before anyone signs in. */
export type ConsoleConfig = {
  edition: 'oss' | 'cloud';
  version: string;
  adminExists: boolean;
  issuer: string;
  clientId: string;
  resource: string;
  meResource: string;
};

function isUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

const filled = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * Checked by hand, not with zod: the signed-out start (boot.ts) and the first page read it, and neither downloads the
 * validation library. Unknown fields are left out, as a schema would.
 */
export function parseConsoleConfig(body: unknown): ConsoleConfig {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const { edition, version, adminExists, issuer, clientId, resource, meResource } = value;
  if (
    (edition !== 'oss' && edition !== 'cloud') ||
    typeof version !== 'string' ||
    typeof adminExists !== 'boolean' ||
    !isUrl(issuer) ||
    !filled(clientId) ||
    !filled(resource) ||
    !filled(meResource)
  ) {
    throw new Error('console configuration: unexpected answer');
  }
  return { edition, version, adminExists, issuer, clientId, resource, meResource };
}

let cached: Promise<ConsoleConfig> | undefined;

export function loadConsoleConfig({ refresh = false } = {}): Promise<ConsoleConfig> {
  if (!cached || refresh) {
    cached = fetch('/api/.well-known/console', { headers: { Accept: 'application/json' } })
      .then((response) => {
        if (!response.ok) throw new Error(`console configuration: HTTP ${response.status}`);
        return response.json();
      })
      .then(parseConsoleConfig);
    cached.catch(() => {
      cached = undefined;
    });
  }
  return cached;
}
