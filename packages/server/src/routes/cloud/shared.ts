import { z } from 'zod';
import type { TenantProviders } from '../../auth/oidc/provider.ts';
import type { SigningKeyStore } from '../../auth/signing-keys.ts';
import type { PaymentProvider } from '../../billing/provider.ts';
import type { Database } from '../../db/client.ts';

/** What the cloud API's route modules need beside the request: the whole database and the per-tenant caches. */
export type CloudDeps = {
  db: Database;
  keys: SigningKeyStore;
  providers: TenantProviders;
  /** Drops what this process caches about a tenant (after deleting it). */
  forgetTenant: (tenantId: string) => void;
  /** The configured payment provider (src/billing). */
  payments: PaymentProvider;
  /** The console's public URL: callback URLs must be on its origin. */
  publicUrl: string;
};

export const tags = ['Cloud'];

/** `{id}` of a tenant or invitation: any string, since an id that cannot exist is as unknown as one that does not (404, never a hint). */
export const idParams = z.object({ id: z.string().min(1).max(64) });
