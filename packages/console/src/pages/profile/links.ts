/** Link builders of the tenant-less profile page (spec §2.1), as router paths under the console's basename. */
export const toProfile = (): string => '/profile';
export const toVerifyPassword = (): string => '/profile/verify-password';
export const toChangePassword = (): string => '/profile/change-password';
export const toLinkEmail = (): string => '/profile/link-email';
export const toVerificationCode = (): string => '/profile/verification-code';
