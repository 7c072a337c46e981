import { randomBytes } from 'node:crypto';

/** A client secret: 32 random bytes, URL-safe. */
export const generateClientSecret = () => randomBytes(32).toString('base64url');
