import { z } from 'zod';

/** Spec §3: ids are strings of 1 to 21 characters (users up to 12). */
export const idSchema = z.string().min(1).max(21);
export const userIdSchema = z.string().min(1).max(12);

const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Random id from a uniform alphabet (spec §9: generator lengths 21 and 12). */
export function generateId(length = 21): string {
  // 252 = 7 * 36: rejecting bytes >= 252 keeps every character equally likely.
  let id = '';
  while (id.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const byte of bytes) {
      if (byte < 252 && id.length < length) id += alphabet[byte % 36];
    }
  }
  return id;
}

export { tenantIdOfOrganization, tenantOrganizationId } from './tenant-organization.ts';
