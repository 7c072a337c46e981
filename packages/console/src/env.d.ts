/** Set by vite.config.ts from the EDITION build flag. */
interface ImportMetaEnv {
  readonly GATEHOUSE_EDITION: 'oss' | 'cloud';
  /** Language → version of its strings under assets/locales/ (locale-assets.ts). */
  readonly GATEHOUSE_LOCALE_VERSIONS: Readonly<Record<string, string>>;
  /** Optional build-time overrides of the external links (app/external-links.ts). */
  readonly VITE_DOCS_URL?: string;
  readonly VITE_COMMUNITY_URL?: string;
  readonly VITE_CODE_HOST_URL?: string;
  readonly VITE_ISSUES_URL?: string;
  readonly VITE_RELEASES_URL?: string;
  readonly VITE_SUPPORT_EMAIL?: string;
  readonly VITE_MEETING_URL?: string;
  readonly VITE_PRICING_URL?: string;
  /** Where the new-version check reads `{ latestRelease }` (spec §5); no check when unset. */
  readonly VITE_RELEASE_INFO_URL?: string;
}
