import rootPackage from '../../../package.json' with { type: 'json' };
/** Tenants that exist in every installation (spec §6). */
export const DEFAULT_TENANT_ID = 'default';
export const ADMIN_TENANT_ID = 'admin';

export const editions = ['oss', 'cloud'] as const;
export type Edition = (typeof editions)[number];

/** The 16 console languages of spec §1; `en` is the fallback. */
export const languages = [
  'ar',
  'de',
  'en',
  'es',
  'fr',
  'it',
  'ja',
  'ko',
  'pl-PL',
  'pt-BR',
  'pt-PT',
  'ru',
  'tr-TR',
  'zh-CN',
  'zh-HK',
  'zh-TW',
] as const;
export type Language = (typeof languages)[number];
export const fallbackLanguage: Language = 'en';

/** Scope that grants the whole management API of a tenant (spec §6). */
export const MANAGEMENT_API_SCOPE_ALL = 'all';

/**
 * The running Gatehouse's version, from the root package.json (built into the server bundle and the console). Spec §9
 * shows the reference product's version (1.25.0); Gatehouse shows its own, the one its releases are compared with.
 */
export const PRODUCT_VERSION: string = rootPackage.version;

/** Role of the admin tenant that makes a user a console administrator. */
export const CONSOLE_ADMIN_ROLE = 'admin';

/** Machine-to-machine role seeded in every tenant; it grants the management API scope `all`. */
export const MANAGEMENT_API_ROLE = 'Management API access';

/**
 * Spec §2.8: the console route the checkout provider returns to (under the console base path). Here, not in the
 * billing schemas, so the console's route table does not pull those (and the tenant schemas) into its first page.
 */
export const CHECKOUT_CALLBACK_PATH = '/checkout-success-callback';

// The console's tenant-less pages other modules name. Here, with no zod, because the console's first page (its route
// table) imports them: a constant of a module that builds schemas would bring zod onto that page (~29 kB gzip).
/** Spec §2.1: the tenant-less console page the social provider returns the linking popup to. */
export const HANDLE_SOCIAL_PATH = '/handle-social';
/** Spec §2.1/§2.11: the tenant-less page of a demo social connector's callback. */
export const SOCIAL_DEMO_CALLBACK_PATH = '/social-demo-callback';
