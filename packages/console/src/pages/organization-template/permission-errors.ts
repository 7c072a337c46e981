import { z } from 'zod';
import { ApiError } from '../../api/client.ts';

const idsData = z.object({ ids: z.array(z.string()) });

/** The permissions a 422 '…scope_exists' names (assigned meanwhile by someone else), else undefined. */
export function alreadyAssignedIds(error: unknown, code: string): string[] | undefined {
  if (!(error instanceof ApiError) || error.code !== code) return undefined;
  const data = idsData.safeParse(error.data);
  return data.success ? data.data.ids : undefined;
}
