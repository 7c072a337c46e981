import { ConnectorError, postToProvider, type SenderModule, text } from './types.ts';

/** SMS connectors: Twilio's Messages API (its public request shape) and a generic HTTP JSON endpoint. */

const templates = {
  key: 'templates',
  label: 'Templates',
  type: 'Templates' as const,
  required: false,
  description: 'Per usage: the text with {{code}} and {{minutes}}. Without one, Gatehouse sends its own text.',
};

export const twilioSms: SenderModule = {
  factory: {
    id: 'twilio-sms',
    type: 'Sms',
    platform: null,
    target: 'twilio',
    name: { en: 'Twilio' },
    description: { en: 'Send text messages with the Twilio Messages API.' },
    logo: '/console/connectors/twilio.svg',
    logoDark: null,
    isStandard: false,
    isDemo: false,
    readme:
      '1. Copy your Account SID and Auth Token from the Twilio console.\n2. Enter a Twilio number (or a messaging service SID) to send from.\n3. Send a test message.',
    formItems: [
      { key: 'accountSid', label: 'Account SID', type: 'Text', required: true },
      { key: 'authToken', label: 'Auth token', type: 'Text', required: true, isConfidential: true },
      { key: 'fromNumber', label: 'From number or messaging service SID', type: 'Text', required: true },
      {
        key: 'baseUrl',
        label: 'API base URL',
        type: 'Url',
        required: false,
        defaultValue: 'https://api.twilio.com',
        description: 'Leave empty for https://api.twilio.com.',
      },
      templates,
    ],
  },
  async send(config, message, context) {
    const sid = text(config, 'accountSid');
    const fromNumber = text(config, 'fromNumber');
    const form = new URLSearchParams({
      To: message.to.startsWith('+') ? message.to : `+${message.to}`,
      Body: message.text,
    });
    form.set(fromNumber.startsWith('MG') ? 'MessagingServiceSid' : 'From', fromNumber);
    const base = (text(config, 'baseUrl') || 'https://api.twilio.com').replace(/\/+$/, '');
    await postToProvider(context, `${base}/2010-04-01/Accounts/${encodeURIComponent(sid)}/Messages.json`, {
      headers: {
        Authorization: `Basic ${Buffer.from(`${sid}:${text(config, 'authToken')}`).toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: form.toString(),
    });
  },
};

export const httpSms: SenderModule = {
  factory: {
    id: 'http-sms',
    type: 'Sms',
    platform: null,
    target: 'http-sms',
    name: { en: 'HTTP SMS' },
    description: { en: 'Post each text message as JSON to an endpoint of yours, which sends it.' },
    logo: '/console/connectors/http.svg',
    logoDark: null,
    isStandard: true,
    isDemo: false,
    readme:
      '1. Run an endpoint that accepts POST with JSON {to, type, text, locale}.\n' +
      '2. Enter its URL and, if it checks one, the Authorization header value.\n3. Send a test message.',
    formItems: [
      { key: 'endpoint', label: 'Endpoint', type: 'Url', required: true },
      { key: 'authorization', label: 'Authorization header', type: 'Text', required: false, isConfidential: true },
      templates,
    ],
  },
  async send(config, message, context) {
    if (!/^\+?\d{4,20}$/.test(message.to)) {
      throw new ConnectorError('connector.invalid_request_parameters', 'the phone number is not digits');
    }
    const authorization = text(config, 'authorization');
    await postToProvider(context, text(config, 'endpoint'), {
      headers: { 'Content-Type': 'application/json', ...(authorization ? { Authorization: authorization } : {}) },
      body: JSON.stringify({ to: message.to, type: message.usage, text: message.text, locale: message.language }),
    });
  },
};
