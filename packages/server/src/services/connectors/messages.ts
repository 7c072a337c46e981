import { type MessageTemplate, messageTemplateSchema, type TemplateUsage } from '@gatehouse/schemas';
import { z } from 'zod';
import { html } from '../../shared/html.ts';

/**
 * A connector's own template for a usage (or its Generic one), filled with the message's values: `{{code}}`,
 * `{{link}}`, `{{organization}}`, `{{inviter}}`, `{{minutes}}`… Values are HTML-escaped in an HTML template. Without a
 * template the product's own message (translated, spec §3 default templates) is sent.
 */

/** A value in an HTML template goes through the server's one escaping path (shared/html.ts). */
const escapeHtml = (value: string) => html`${value}`.toString();

export const fillTemplate = (template: string, values: Readonly<Record<string, string>>, html = false) =>
  template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) return whole;
    return html ? escapeHtml(value) : value;
  });

export function templateFor(config: Record<string, unknown>, usage: TemplateUsage): MessageTemplate | undefined {
  const parsed = z.array(messageTemplateSchema).safeParse(config.templates ?? []);
  if (!parsed.success) return undefined;
  return parsed.data.find((t) => t.usageType === usage) ?? parsed.data.find((t) => t.usageType === 'Generic');
}

export type BuiltInMessage = { subject: string; text: string; html?: string | undefined };

/** The message a connector sends: its template when it has one for the usage, else the built-in one. */
export function messageFor(
  config: Record<string, unknown>,
  usage: TemplateUsage,
  values: Readonly<Record<string, string>>,
  builtIn: BuiltInMessage,
): BuiltInMessage {
  const template = templateFor(config, usage);
  if (!template) return builtIn;
  const html = template.type === 'text/html';
  const content = fillTemplate(template.content, values, html);
  return {
    subject: template.subject ? fillTemplate(template.subject, values) : builtIn.subject,
    text: html ? builtIn.text : content,
    html: html ? content : undefined,
  };
}
