import { createHash } from 'node:crypto';

/**
 * How a value Gatehouse shows once and later only compares is kept: personal access tokens, one-time tokens, SCIM
 * bearer tokens and backup codes. Each is random (the tokens 32 or more characters; a backup code is single-use and
 * its check throttled at sign-in), so a fast hash is enough and lets a lookup by value be one indexed read; the hex
 * SHA-256 is what their columns hold.
 */
export const storedValueHash = (value: string): string => createHash('sha256').update(value).digest('hex');
