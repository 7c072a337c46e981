import { z } from 'zod';
import { ApiError } from '../../../api/client.ts';

const idsData = z.object({ ids: z.array(z.string()) });

/** The permissions a 422 `role.scope_exists` names (someone assigned them meanwhile), else undefined. */
export function alreadyAssignedScopeIds(error: unknown): string[] | undefined {
  if (!(error instanceof ApiError) || error.code !== 'role.scope_exists') return undefined;
  const data = idsData.safeParse(error.data);
  return data.success ? data.data.ids : undefined;
}
