import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import type { PaymentProvider } from './provider.ts';
import { SandboxPaymentProvider } from './sandbox.ts';

export type { PaymentEvent, PaymentProvider } from './provider.ts';

/** The provider named by PAYMENT_PROVIDER (default `sandbox`). */
export function createPaymentProvider(config: Pick<Config, 'publicUrl' | 'payments'>): PaymentProvider {
  // Without a configured secret, sandbox links and webhooks are signed with a key of this process only.
  const secret = config.payments.webhookSecret ?? randomBytes(32).toString('hex');
  switch (config.payments.provider) {
    case 'sandbox':
      return new SandboxPaymentProvider(config.publicUrl, secret);
  }
}
