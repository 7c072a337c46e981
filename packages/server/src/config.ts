import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { editions, usernameRegex } from '@gatehouse/schemas';
import { z } from 'zod';
import type { OutboundPolicy } from './services/outbound.ts';

/** Payment providers built in (src/billing); a real provider adds its id here and its adapter there. */
export const paymentProviderIds = ['sandbox'] as const;

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const portMessage = 'must be an integer from 0 to 65535';

/** A host name (letters, digits, hyphens, dots; a trailing dot is allowed and dropped). */
const hostNameRegex = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.?$/i;

/**
 * One `DNS_SERVERS` entry, `ip`, `ip:port` or `[ipv6]:port`, as node:dns `Resolver.setServers` takes them.
 * Host names are refused: the resolver needs addresses, and resolving a resolver's name would be circular.
 */
export function parseDnsServer(entry: string): string | undefined {
  const value = entry.trim();
  if (isIP(value)) return value;
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/i.exec(value);
  const plain = /^([0-9.]+):(\d{1,5})$/.exec(value);
  const [, host = '', port] = bracketed ?? plain ?? [];
  if (!isIP(host) || (port !== undefined && (Number(port) < 1 || Number(port) > 65_535))) return undefined;
  return value;
}

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
    OUTBOUND_PRIVATE_ADDRESSES: z.enum(['allow', 'deny']).optional(),
    OUTBOUND_ALLOW_LIST: z
      .string()
      .regex(
        /^\s*[^\s,]+(\s*,\s*[^\s,]+)*\s*$/,
        'must be a comma-separated list of host names, IP addresses or CIDR ranges',
      )
      .optional(),
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
    CUSTOM_DOMAIN_TARGET: z
      .string()
      .regex(hostNameRegex, 'must be a host name such as edge.example.com')
      .max(254)
      .optional(),
    DNS_SERVERS: z
      .string()
      .refine(
        (value) => value.split(',').every((entry) => parseDnsServer(entry) !== undefined),
        'must be comma-separated IP addresses with optional ports, such as 1.1.1.1,[2606:4700::1111]:53',
      )
      .optional(),
    CUSTOM_DOMAIN_HTTPS_PORT: z.coerce
      .number({ error: 'must be an integer from 1 to 65535' })
      .int({ error: 'must be an integer from 1 to 65535' })
      .min(1, { error: 'must be an integer from 1 to 65535' })
      .max(65_535, { error: 'must be an integer from 1 to 65535' })
      .default(443),
    CUSTOM_DOMAIN_CA_FILE: z.string().min(1).optional(),
    AUDIT_LOG_RETENTION_DAYS: z.coerce
      .number({ error: 'must be a whole number of days from 1 to 36500' })
      .int({ error: 'must be a whole number of days from 1 to 36500' })
      .min(1, { error: 'must be a whole number of days from 1 to 36500' })
      .max(36_500, { error: 'must be a whole number of days from 1 to 36500' })
      .optional(),
    PAYMENT_PROVIDER: z.enum(paymentProviderIds).default('sandbox'),
    PAYMENT_WEBHOOK_SECRET: z.string().min(32, 'must be at least 32 characters').max(512).optional(),
    SECRETS_KEY: z
      .string()
      .refine(
        (value) => Buffer.from(value, 'base64').length === 32,
        'must be 32 bytes in base64 (openssl rand -base64 32)',
      )
      .optional(),
    SECRETS_KEY_PREVIOUS: z
      .string()
      .refine(
        (value) => value.split(',').every((entry) => Buffer.from(entry.trim(), 'base64').length === 32),
        'must be comma-separated 32-byte keys in base64',
      )
      .optional(),
    CUSTOM_JWT_FETCH_ALLOW_LIST: z
      .string()
      .refine(
        (value) =>
          value
            .split(',')
            .map((entry) => entry.trim())
            .filter(Boolean)
            .every(
              (entry) =>
                URL.canParse(entry) &&
                /^https?:$/.test(new URL(entry).protocol) &&
                new URL(entry).origin === entry.replace(/\/$/, ''),
            ),
        'must be comma-separated origins such as https://api.example.com',
      )
      .optional(),
    PWNED_PASSWORDS_URL: z
      .union([z.literal('off'), z.url({ protocol: /^https?$/ })], {
        error: 'must be an http(s) URL to which a 5-character hash prefix is appended, or off',
      })
      .default('https://api.pwnedpasswords.com/range/'),
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
  /** How custom domains (`/domains`) are verified. */
  customDomains: {
    /** The host a custom domain's CNAME must point to (CUSTOM_DOMAIN_TARGET, default the PUBLIC_URL host). */
    target: string;
    /** Resolvers for the checks (DNS_SERVERS); undefined: the system's. */
    dnsServers: string[] | undefined;
    /** Port of the TLS probe (CUSTOM_DOMAIN_HTTPS_PORT). */
    httpsPort: number;
    /** PEM certificates trusted by the TLS probe besides the public roots (CUSTOM_DOMAIN_CA_FILE: private CAs). */
    extraCaCertificates: string | undefined;
  };
  /** The payment provider of the cloud edition (src/billing). */
  payments: {
    provider: (typeof paymentProviderIds)[number];
    /** Signs webhooks and customer-portal links (PAYMENT_WEBHOOK_SECRET); undefined: a random one per process. */
    webhookSecret: string | undefined;
  };
  /** Where tenants' webhook endpoints may be (OUTBOUND_PRIVATE_ADDRESSES, OUTBOUND_ALLOW_LIST; src/services/outbound.ts). */
  outbound: OutboundPolicy;
  /**
   * The breached-password range service of the password policy's pwned check (PWNED_PASSWORDS_URL; the hash prefix
   * is appended); undefined when set to `off`: the check then allows every password (services/pwned-passwords.ts).
   */
  pwnedPasswordsUrl: string | undefined;
  /**
   * Days audit-log entries are kept where no plan says (AUDIT_LOG_RETENTION_DAYS): every tenant in OSS, tenants whose
   * plan keeps logs forever (the admin tenant) in cloud; undefined: forever (services/log-retention.ts).
   */
  auditLogRetentionDays: number | undefined;
  /** Master key of the secrets stored encrypted (SECRETS_KEY); undefined: DATA_DIR/secrets.key (db/secret-box.ts). */
  secretsKey: string | undefined;
  /** Older master keys still read during a rotation (SECRETS_KEY_PREVIOUS). */
  secretsKeyPrevious: string[];
  /** Custom JWT scripts (services/jwt-customizer): the origins their `fetch` may reach (CUSTOM_JWT_FETCH_ALLOW_LIST). */
  customJwt: { fetchAllowList: string[] };
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
    const shown =
      name === 'ADMIN_PASSWORD' ||
      name === 'SMTP_URL' ||
      name === 'PAYMENT_WEBHOOK_SECRET' ||
      name.startsWith('SECRETS_KEY') ||
      value === undefined
        ? ''
        : ` (got "${value}")`;
    throw new ConfigError(`Invalid configuration: ${name} ${issue?.message ?? 'is invalid'}${shown}`);
  }
  const e = parsed.data;
  // In production the master key of secrets at rest must come from the operator, not a file beside the data.
  if (cleaned.NODE_ENV === 'production' && !e.SECRETS_KEY) {
    throw new ConfigError(
      'Invalid configuration: SECRETS_KEY must be set when NODE_ENV=production (32 bytes in base64: openssl rand -base64 32)',
    );
  }
  const port = e.PORT;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const extraCaCertificates = e.CUSTOM_DOMAIN_CA_FILE ? readCaFile(e.CUSTOM_DOMAIN_CA_FILE) : undefined;
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
    customDomains: {
      target: (e.CUSTOM_DOMAIN_TARGET ?? new URL(publicUrl).hostname).replace(/\.$/, '').toLowerCase(),
      dnsServers: e.DNS_SERVERS?.split(',').map((entry) => entry.trim()),
      httpsPort: e.CUSTOM_DOMAIN_HTTPS_PORT,
      extraCaCertificates,
    },
    payments: { provider: e.PAYMENT_PROVIDER, webhookSecret: e.PAYMENT_WEBHOOK_SECRET },
    pwnedPasswordsUrl: e.PWNED_PASSWORDS_URL === 'off' ? undefined : e.PWNED_PASSWORDS_URL,
    secretsKey: e.SECRETS_KEY,
    auditLogRetentionDays: e.AUDIT_LOG_RETENTION_DAYS,
    secretsKeyPrevious: (e.SECRETS_KEY_PREVIOUS ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
    customJwt: {
      fetchAllowList: (e.CUSTOM_JWT_FETCH_ALLOW_LIST ?? '')
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    },
    // Tenants' webhook (and, later, connector) endpoints: private addresses refused in cloud unless allowed.
    outbound: {
      denyPrivate: (e.OUTBOUND_PRIVATE_ADDRESSES ?? (e.EDITION === 'cloud' ? 'deny' : 'allow')) === 'deny',
      allowList: (e.OUTBOUND_ALLOW_LIST ?? '')
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    },
  };
}

/** Read at startup so a wrong path fails at once rather than at the first domain check. */
function readCaFile(path: string): string {
  let pem: string;
  try {
    pem = readFileSync(resolve(path), 'utf8');
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration: CUSTOM_DOMAIN_CA_FILE cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}: "${path}")`,
    );
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    throw new ConfigError(`Invalid configuration: CUSTOM_DOMAIN_CA_FILE must hold PEM certificates ("${path}")`);
  }
  return pem;
}
