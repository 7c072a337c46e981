import type { Actor, Language } from '@gatehouse/schemas';
import type { Logger } from 'pino';
import type { SigningKeyStore } from '../auth/signing-keys.ts';
import type { Config } from '../config.ts';
import type { ChangeNotices } from '../db/change-notices.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import type { ScriptSandbox } from '../services/jwt-customizer/sandbox.ts';
import type { MessageDelivery } from '../services/message-delivery.ts';

/** What a verified bearer token says about the caller. */
export type AuthContext = {
  actor: Actor;
  scopes: ReadonlySet<string>;
  /** The tenant whose issuer signed the token (admin for console users). */
  issuerTenantId: string;
};

/** Per-request values every route can read with `c.get(...)`. */
export type AppEnv = {
  Variables: {
    requestId: string;
    language: Language;
    log: Logger;
    config: Config;
    /** The process's verification-key cache (a route that changes a key set drops its entry). */
    keys: SigningKeyStore;
    /** The process's change notices, when it listens (db/change-notices.ts): a route tells its own caches at once. */
    notices?: ChangeNotices | undefined;
    /** Sends messages to people: the tenant's email or SMS connector, else the system mail service. */
    delivery: MessageDelivery;
    /** Runs custom JWT scripts (the console's Test; token issuance uses the same one). */
    scripts: ScriptSandbox;
    tenant: TenantDb;
    auth: AuthContext;
    /** Set by the security-headers middleware: this response's CSP nonce for inline style. */
    secureHeadersNonce?: string;
    /** Sign-in pages: where the form's redirects may lead besides 'self' (shared/form-action.ts). */
    formActionSource?: string;
    /** Sign-in pages with a captcha: the provider's origins its widget loads from (shared/form-action.ts). */
    captchaSources?: { script: readonly string[]; frame: readonly string[]; connect: readonly string[] };
  };
};
