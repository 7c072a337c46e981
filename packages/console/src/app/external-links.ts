/**
 * Spec §2.11: the product's external links, in one place. Each can be replaced at build time (VITE_* variables), so
 * a distribution can point them at its own community and support without a code change.
 */
export const externalLinks = {
  docs: import.meta.env.VITE_DOCS_URL ?? 'https://github.com/gatehouse-iam/gatehouse/tree/main/docs',
  communityChat: import.meta.env.VITE_COMMUNITY_URL ?? 'https://github.com/gatehouse-iam/gatehouse/discussions',
  codeHost: import.meta.env.VITE_CODE_HOST_URL ?? 'https://github.com/gatehouse-iam/gatehouse',
  issues: import.meta.env.VITE_ISSUES_URL ?? 'https://github.com/gatehouse-iam/gatehouse/issues',
  releases: import.meta.env.VITE_RELEASES_URL ?? 'https://github.com/gatehouse-iam/gatehouse/releases',
  supportEmail: import.meta.env.VITE_SUPPORT_EMAIL ?? 'support@gatehouse.invalid',
  meeting: import.meta.env.VITE_MEETING_URL ?? 'https://github.com/gatehouse-iam/gatehouse/discussions/categories/q-a',
  /** Spec §2.9: every feature of each plan ('view all features' on the plan picker's paid cards). */
  pricing: import.meta.env.VITE_PRICING_URL ?? 'https://github.com/gatehouse-iam/gatehouse/blob/main/README.md#plans',
} as const;

/** Spec §2.11: a link that is not a valid absolute URL is an in-app route. */
export function isAbsoluteUrl(link: string): boolean {
  return URL.canParse(link);
}
