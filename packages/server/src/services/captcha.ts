import {
  CAPTCHA_SECRET_MASK,
  type CaptchaConfig,
  type CaptchaProvider,
  type CaptchaProviderPut,
  captchaConfigSchema,
  captchaSecretBinding,
  DomainError,
} from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import { seal, unseal } from '../db/secret-box.ts';
import { tenantConfigs } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { secretsSentElsewhere } from './masked-secrets.ts';
import { networkFailure, type OutboundPolicy, outboundFetch } from './outbound.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/**
 * The tenant's captcha provider (reference `/captcha-provider`; docs/areas/security.md "Captcha"): Cloudflare
 * Turnstile or Google reCAPTCHA Enterprise. Kept in `tenant_configs` with its secret key sealed (db/secret-box.ts),
 * answered and audited masked. When the sign-in experience's `captchaPolicy.enabled` is on and a provider is set, the
 * sign-in pages' forms that cost the tenant something (sign-in by password, sign-up, sending a code, forgot password)
 * carry the provider's widget, and the server checks the widget's answer with the provider before anything else.
 */

const CONFIG_KEY = 'captcha.provider';
const TIMEOUT_MS = 10_000;

type Stored = {
  config: Omit<CaptchaConfig, 'secretKey'> & { secretKey: string };
  createdAt: number;
  updatedAt: number;
};

/** The provider's own addresses, unless the config replaces them. */
const defaults = {
  Turnstile: {
    script: 'https://challenges.cloudflare.com/turnstile/v0/api.js',
    verify: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    /** The form field the widget fills. */
    field: 'cf-turnstile-response',
  },
  RecaptchaEnterprise: {
    script: 'https://www.google.com/recaptcha/enterprise.js',
    verify: 'https://recaptchaenterprise.googleapis.com/v1/projects/{projectId}/assessments',
    field: 'g-recaptcha-response',
  },
} as const;

function readStored(value: unknown): Stored | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const stored = value as Stored;
  return stored.config && typeof stored.config.secretKey === 'string' ? stored : undefined;
}

/** The provider with its secret key in the clear: for the sign-in's check only, never for an answer. */
export async function readCaptchaProvider(tenant: TenantDb): Promise<CaptchaConfig | undefined> {
  const row = await tenant.findOne(tenantConfigs, eq(tenantConfigs.key, CONFIG_KEY));
  const stored = readStored(row?.value);
  if (!stored) return undefined;
  const parsed = captchaConfigSchema.safeParse({ ...stored.config, secretKey: unseal(stored.config.secretKey) });
  return parsed.success ? parsed.data : undefined;
}

const masked = (stored: Stored): CaptchaProvider => ({
  config: { ...stored.config, secretKey: CAPTCHA_SECRET_MASK } as CaptchaConfig,
  createdAt: stored.createdAt,
  updatedAt: stored.updatedAt,
});

export async function getCaptchaProvider(tenant: TenantDb): Promise<CaptchaProvider> {
  const row = await tenant.findOne(tenantConfigs, eq(tenantConfigs.key, CONFIG_KEY));
  const stored = readStored(row?.value);
  if (!stored) throw new DomainError('not_found', 'entity.not_exists_with_id');
  return masked(stored);
}

/** PUT: sets the provider; a secret key sent as `********` keeps the stored one (of the same type). */
export async function putCaptchaProvider(ctx: WriteContext, body: CaptchaProviderPut): Promise<CaptchaProvider> {
  const existing = await ctx.tenant.findOne(tenantConfigs, eq(tenantConfigs.key, CONFIG_KEY));
  const key = existing ? 'Admin.CaptchaProvider.Updated' : 'Admin.CaptchaProvider.Created';
  return performWrite(ctx, key, async (tx) => {
    const row = await tx.findOne(tenantConfigs, eq(tenantConfigs.key, CONFIG_KEY));
    const before = readStored(row?.value);
    let secretKey = body.config.secretKey;
    if (secretKey === CAPTCHA_SECRET_MASK) {
      if (!before || before.config.type !== body.config.type) {
        throw new DomainError('invalid', 'guard.invalid_input', [
          { path: 'config.secretKey', message: 'no stored secret key to keep', code: 'custom' },
        ]);
      }
      // The stored key never goes to a new verify URL: it is typed again for one.
      const sentElsewhere = secretsSentElsewhere(
        captchaSecretBinding,
        before.config,
        body.config,
        body.config,
        (field) => `config.${field}`,
      );
      if (sentElsewhere.length > 0) throw new DomainError('invalid', 'guard.invalid_input', sentElsewhere);
      secretKey = unseal(before.config.secretKey);
    }
    const now = Date.now();
    const next: Stored = {
      config: { ...body.config, secretKey: seal(secretKey) },
      createdAt: before?.createdAt ?? now,
      updatedAt: now,
    };
    await tx.insertIfAbsent(tenantConfigs, { key: CONFIG_KEY, value: next });
    await tx.update(tenantConfigs, eq(tenantConfigs.key, CONFIG_KEY), { value: next });
    const after = masked(next);
    return {
      result: after,
      entity: { type: 'CaptchaProvider', id: body.config.type },
      before: before ? masked(before) : null,
      after,
    };
  });
}

