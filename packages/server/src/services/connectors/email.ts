import type { ConnectorFormItem } from '@gatehouse/schemas';
import nodemailer from 'nodemailer';
import { excerpt, networkFailure } from '../outbound.ts';
import { ConnectorError, flag, num, postToProvider, type SenderModule, text } from './types.ts';

/**
 * Email connectors: SMTP (nodemailer), the JSON APIs of SendGrid, Postmark and Mailgun (their public request shapes),
 * and a generic HTTP JSON endpoint. Each API's base URL is a field with the provider's default, so a test (or a
 * regional endpoint) can point it elsewhere; requests go through the outbound policy like webhooks.
 */

const templates: ConnectorFormItem = {
  key: 'templates',
  label: 'Templates',
  type: 'Templates',
  required: false,
  description:
    'Per usage (SignIn, Register, ForgotPassword, Generic, OrganizationInvitation…): subject and content with ' +
    '{{code}}, {{link}}, {{organization}}, {{inviter}}, {{minutes}}. Without one, Gatehouse sends its own ' +
    'message in the user’s language.',
};
const sender: ConnectorFormItem[] = [
  { key: 'fromEmail', label: 'From address', type: 'Text', required: true, placeholder: 'no-reply@example.com' },
  { key: 'fromName', label: 'From name', type: 'Text', required: false },
];
const logo = (name: string) => `/console/connectors/${name}.svg`;
const named = (en: string) => ({ en });

const from = (config: Record<string, unknown>) => {
  const name = text(config, 'fromName');
  return {
    email: text(config, 'fromEmail'),
    name,
    header: name ? `"${name.replace(/"/g, '')}" <${text(config, 'fromEmail')}>` : text(config, 'fromEmail'),
  };
};

export const smtpEmail: SenderModule = {
  factory: {
    id: 'smtp',
    type: 'Email',
    platform: null,
    target: 'smtp',
    name: named('SMTP'),
    description: named('Send email through any SMTP server.'),
    logo: logo('smtp'),
    logoDark: null,
    isStandard: true,
    isDemo: false,
    readme:
      '1. Get the host, port and credentials of your SMTP server.\n2. Enter them and the sender address.\n3. Send a test email.',
    formItems: [
      { key: 'host', label: 'Host', type: 'Text', required: true, placeholder: 'smtp.example.com' },
      { key: 'port', label: 'Port', type: 'Number', required: true, defaultValue: 587 },
      { key: 'secure', label: 'TLS from the start (port 465)', type: 'Switch', required: false },
      { key: 'username', label: 'Username', type: 'Text', required: false },
      { key: 'password', label: 'Password', type: 'Text', required: false, isConfidential: true },
      ...sender,
      templates,
    ],
  },
  async send(config, message, context) {
    // The tenant types the host: the outbound policy decides where it may connect (a private address in cloud is
    // refused before any byte is sent), and the connection goes to the address it checked, with the name kept for TLS.
    const host = text(config, 'host');
    let address: string;
    try {
      address = await context.address(host);
    } catch (error) {
      throw new ConnectorError('connector.general', networkFailure(error));
    }
    const transport = nodemailer.createTransport({
      host: address,
      ...(address === host ? {} : { servername: host }),
      port: num(config, 'port', 587),
      secure: flag(config, 'secure'),
      ...(text(config, 'username') ? { auth: { user: text(config, 'username'), pass: text(config, 'password') } } : {}),
      connectionTimeout: context.timeoutMs,
      greetingTimeout: context.timeoutMs,
      socketTimeout: context.timeoutMs,
    });
    try {
      await transport.sendMail({
        from: from(config).header,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
      });
    } catch (error) {
      // nodemailer's message quotes the server's reply: an excerpt of it at most.
      const detail = excerpt(error instanceof Error ? error.message : String(error));
      const code = (error as { responseCode?: number }).responseCode;
      throw new ConnectorError(code === 535 ? 'connector.invalid_config' : 'connector.general', detail);
    } finally {
      transport.close();
    }
  },
};

const baseUrl = (defaultValue: string): ConnectorFormItem => ({
  key: 'baseUrl',
  label: 'API base URL',
  type: 'Url',
  required: false,
  defaultValue,
  description: `Leave empty for ${defaultValue}.`,
});
const apiKey: ConnectorFormItem = {
  key: 'apiKey',
  label: 'API key',
  type: 'Text',
  required: true,
  isConfidential: true,
};
const base = (config: Record<string, unknown>, fallback: string) =>
  (text(config, 'baseUrl') || fallback).replace(/\/+$/, '');

