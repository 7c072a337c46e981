// Zod-free, so the console's first page can read these without downloading zod (pagination.ts and user-list.ts
// re-export them, so every import of either keeps working).

/** Response headers of a paginated list. */
export const TOTAL_NUMBER_HEADER = 'Total-Number';

/** Set to `true` when `Total-Number` stopped at the count cap (the reference API's header name). */
export const TOTAL_NUMBER_IS_CAPPED_HEADER = 'Total-Number-Is-Capped';
