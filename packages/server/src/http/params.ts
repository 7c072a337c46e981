import { organizationIdSchema } from '@gatehouse/schemas';
import { z } from 'zod';

/** Path parameters shared by several route modules (relation routes nest under their owner's path). */
export const organizationParams = z.object({ id: organizationIdSchema });
export const userIdParams = z.object({ userId: z.string().min(1).max(12) });
