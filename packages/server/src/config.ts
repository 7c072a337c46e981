import { resolve } from 'node:path';
import { editions, usernameRegex } from '@gatehouse/schemas';
import { z } from 'zod';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const portMessage = 'must be an integer from 0 to 65535';

/** Environment variables of the server, all documented in the README. */
const envSchema = z
  .object({
    PORT: z.coerce
      .number({ error: portMessage })
      .int({ error: portMessage })
      .min(0, { error: portMessage })
      .max(65_535, { error: portMessage })
      .default(3001),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
    EDITION: z.enum(editions).default('oss'),
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    LOG_LEVEL: z.enum(logLevels).default('info'),
    ADMIN_USERNAME: z
      .string()
      .regex(usernameRegex, 'must start with a letter or underscore, then letters, digits or underscores')
      .max(128)
      .optional(),
    ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').max(256).optional(),
    CONSOLE_DIR: z.string().min(1).optional(),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/[^\s/]+/, 'must be an smtp:// or smtps:// URL such as smtp://user:pass@host:587')
      .optional(),
    EMAIL_FROM: z.string().min(3).max(256).optional(),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.ADMIN_USERNAME) !== Boolean(env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.ADMIN_USERNAME ? 'ADMIN_PASSWORD' : 'ADMIN_USERNAME'],
        message: `must be set together with ${env.ADMIN_USERNAME ? 'ADMIN_USERNAME' : 'ADMIN_PASSWORD'}`,
      });
    }
  });

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  edition: (typeof editions)[number];
  publicUrl: string;
  logLevel: (typeof logLevels)[number];
  admin: { username: string; password: string } | undefined;
  consoleDir: string;
  /** Outgoing email (invitations); undefined when SMTP_URL is unset: messages are logged as not sent. */
  smtp: { url: string; from: string } | undefined;
};

export class ConfigError extends Error {}

const packagesDir = resolve(import.meta.dirname, '..', '..');

/** Parses the environment; throws ConfigError with one line naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty variables count as unset, as in most shells' `VAR= cmd` usage.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    const value = env[name];
    // Secrets are not echoed (an SMTP URL carries the password).
    const shown = name === 'ADMIN_PASSWORD' || name === 'SMTP_URL' || value === undefined ? '' : ` (got "${value}")`;
    throw new ConfigError(`Invalid configuration: ${name} ${issue?.message ?? 'is invalid'}${shown}`);
  }
  const e = parsed.data;
  const port = e.PORT;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    edition: e.EDITION,
    publicUrl,
    logLevel: e.LOG_LEVEL,
    admin:
      e.ADMIN_USERNAME && e.ADMIN_PASSWORD ? { username: e.ADMIN_USERNAME, password: e.ADMIN_PASSWORD } : undefined,
    consoleDir: resolve(e.CONSOLE_DIR ?? resolve(packagesDir, 'console', 'dist')),
    smtp: e.SMTP_URL
      ? { url: e.SMTP_URL, from: e.EMAIL_FROM ?? `Gatehouse <no-reply@${new URL(publicUrl).hostname}>` }
      : undefined,
  };
}
