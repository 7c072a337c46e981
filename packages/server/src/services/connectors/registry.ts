import type { ConnectorFactory } from '@gatehouse/schemas';
import { httpEmail, mailgunEmail, postmarkEmail, sendGridEmail, smtpEmail } from './email.ts';
import { httpSms, twilioSms } from './sms.ts';
import { type SocialModule, socialModules } from './social.ts';
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

type AnyModule = SenderModule | SocialModule;
const modules: readonly AnyModule[] = [...senderModules, ...socialModules];
const byId = new Map<string, AnyModule>(modules.map((module) => [module.factory.id, module]));

export const connectorFactories: readonly ConnectorFactory[] = modules.map((module) => module.factory);
export const connectorModule = (factoryId: string): AnyModule | undefined => byId.get(factoryId);
export const senderModule = (factoryId: string): SenderModule | undefined => {
  const module = byId.get(factoryId);
  return module && module.factory.type !== 'Social' ? (module as SenderModule) : undefined;
};
export const socialModule = (factoryId: string): SocialModule | undefined => {
  const module = byId.get(factoryId);
  return module?.factory.type === 'Social' ? (module as SocialModule) : undefined;
};
