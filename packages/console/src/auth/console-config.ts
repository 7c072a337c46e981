import { z } from 'zod';

/** What the server publishes at /api/.well-known/console before anyone signs in. */
const consoleConfigSchema = z.object({
  edition: z.enum(['oss', 'cloud']),
  version: z.string(),
  adminExists: z.boolean(),
  issuer: z.url(),
  clientId: z.string().min(1),
  resource: z.string().min(1),
  meResource: z.string().min(1),
});
export type ConsoleConfig = z.infer<typeof consoleConfigSchema>;

let cached: Promise<ConsoleConfig> | undefined;

export function loadConsoleConfig({ refresh = false } = {}): Promise<ConsoleConfig> {
  if (!cached || refresh) {
    cached = fetch('/api/.well-known/console', { headers: { Accept: 'application/json' } })
      .then((response) => {
        if (!response.ok) throw new Error(`console configuration: HTTP ${response.status}`);
        return response.json();
      })
      .then((body) => consoleConfigSchema.parse(body));
    cached.catch(() => {
      cached = undefined;
    });
  }
  return cached;
}
