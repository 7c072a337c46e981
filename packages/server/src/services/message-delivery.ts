import type { Language, TemplateUsage } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { connectors } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { type BuiltInMessage, messageFor } from './connectors/messages.ts';
import { senderModule } from './connectors/registry.ts';
import { ConnectorError, type SendContext } from './connectors/types.ts';
import type { EmailService, SendResult } from './email.ts';
import { type OutboundPolicy, outboundAddress, outboundFetch } from './outbound.ts';

/** A provider's API must answer within this. */
const CONNECTOR_TIMEOUT_MS = 15_000;

export type MessageToSend = {
  to: string;
  usage: TemplateUsage;
  language: Language;
  /** The values a connector template may use (`{{code}}`…). */
  values: Readonly<Record<string, string>>;
  /** The product's own message, translated: sent when the connector has no template for the usage. */
  builtIn: BuiltInMessage;
};

/**
 * The one way the product sends a message to a person (issue 21): email through the tenant's email connector when it
 * has one, else the system mail service (`SMTP_URL`); SMS through the tenant's SMS connector. Connectors reach their
 * providers under the outbound policy, like webhooks.
 */
export class MessageDelivery {
  readonly #email: EmailService;
  readonly #outbound: OutboundPolicy;

  constructor(email: EmailService, outbound: OutboundPolicy) {
    this.#email = email;
    this.#outbound = outbound;
  }

  /** Every connector reaches its provider under the outbound policy, whatever the protocol (issue 39 item 1). */
  #sendContext(): SendContext {
    return {
      fetch: outboundFetch(this.#outbound),
      address: outboundAddress(this.#outbound),
      timeoutMs: CONNECTOR_TIMEOUT_MS,
    };
  }

  #connectorOf(tenant: TenantDb, type: 'Email' | 'Sms') {
    return tenant.findOne(connectors, eq(connectors.type, type));
  }

  /** Who can send codes for this tenant: email (its connector or SMTP) and SMS (its connector). */
  async senders(tenant: TenantDb): Promise<{ email: boolean; sms: boolean }> {
    const rows = await tenant.findMany(connectors, {});
    return {
      email: this.#email.configured || rows.some((row) => row.type === 'Email'),
      sms: rows.some((row) => row.type === 'Sms'),
    };
  }

  async sendEmail(tenant: TenantDb, message: MessageToSend): Promise<SendResult> {
    const connector = await this.#connectorOf(tenant, 'Email');
    if (!connector) {
      return this.#email.send({
        to: message.to,
        ...message.builtIn,
        html: message.builtIn.html ?? message.builtIn.text,
      });
    }
    return this.#viaConnector(connector, message);
  }

  async sendSms(tenant: TenantDb, message: MessageToSend): Promise<SendResult> {
    const connector = await this.#connectorOf(tenant, 'Sms');
    if (!connector) return { sent: false, error: 'no SMS connector', permanent: true, durationMs: 0 };
    return this.#viaConnector(connector, message);
  }

  /** Sends with a connector's factory and config (also the console's test send, with an unsaved config). */
  async sendWith(factoryId: string, config: Record<string, unknown>, message: MessageToSend): Promise<void> {
    const module = senderModule(factoryId);
    if (!module) throw new ConnectorError('connector.not_found', factoryId);
    const content = messageFor(config, message.usage, message.values, message.builtIn);
    await module.send(
      config,
      { to: message.to, usage: message.usage, language: message.language, ...content },
      this.#sendContext(),
    );
  }

  async #viaConnector(
    connector: { connectorId: string; config: Record<string, unknown> },
    message: MessageToSend,
  ): Promise<SendResult> {
    const started = performance.now();
    const durationMs = () => Math.round(performance.now() - started);
    try {
      await this.sendWith(connector.connectorId, connector.config, message);
      return { sent: true, messageId: '', durationMs: durationMs() };
    } catch (error) {
      const detail = error instanceof ConnectorError ? `${error.code}: ${error.detail}` : String(error);
      // A refused config or request will be refused again; a provider's outage or rate limit may pass.
      const permanent =
        error instanceof ConnectorError &&
        ['connector.invalid_config', 'connector.invalid_request_parameters', 'connector.not_found'].includes(
          error.code,
        );
      return { sent: false, error: detail, permanent, durationMs: durationMs() };
    }
  }
}
