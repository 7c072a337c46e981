/** Set by vite.config.ts from the EDITION build flag. */
interface ImportMetaEnv {
  readonly GATEHOUSE_EDITION: 'oss' | 'cloud';
}
