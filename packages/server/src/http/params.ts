import { idSchema, organizationIdSchema, paginationQuerySchema } from '@gatehouse/schemas';
import { z } from 'zod';

/** Path parameters shared by several route modules (relation routes nest under their owner's path). */
export const idParams = z.object({ id: idSchema });
export const organizationParams = z.object({ id: organizationIdSchema });
export const userIdParams = z.object({ userId: z.string().min(1).max(12) });
/** `search` over a relation's list (substring, any case). */
export const searchQuery = paginationQuerySchema.extend({ search: z.string().max(256).optional() });
