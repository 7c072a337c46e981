import { idSchema, organizationIdSchema, paginationQuerySchema } from '@gatehouse/schemas';
import { z } from 'zod';

/** Path parameters shared by several route modules (relation routes nest under their owner's path). */
export const idParams = z.object({ id: idSchema });
export const organizationParams = z.object({ id: organizationIdSchema });
/**
 * A user id in a path: any id-like text, so an id that cannot exist (`/users/not-an-id`) is 404 like an unknown one
 * (reference), not 400. Ids we generate have 12 characters; the bound only keeps absurd paths out.
 */
export const userIdPathSchema = z.string().min(1).max(256);
export const userIdParams = z.object({ userId: userIdPathSchema });
/** `search` over a relation's list (substring, any case). */
export const searchQuery = paginationQuerySchema.extend({ search: z.string().max(256).optional() });
