// oidc-provider's own grant handlers, which the organization-token grants wrap (see organization-tokens.ts). The
// package has no `exports` map, so these modules are importable; their shapes are declared here as far as we use them.

declare module 'oidc-provider/lib/actions/grants/refresh_token.js' {
  import type Provider from 'oidc-provider';
  import type { KoaContextWithOIDC } from 'oidc-provider';
  export const handler: (provider: Provider, helpers: object, ctx: KoaContextWithOIDC) => Promise<void>;
  export const parameters: ReadonlySet<string>;
}

declare module 'oidc-provider/lib/actions/grants/client_credentials.js' {
  import type Provider from 'oidc-provider';
  import type { KoaContextWithOIDC } from 'oidc-provider';
  export const handler: (provider: Provider, helpers: object, ctx: KoaContextWithOIDC) => Promise<void>;
  export const parameters: ReadonlySet<string>;
}

declare module 'oidc-provider/lib/helpers/grants.js' {
  const helpers: Record<string, (provider: unknown, ...args: never[]) => unknown>;
  export = helpers;
}
