import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Language, languages } from '@gatehouse/schemas';
import { sourceDir } from '../source-dir.ts';

export const sandboxPaymentKeys = [
  'checkout_title',
  'test_mode',
  'tenant',
  'new_tenant',
  'plan',
  'price',
  'per_month',
  'pay',
  'cancel',
  'error_title',
  'portal_title',
  'current_plan',
  'status',
  'invoices',
  'no_invoices',
  'simulate_title',
  'simulate_hint',
  'simulate_failed_renewal',
  'period',
  'amount',
  'back',
  'link_invalid',
  'status_active',
  'status_past_due',
  'status_canceled',
  'invoice_draft',
  'invoice_open',
  'invoice_paid',
  'invoice_void',
  'invoice_uncollectible',
] as const;
export type SandboxPaymentKey = (typeof sandboxPaymentKeys)[number];

/** Strings of the sandbox payment provider's pages, per language (a unit test checks completeness). */
export const sandboxPaymentStrings = Object.fromEntries(
  languages.map((language) => [
    language,
    JSON.parse(readFileSync(join(sourceDir, 'i18n', 'sandbox-payments', `${language}.json`), 'utf8')) as Record<
      SandboxPaymentKey,
      string
    >,
  ]),
) as Record<Language, Record<SandboxPaymentKey, string>>;

export function sandboxPaymentText(
  language: Language,
  key: SandboxPaymentKey,
  values: Record<string, string | number> = {},
): string {
  const template = sandboxPaymentStrings[language][key] ?? sandboxPaymentStrings.en[key];
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`));
}
