import { type ApplicationSecretCreate, applicationSecretNameSchema } from '@gatehouse/schemas';
import { z } from 'zod';

/** Lifetimes offered for a new secret, in days; 'never' keeps it until it is deleted. */
export const secretLifetimes = ['never', '30', '90', '180', '365'] as const;
export type SecretLifetime = (typeof secretLifetimes)[number];

const dayMs = 86_400_000;

export const secretFormSchema = z.object({
  secretName: applicationSecretNameSchema,
  lifetime: z.enum(secretLifetimes),
});
export type SecretFormValues = z.input<typeof secretFormSchema>;
export type SecretFormOutput = z.output<typeof secretFormSchema>;

export const renameFormSchema = z.object({ secretName: applicationSecretNameSchema });

/** POST …/secrets: the expiry as epoch milliseconds from now, or null for a secret that does not expire. */
export function toSecretCreate(values: SecretFormOutput, now = Date.now()): ApplicationSecretCreate {
  return {
    name: values.secretName,
    expiresAt: values.lifetime === 'never' ? null : now + Number(values.lifetime) * dayMs,
  };
}

export type SecretStatus = 'active' | 'expired';

export function secretStatus(expiresAt: number | null, now = Date.now()): SecretStatus {
  return expiresAt !== null && expiresAt <= now ? 'expired' : 'active';
}

/** API field paths of the secret routes → the dialogs' one field. */
export const secretFormPath = (apiPath: string): string | undefined => (apiPath === 'name' ? 'secretName' : undefined);
