import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../shared/app-env.ts';
import { ApiError } from './errors.ts';

/**
 * JSON bodies may nest this deep, no deeper: custom data, profiles and configs need a few levels, and recursive code
 * (validation, diffs for the audit log) must never meet a stack-exhausting document.
 */
export const MAX_JSON_DEPTH = 64;

export type InputProblem = 'nul_character' | 'lone_surrogate' | 'too_deep' | 'malformed_url';

const refuse = (problem: InputProblem) => new ApiError(400, 'guard.invalid_input', { problem });

/**
 * What PostgreSQL cannot store, or what would exhaust the stack, in a JSON text: a NUL character (raw or escaped; text
 * and jsonb refuse it), a UTF-16 surrogate escape without its pair (jsonb refuses it), and nesting deeper than
 * {@link MAX_JSON_DEPTH}. One pass over the text, before it is parsed; malformed JSON is left to the parser.
 */
export function jsonInputProblem(text: string): InputProblem | undefined {
  let depth = 0;
  let inString = false;
  /** A high surrogate escape was just read: only a low surrogate escape may follow. */
  let pendingHigh = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 0) return 'nul_character';
    if (inString) {
      if (code === 0x5c /* \ */) {
        const escaped = text.charCodeAt(i + 1);
        if (escaped === 0x75 /* u */) {
          const unit = Number.parseInt(text.slice(i + 2, i + 6), 16);
          i += 5;
          if (unit === 0) return 'nul_character';
          const high = unit >= 0xd800 && unit <= 0xdbff;
          const low = unit >= 0xdc00 && unit <= 0xdfff;
          if (low && !pendingHigh) return 'lone_surrogate';
          if (pendingHigh && !low) return 'lone_surrogate';
          pendingHigh = high;
          continue;
        }
        i += 1;
      } else if (code === 0x22 /* " */) {
        inString = false;
      } else if (code >= 0xd800 && code <= 0xdfff) {
        // Raw surrogates cannot come out of UTF-8 decoding, but a caller may hand us any string.
        const next = text.charCodeAt(i + 1);
        if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return 'lone_surrogate';
        i += 1;
      }
      if (pendingHigh) return 'lone_surrogate';
      continue;
    }
    if (pendingHigh) return 'lone_surrogate';
    if (code === 0x22) inString = true;
    else if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
      depth += 1;
      if (depth > MAX_JSON_DEPTH) return 'too_deep';
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) depth -= 1;
  }
  return pendingHigh ? 'lone_surrogate' : undefined;
}

/** A NUL in the path or a query value, or a percent escape that does not decode. */
export function urlInputProblem(rawUrl: string): InputProblem | undefined {
  // A request line cannot carry a raw NUL: only a percent escape can, so most URLs need no parsing (the read path).
  if (!rawUrl.includes('%')) return undefined;
  const url = new URL(rawUrl);
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return 'malformed_url';
  }
  if (path.includes('\u0000')) return 'nul_character';
  for (const [name, value] of url.searchParams) {
    if (name.includes('\u0000') || value.includes('\u0000')) return 'nul_character';
  }
  return undefined;
}

/**
 * Refuses input the database cannot store, before any route sees it: 400 `guard.invalid_input` with the problem in
 * `data`, instead of a 500 from the driver or the stack. Runs after the body limit, on the API's requests; the JSON
 * text it reads is cached by Hono for the route's own parsing.
 */
export const inputGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  const inUrl = urlInputProblem(c.req.url);
  if (inUrl) throw refuse(inUrl);
  const type = c.req.header('Content-Type') ?? '';
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && /json/i.test(type)) {
    const inBody = jsonInputProblem(await c.req.text());
    if (inBody) throw refuse(inBody);
  }
  await next();
};

/** A NUL character in a field of a parsed form (`application/x-www-form-urlencoded` or multipart). */
export function formInputProblem(form: Record<string, unknown>): InputProblem | undefined {
  for (const [name, value] of Object.entries(form)) {
    const values = Array.isArray(value) ? value : [value];
    if (name.includes('\u0000') || values.some((item) => typeof item === 'string' && item.includes('\u0000'))) {
      return 'nul_character';
    }
  }
  return undefined;
}

/**
 * The same guard for the pages end users see (sign-in pages, identity providers' callbacks): the URL and a posted
 * form. What it refuses is answered by `refused` (a page in the user's language), never a 500.
 */
export const pageInputGuard =
  <E extends AppEnv>(
    refused: (c: Parameters<MiddlewareHandler<E>>[0]) => Response | Promise<Response>,
  ): MiddlewareHandler<E> =>
  async (c, next) => {
    let problem = urlInputProblem(c.req.url);
    const type = c.req.header('Content-Type') ?? '';
    if (!problem && c.req.method === 'POST' && /form-urlencoded|multipart\/form-data/i.test(type)) {
      // Parsed as the steps parse it (Hono keeps the first parse for them).
      problem = formInputProblem(await c.req.parseBody().catch(() => ({})));
    }
    if (problem) return refused(c);
    await next();
  };
