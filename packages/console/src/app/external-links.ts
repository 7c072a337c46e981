/**
 * Spec §2.11: the product's external links, in one place, set at build time (VITE_* variables) by whoever runs the
 * console: a self-hosted Gatehouse has no community, support address or release page of its own to point at, and a
 * link to a place that does not exist is worse than none. A link left unset is not shown (the docs row and top-bar
 * link, the contact rows, the version badge's link, the plan picker's "view all features", the suspended page's
 * contact); the README lists the variables.
 */
export const externalLinks: Readonly<Record<ExternalLinkKey, string | undefined>> = {
  docs: configured(import.meta.env.VITE_DOCS_URL),
  communityChat: configured(import.meta.env.VITE_COMMUNITY_URL),
  codeHost: configured(import.meta.env.VITE_CODE_HOST_URL),
  issues: configured(import.meta.env.VITE_ISSUES_URL),
  releases: configured(import.meta.env.VITE_RELEASES_URL),
  supportEmail: configured(import.meta.env.VITE_SUPPORT_EMAIL),
  meeting: configured(import.meta.env.VITE_MEETING_URL),
  /** Spec §2.9: every feature of each plan ('view all features' on the plan picker's paid cards). */
  pricing: configured(import.meta.env.VITE_PRICING_URL),
};

export type ExternalLinkKey =
  | 'docs'
  | 'communityChat'
  | 'codeHost'
  | 'issues'
  | 'releases'
  | 'supportEmail'
  | 'meeting'
  | 'pricing';

export type ContactRowKey = 'community' | 'code' | 'email' | 'meeting';

/** Spec §2.11: the ways to reach the team that the build configured, in the spec's order. */
export function contactRows(links: typeof externalLinks = externalLinks): { key: ContactRowKey; href: string }[] {
  const rows: { key: ContactRowKey; href: string | undefined }[] = [
    { key: 'community', href: links.communityChat },
    { key: 'code', href: links.codeHost },
    { key: 'email', href: links.supportEmail && `mailto:${links.supportEmail}` },
    { key: 'meeting', href: links.meeting },
  ];
  return rows.filter((row): row is { key: ContactRowKey; href: string } => Boolean(row.href));
}

/** An empty variable counts as unset. */
function configured(value: string | undefined): string | undefined {
  return value?.trim() ? value.trim() : undefined;
}

/** Spec §2.11: a link that is not a valid absolute URL is an in-app route. */
export function isAbsoluteUrl(link: string): boolean {
  return URL.canParse(link);
}
