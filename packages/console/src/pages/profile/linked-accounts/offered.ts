/**
 * Linked accounts are the cloud edition's (spec §6); the OSS server has none of their routes. Fixed at build time, in
 * a module of its own so tests of the dialogs can stand in for a cloud build.
 */
export const linkedAccountsOffered: boolean = import.meta.env.GATEHOUSE_EDITION === 'cloud';
