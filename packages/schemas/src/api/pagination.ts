import { z } from 'zod';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

const positiveInteger = (max?: number) => {
  const base = z
    .string()
    .regex(/^\d+$/, 'must be a positive integer')
    .transform(Number)
    .pipe(max ? z.number().int().min(1).max(max) : z.number().int().min(1).max(Number.MAX_SAFE_INTEGER));
  return base;
};

/** `page` ≥ 1 and `page_size` 1–100 (default 20), as query strings. */
export const paginationQuerySchema = z.object({
  page: positiveInteger().optional(),
  page_size: positiveInteger(MAX_PAGE_SIZE).optional(),
});
export type PaginationQuery = z.infer<typeof paginationQuerySchema>;

export { TOTAL_NUMBER_HEADER } from './headers.ts';