export const sendGridEmail: SenderModule = {
  factory: {
    id: 'sendgrid-email',
    type: 'Email',
    platform: null,
    target: 'sendgrid',
    name: named('SendGrid'),
    description: named('Send email with the SendGrid v3 Mail Send API.'),
    logo: logo('sendgrid'),
    logoDark: null,
    isStandard: false,
    isDemo: false,
    readme:
      '1. Create an API key with Mail Send access in SendGrid.\n2. Verify your sender address there.\n3. Enter both here and send a test email.',
    formItems: [apiKey, ...sender, baseUrl('https://api.sendgrid.com'), templates],
  },
  async send(config, message, context) {
    const sender = from(config);
    await postToProvider(context, `${base(config, 'https://api.sendgrid.com')}/v3/mail/send`, {
      headers: { Authorization: `Bearer ${text(config, 'apiKey')}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        personalizations: [{ to: [{ email: message.to }] }],
        from: { email: sender.email, ...(sender.name ? { name: sender.name } : {}) },
        subject: message.subject,
        content: [
          { type: 'text/plain', value: message.text },
          ...(message.html ? [{ type: 'text/html', value: message.html }] : []),
        ],
      }),
    });
  },
};

export const postmarkEmail: SenderModule = {
  factory: {
    id: 'postmark-email',
    type: 'Email',
    platform: null,
    target: 'postmark',
    name: named('Postmark'),
    description: named('Send email with the Postmark Email API.'),
    logo: logo('postmark'),
    logoDark: null,
    isStandard: false,
    isDemo: false,
    readme:
      '1. Copy the Server API token of your Postmark server.\n2. Use a sender signature you confirmed there.\n3. Enter both here and send a test email.',
    formItems: [{ ...apiKey, label: 'Server API token' }, ...sender, baseUrl('https://api.postmarkapp.com'), templates],
  },
  async send(config, message, context) {
    await postToProvider(context, `${base(config, 'https://api.postmarkapp.com')}/email`, {
      headers: {
        'X-Postmark-Server-Token': text(config, 'apiKey'),
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      body: JSON.stringify({
        From: from(config).header,
        To: message.to,
        Subject: message.subject,
        TextBody: message.text,
        ...(message.html ? { HtmlBody: message.html } : {}),
        MessageStream: 'outbound',
      }),
    });
  },
};

export const mailgunEmail: SenderModule = {
  factory: {
    id: 'mailgun-email',
    type: 'Email',
    platform: null,
    target: 'mailgun',
    name: named('Mailgun'),
    description: named('Send email with the Mailgun Messages API.'),
    logo: logo('mailgun'),
    logoDark: null,
    isStandard: false,
    isDemo: false,
    readme:
      '1. Add and verify your sending domain in Mailgun.\n2. Create a sending API key.\n3. Enter the domain and key here (EU accounts: base URL https://api.eu.mailgun.net).',
    formItems: [
      { key: 'domain', label: 'Sending domain', type: 'Text', required: true, placeholder: 'mg.example.com' },
      apiKey,
      ...sender,
      baseUrl('https://api.mailgun.net'),
      templates,
    ],
  },
  async send(config, message, context) {
    const form = new URLSearchParams({
      from: from(config).header,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
    if (message.html) form.set('html', message.html);
    const credentials = Buffer.from(`api:${text(config, 'apiKey')}`).toString('base64');
    await postToProvider(
      context,
      `${base(config, 'https://api.mailgun.net')}/v3/${encodeURIComponent(text(config, 'domain'))}/messages`,
      {
        headers: { Authorization: `Basic ${credentials}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      },
    );
  },
};

export const httpEmail: SenderModule = {
  factory: {
    id: 'http-email',
    type: 'Email',
    platform: null,
    target: 'http-email',
    name: named('HTTP email'),
    description: named('Post each email as JSON to an endpoint of yours, which sends it.'),
    logo: logo('http'),
    logoDark: null,
    isStandard: true,
    isDemo: false,
    readme:
      '1. Run an endpoint that accepts POST with JSON {to, type, subject, text, html, locale}.\n' +
      '2. Enter its URL and, if it checks one, the Authorization header value.\n3. Send a test email.',
    formItems: [
      { key: 'endpoint', label: 'Endpoint', type: 'Url', required: true },
      { key: 'authorization', label: 'Authorization header', type: 'Text', required: false, isConfidential: true },
      templates,
    ],
  },
  async send(config, message, context) {
    const authorization = text(config, 'authorization');
    await postToProvider(context, text(config, 'endpoint'), {
      headers: { 'Content-Type': 'application/json', ...(authorization ? { Authorization: authorization } : {}) },
      body: JSON.stringify({
        to: message.to,
        type: message.usage,
        subject: message.subject,
        text: message.text,
        html: message.html ?? null,
        locale: message.language,
      }),
    });
  },
};