export async function deleteCaptchaProvider(ctx: WriteContext): Promise<void> {
  await performWrite(ctx, 'Admin.CaptchaProvider.Deleted', async (tx) => {
    const row = await tx.findOne(tenantConfigs, eq(tenantConfigs.key, CONFIG_KEY));
    const before = readStored(row?.value);
    if (!before) throw new DomainError('not_found', 'entity.not_exists_with_id');
    await tx.delete(tenantConfigs, eq(tenantConfigs.key, CONFIG_KEY));
    return {
      result: undefined,
      entity: { type: 'CaptchaProvider', id: before.config.type },
      before: masked(before),
      after: null,
    };
  });
}

/** What a sign-in page needs to show the widget: the script, its origin (for the CSP) and the field it fills. */
export type CaptchaWidget = {
  type: CaptchaConfig['type'];
  siteKey: string;
  scriptUrl: string;
  field: string;
  /** The origins the page's CSP must allow for the widget (its script, its frame, its calls). */
  csp: { script: string[]; frame: string[]; connect: string[] };
};

/** Where each provider's widget loads from (its documentation's CSP advice). */
const widgetOrigins = {
  Turnstile: { script: ['https://challenges.cloudflare.com'], frame: ['https://challenges.cloudflare.com'] },
  RecaptchaEnterprise: {
    script: ['https://www.google.com', 'https://www.gstatic.com'],
    frame: ['https://www.google.com', 'https://recaptcha.google.com'],
  },
} as const;

export function captchaWidget(config: CaptchaConfig): CaptchaWidget {
  const own = defaults[config.type];
  const scriptUrl = config.scriptUrl ?? own.script;
  const scriptOrigin = new URL(scriptUrl).origin;
  const origins = widgetOrigins[config.type];
  const plus = (list: readonly string[]) => [...new Set([...list, scriptOrigin])];
  return {
    type: config.type,
    siteKey: config.siteKey,
    scriptUrl,
    field: own.field,
    csp: { script: plus(origins.script), frame: plus(origins.frame), connect: plus(origins.script) },
  };
}

/**
 * Asks the provider whether the widget's answer (`token`) is good: Turnstile's siteverify (`success`), or a reCAPTCHA
 * Enterprise assessment (a valid token with at least the minimum score). Any failure to ask (timeout, refused address,
 * an answer that is not JSON) is a no: a captcha that cannot be checked does not let anyone through.
 */
export async function verifyCaptcha(
  config: CaptchaConfig,
  token: string,
  context: { ip?: string | undefined; outbound: OutboundPolicy; log?: Pick<Logger, 'warn'> | undefined },
): Promise<boolean> {
  if (!token || token.length > 4096) return false;
  const fetch = outboundFetch(context.outbound);
  try {
    if (config.type === 'Turnstile') {
      const body = new URLSearchParams({ secret: config.secretKey, response: token });
      if (context.ip) body.set('remoteip', context.ip);
      const response = await fetch(config.verifyUrl ?? defaults.Turnstile.verify, {
        method: 'POST',
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const answer = (await response.json()) as { success?: unknown };
      return response.ok && answer.success === true;
    }
    const url = new URL(
      config.verifyUrl ??
        defaults.RecaptchaEnterprise.verify.replace('{projectId}', encodeURIComponent(config.projectId)),
    );
    url.searchParams.set('key', config.secretKey);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ event: { token, siteKey: config.siteKey, userIpAddress: context.ip } }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const answer = (await response.json()) as {
      tokenProperties?: { valid?: unknown };
      riskAnalysis?: { score?: unknown };
    };
    const score = typeof answer.riskAnalysis?.score === 'number' ? answer.riskAnalysis.score : 0;
    return response.ok && answer.tokenProperties?.valid === true && score >= (config.minimumScore ?? 0.5);
  } catch (error) {
    context.log?.warn({ err: networkFailure(error), type: config.type }, 'captcha check failed');
    return false;
  }
}
