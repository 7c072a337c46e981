import {
  type ConnectorFactory,
  DomainError,
  type ErrorCode,
  type Language,
  type TemplateUsage,
} from '@gatehouse/schemas';
import type { fetch as undiciFetch } from 'undici';
import { excerpt, networkFailure } from '../outbound.ts';

/** A message the product sends through a connector, already rendered for its usage and language. */
export type OutgoingMessage = {
  to: string;
  usage: TemplateUsage;
  language: Language;
  subject: string;
  text: string;
  /** Email only: the HTML part. */
  html?: string | undefined;
};

/**
 * What a connector may use when it sends, under the outbound policy (tenants choose the addresses): `fetch` for HTTP
 * APIs, and `address` for other protocols (SMTP), which gives the address to connect to for a host name or refuses it.
 */
export type SendContext = {
  fetch: typeof undiciFetch;
  address: (hostname: string) => Promise<string>;
  timeoutMs: number;
};

/** An email or SMS connector: its factory (metadata and config form) and how it sends. */
export type SenderModule = {
  factory: ConnectorFactory & { type: 'Email' | 'Sms' };
  send: (config: Record<string, unknown>, message: OutgoingMessage, context: SendContext) => Promise<void>;
};

/** A connector failure, with the spec §8 code the API answers (400) and the provider's words for the log. */
export class ConnectorError extends DomainError {
  readonly detail: string;
  constructor(code: ErrorCode & `connector.${string}`, detail: string) {
    super('invalid', code, { detail });
    this.detail = detail;
  }
}

/** Maps a provider's HTTP answer to a connector error (or nothing for success). */
export async function checkProviderResponse(response: { ok: boolean; status: number; text: () => Promise<string> }) {
  if (response.ok) return;
  const body = excerpt(await response.text().catch(() => ''));
  const detail = `HTTP ${response.status}${body ? `: ${body}` : ''}`;
  if (response.status === 429) throw new ConnectorError('connector.rate_limit_exceeded', detail);
  if (response.status === 401 || response.status === 403) throw new ConnectorError('connector.invalid_config', detail);
  if (response.status >= 400 && response.status < 500) {
    throw new ConnectorError('connector.invalid_request_parameters', detail);
  }
  throw new ConnectorError('connector.invalid_response', detail);
}

/** Text and boolean config values, read once the config passed its schema. */
export const text = (config: Record<string, unknown>, key: string): string =>
  typeof config[key] === 'string' ? (config[key] as string) : '';
export const flag = (config: Record<string, unknown>, key: string): boolean => config[key] === true;
export const num = (config: Record<string, unknown>, key: string, fallback: number): number =>
  typeof config[key] === 'number' ? (config[key] as number) : fallback;

/** One POST to a provider's API under the outbound policy and the timeout; its refusal as a connector error. */
export async function postToProvider(
  context: SendContext,
  url: string,
  request: { headers: Record<string, string>; body: string },
): Promise<void> {
  let response: Awaited<ReturnType<SendContext['fetch']>>;
  try {
    response = await context.fetch(url, {
      method: 'POST',
      ...request,
      redirect: 'manual',
      signal: AbortSignal.timeout(context.timeoutMs),
    });
  } catch (error) {
    // Refused by the outbound policy, refused by the host, no such name, timed out: the admin's to fix, said in
    // the words of the cause (undici wraps it in "fetch failed").
    throw new ConnectorError('connector.general', networkFailure(error));
  }
  await checkProviderResponse(response);
}
