import type { Context } from 'hono';
import type { z } from 'zod';
import type { Env } from '../interaction-context.ts';

/**
 * The browser's answer to a passkey request, as the sign-in script sends it (auth/sign-in-script.ts): JSON in the
 * form's `credential` field, bounded by the shared schema. Undefined when missing or malformed.
 */
export async function passkeyAnswer<Schema extends z.ZodType>(
  c: Context<Env>,
  schema: Schema,
): Promise<z.output<Schema> | undefined> {
  const body = await c.req.parseBody();
  const text = typeof body.credential === 'string' ? body.credential : '';
  if (!text || text.length > 100_000) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
