import type { ConnectorFactory } from '@gatehouse/schemas';
import { httpEmail, mailgunEmail, postmarkEmail, sendGridEmail, smtpEmail } from './email.ts';
import { httpSms, twilioSms } from './sms.ts';
import type { SenderModule } from './types.ts';

/** Every connector factory Gatehouse has, by id (reference `/connector-factories`). */
export const senderModules: readonly SenderModule[] = [
  smtpEmail,
  sendGridEmail,
  postmarkEmail,
  mailgunEmail,
  httpEmail,
  twilioSms,
  httpSms,
];

const byId = new Map<string, SenderModule>(senderModules.map((module) => [module.factory.id, module]));

export const connectorFactories: readonly ConnectorFactory[] = senderModules.map((module) => module.factory);
export const senderModule = (factoryId: string): SenderModule | undefined => byId.get(factoryId);
