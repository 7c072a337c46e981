import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config.ts';

export type EmailMessage = { to: string; subject: string; text: string; html: string };

export type SendResult =
  | { sent: true; messageId: string; durationMs: number }
  | { sent: false; error: string; permanent: boolean; durationMs: number };

/** A send that cannot happen: SMTP is not configured (SMTP_URL unset). */
export class EmailNotConfiguredError extends Error {}

const SMTP_TIMEOUT_MS = 15_000;

/**
 * Outgoing email over SMTP (nodemailer), configured by `SMTP_URL` and `EMAIL_FROM`. Without
 * `SMTP_URL` the service is disabled: {@link EmailService.configured} is false and the mail
 * worker records messages as not sent instead of retrying them.
 */
export class EmailService {
  readonly #transport: Transporter | undefined;
  readonly #from: string;

  constructor(smtp: Config['smtp']) {
    this.#from = smtp?.from ?? '';
    this.#transport = smtp
      ? nodemailer.createTransport({
          url: smtp.url,
          connectionTimeout: SMTP_TIMEOUT_MS,
          greetingTimeout: SMTP_TIMEOUT_MS,
          socketTimeout: SMTP_TIMEOUT_MS,
        } as Parameters<typeof nodemailer.createTransport>[0])
      : undefined;
  }

  get configured(): boolean {
    return this.#transport !== undefined;
  }

  /** One attempt. A 5xx SMTP reply (e.g. unknown recipient) is permanent; the rest may be retried. */
  async send(message: EmailMessage): Promise<SendResult> {
    if (!this.#transport) throw new EmailNotConfiguredError('SMTP_URL is not set');
    const started = performance.now();
    try {
      const info = await this.#transport.sendMail({ from: this.#from, ...message });
      return {
        sent: true,
        messageId: String(info.messageId ?? ''),
        durationMs: Math.round(performance.now() - started),
      };
    } catch (error) {
      const code = (error as { responseCode?: unknown }).responseCode;
      return {
        sent: false,
        error: error instanceof Error ? error.message : String(error),
        permanent: typeof code === 'number' && code >= 500 && code < 600,
        durationMs: Math.round(performance.now() - started),
      };
    }
  }

  close(): void {
    this.#transport?.close();
  }
}
