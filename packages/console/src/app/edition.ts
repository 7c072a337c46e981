export type Edition = 'oss' | 'cloud';

/** Fixed at build time (vite.config.ts), so the bundler can drop what the other edition needs. */
export const edition: Edition = import.meta.env.GATEHOUSE_EDITION;
